"""The one game loop every caller uses: evaluation, pretraining, replays, play, the single-agent
wrapper and the benchmarks.

An *agent* here is any callable ``agent(state, seat) -> action`` (the baseline agents of
:mod:`boardgames.envs.agents`, trained models, a human at a prompt...). Agents never modify the state they are
given. A decision is ``{seat: action}`` for the seats that act now (one seat in a turn-based game,
every seat in a game where all act at once): every acting seat chooses from the same state, then
:meth:`boardgames.envs.core.game.State.apply_actions` plays them together, so no caller has to know which kind
of game it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from boardgames.envs.core.game import Game, State

Agent = Callable[[State, int], int]


def _seat_agent(agents) -> Callable[[int], Agent]:
    """``seat -> agent`` from a sequence indexed by seat or such a function."""
    return agents if callable(agents) and not isinstance(agents, Sequence) else agents.__getitem__


def decide(state: State, agents: Sequence[Agent] | Callable[[int], Agent]) -> dict:
    """The decision of the seats that act now: ``{seat: agent(state, seat)}``, each seat's agent
    taken from ``agents`` (a sequence indexed by seat, or a function ``seat -> agent``)."""
    pick = _seat_agent(agents)
    return {seat: pick(seat)(state, seat) for seat in state.current_seats()}


def play_game(
    game: Game | State,
    agents: Sequence[Agent] | Callable[[int], Agent],
    max_steps: int = 100_000,
    on_decision: Callable[[State, dict], None] | None = None,
    check: bool = True,
    until: Callable[[State], bool] | None = None,
    until_seat: int | None = None,
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
        until: stop early, before a decision, when ``until(state)`` is True; the state is then not
            terminal.
        until_seat: stop early, before a decision in which this seat acts (e.g. the learner of a
            single-agent environment).
    """
    pick = _seat_agent(agents)
    state = game if isinstance(game, State) else game.new_initial_state()
    steps = 0
    seats = state.current_seats()
    while seats:  # no seat acts once the game is over
        if until_seat in seats or (until is not None and until(state)):
            return state
        actions = {seat: pick(seat)(state, seat) for seat in seats}
        if on_decision is not None:
            on_decision(state, actions)
        state.apply_actions(actions, check)
        steps += 1
        seats = state.current_seats()
        if steps >= max_steps and seats:
            raise RuntimeError(f"{state.game.info.name}: the game did not end within {max_steps} decisions")
    return state


def play_games_side_by_side(
    game: Game,
    seatings: Sequence[Sequence[Agent]],
    check: bool = True,
    max_steps: int = 100_000,
    on_decision: Callable[[int, State, dict], None] | None = None,
    starts: Sequence[State] | None = None,
) -> list[State]:
    """Play one game per seating (``seatings[g][seat]`` is game g's agent for that seat) side by side,
    one decision of every running game per round, and return the final states.

    An agent with ``act_batch(states, seats) -> actions`` gets all its (state, seat) pairs of a round
    in one call (a network-guided search then evaluates the leaves of all those games together); the
    others are called as ``agent(state, seat)`` one by one. Same rules as :func:`play_game`;
    ``on_decision(g, state, actions)`` is called before game g's decision is applied (to record it);
    ``starts[g]``, when given, is game g's starting position (copied: the caller's states are untouched)."""
    states = [s.clone() for s in starts] if starts is not None else [game.new_initial_state() for _ in seatings]
    if len(states) != len(seatings):
        raise ValueError(f"{len(states)} starting positions for {len(seatings)} games")
    steps = 0
    running = [g for g, s in enumerate(states) if s.current_seats()]
    while running:
        decisions: dict = {g: {} for g in running}
        batched: dict = {}  # id(agent) -> (agent, [(game, seat)])
        for g in running:
            for seat in states[g].current_seats():
                agent = seatings[g][seat]
                if hasattr(agent, "act_batch"):
                    batched.setdefault(id(agent), (agent, []))[1].append((g, seat))
                else:
                    decisions[g][seat] = agent(states[g], seat)
        for agent, pairs in batched.values():
            actions = agent.act_batch([states[g] for g, _ in pairs], [seat for _, seat in pairs])
            for (g, seat), action in zip(pairs, actions):
                decisions[g][seat] = int(action)
        for g in running:
            if on_decision is not None:
                on_decision(g, states[g], decisions[g])
            states[g].apply_actions(decisions[g], check)
        steps += 1
        running = [g for g in running if states[g].current_seats()]
        if steps >= max_steps and running:
            raise RuntimeError(f"{game.info.name}: a game did not end within {max_steps} decisions")
    return states
