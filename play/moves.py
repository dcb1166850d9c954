"""What the players of ``boardgames play`` share, whatever the screen: the opponents, the
moves of the seats no human plays, and moves and results as text."""

from __future__ import annotations

import time
from collections.abc import Callable

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import Game, State
from boardgames.envs.tools.replay import labelled_move
from boardgames.training.agent_kinds import GreedyAgent, RandomAgent, make_agent

Policy = Callable[[State, int], int]


# ----- opponents ----------------------------------------------------------------------------------
def random_policy(seed: int | None = None) -> Policy:
    """A uniformly random legal move (the random baseline agent)."""
    return RandomAgent(seed)


def make_opponent(spec: str, game: Game, seed: int | None = 0) -> Policy:
    """The policy ``(state, seat) -> action`` named by ``spec``: ``random``, ``greedy``, ``mcts`` /
    ``mcts:<simulations>`` or the path of a saved model (the agents of :mod:`boardgames.training.agent_kinds`)."""
    try:
        return make_agent(spec, game, seed=seed)
    except (ValueError, FileNotFoundError) as e:
        raise GameOptionError(f"opponent {spec!r}: {e}") from None


def thinks(agent) -> bool:
    """Whether ``agent``'s moves may take a noticeable time (a search or a network: every agent but the
    random and greedy baselines), so that a player should be told it is thinking."""
    return not isinstance(agent, (RandomAgent, GreedyAgent))


def agent_label(agent) -> str:
    """How the player reads ``agent``'s name (``dorix_2p_az``, ``mcts400``)."""
    return str(getattr(agent, "name", None) or type(agent).__name__)


def warm_up(agent, state: State) -> None:
    """Have ``agent`` do the work of its first move before the game starts: its ``warm_up(state)`` when it
    has one (the AlphaZero agent: compiling its search), else one move in ``state`` that is forgotten
    (its random generator put back, so a seeded game plays the same moves)."""
    prepare = getattr(agent, "warm_up", None)
    if prepare is not None:
        prepare(state)
        return
    rng = getattr(agent, "rng", None)
    saved = rng.bit_generator.state if rng is not None else None
    try:
        agent(state.clone(), int(state.current_seats()[0]))
    finally:
        if saved is not None:
            rng.bit_generator.state = saved


def thinking_text(state: State, human_seats: set, policies: dict) -> str:
    """What the player reads while the agents choose their moves in ``state``: ``"player_1 (dorix_2p_az)
    is thinking..."``; empty when none of them thinks (:func:`thinks`)."""
    names = state.game.info.seat_names
    who = [
        f"{names[s]} ({agent_label(policies[s])})"
        for s in state.current_seats()
        if s not in human_seats and thinks(policies[s])
    ]
    if not who:
        return ""
    return f"{' and '.join(who)} {'is' if len(who) == 1 else 'are'} thinking..."


def get_ready(agent, name: str, state: State, write: Callable[[str], None] | None = None) -> float:
    """:func:`warm_up` ``agent`` before the game, saying so: a line before (the first move of a search or
    a network compiles and loads what it needs, once per process) and the seconds it took after; nothing
    for an agent that does not think. Returns the seconds."""
    if not thinks(agent):
        return 0.0
    say = write or (lambda line: print(line, flush=True))
    say(f"{name}: getting ready for its first move (what it needs is compiled and loaded once per process)...")
    started = time.perf_counter()
    warm_up(agent, state)
    took = time.perf_counter() - started
    say(f"{name} is ready ({took:.1f} s).")
    return took


# ----- one turn, whoever plays it -----------------------------------------------------------------
def opponent_move(state: State, human_seats: set, policies: dict) -> dict:
    """The moves of every acting seat that is not human: {seat: action}."""
    return {s: int(policies[s](state.clone(), s)) for s in state.current_seats() if s not in human_seats}


def legal_move_texts(state: State, seat: int) -> list[str]:
    """The notation of each legal move of ``seat``, in action order."""
    return [state.action_to_text(int(a), seat) for a in state.legal_actions(seat)]


def result_text(state: State) -> str:
    names = state.game.info.seat_names
    returns = state.returns()
    if state.is_truncated():
        return "The turn limit ends the game: no winner."
    winners = [names[s] for s in range(len(returns)) if returns[s] > 0]
    if not winners:
        return "Draw."
    return " and ".join(winners) + (" win." if len(winners) > 1 else " wins.")


def record_label(state: State, chosen: dict) -> str:
    """``player_k: <move>`` for each seat of the decision ``chosen`` (joined by ``|``), as move lists
    write it (:func:`boardgames.envs.tools.replay.labelled_move`)."""
    return labelled_move(state, chosen)
