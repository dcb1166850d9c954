"""The one game loop every caller uses: evaluation, pretraining, replays, play, the single-agent
wrapper and the benchmarks.

An *agent* here is any callable ``agent(state, seat) -> action`` (the baseline agents of
:mod:`envs.agents`, trained models, a human at a prompt...). Agents never modify the state they are
given. A decision is ``{seat: action}`` for the seats that act now (one seat in a turn-based game,
every seat in a game where all act at once): every acting seat chooses from the same state, then
:meth:`envs.core.game.State.apply_actions` plays them together, so no caller has to know which kind
of game it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from envs.core.game import Game, State

Agent = Callable[[State, int], int]


def decide(state: State, agents: Sequence[Agent] | Callable[[int], Agent]) -> dict:
    """The decision of the seats that act now: ``{seat: agent(state, seat)}``, each seat's agent
    taken from ``agents`` (a sequence indexed by seat, or a function ``seat -> agent``)."""
    pick = agents if callable(agents) and not isinstance(agents, Sequence) else agents.__getitem__
    return {seat: pick(seat)(state, seat) for seat in state.current_seats()}


def play_game(
    game: Game | State,
    agents: Sequence[Agent] | Callable[[int], Agent],
    max_steps: int = 100_000,
    on_decision: Callable[[State, dict], None] | None = None,
    check: bool = True,
    until: Callable[[State], bool] | None = None,
) -> State:
    """Play a game to its end and return the final state.

    Args:
        game: a :class:`Game` (played from its initial state) or a :class:`State` (played on from
            there, in place).
        agents: each seat's agent, a sequence indexed by seat or a function ``seat -> agent``.
        max_steps: a RuntimeError once this many decisions have been played without an end.
        on_decision: called as ``on_decision(state, actions)`` before each decision is applied (the
            state as the agents saw it), e.g. to record the moves.
        check: check every action against the rules (``check=False`` for agents that only ever pick
            legal actions, e.g. inside a search).
        until: stop early, before a decision, when ``until(state)`` is True (e.g. "the learner must
            act"); the state is then not terminal.
    """
    state = game if isinstance(game, State) else game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if until is not None and until(state):
            return state
        actions = decide(state, agents)
        if on_decision is not None:
            on_decision(state, actions)
        state.apply_actions(actions, check)
        steps += 1
        if steps >= max_steps and not state.is_terminal():
            raise RuntimeError(f"{state.game.info.name}: the game did not end within {max_steps} decisions")
    return state
