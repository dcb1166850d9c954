"""What the players of ``boardgames play`` share, whatever the screen: the opponents, the
moves of the seats no human plays, and moves and results as text."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import JOINT_SEPARATOR, Game, State
from boardgames.play.ending import result_line
from boardgames.play.sides import side_name
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
        if rng is not None and saved is not None:
            rng.bit_generator.state = saved


def thinking_text(state: State, human_seats: set, policies: dict) -> str:
    """What the player reads while the agents choose their moves in ``state``: ``"North (barc_az)
    is thinking…"`` (the sides named as :mod:`boardgames.play.sides` names them); empty when none of
    them thinks (:func:`thinks`)."""
    info = state.game.info
    who = [
        f"{side_name(info, s)} ({agent_label(policies[s])})"
        for s in state.current_seats()
        if s not in human_seats and thinks(policies[s])
    ]
    if not who:
        return ""
    return f"{' and '.join(who)} {'is' if len(who) == 1 else 'are'} thinking…"


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
    """The moves of every acting seat that is not human: {seat: action} (as the agents chose them:
    :func:`illegal_choice` says whether one is illegal)."""
    return {s: _as_action(policies[s](state.clone(), s)) for s in state.current_seats() if s not in human_seats}


def _as_action(value):
    """An agent's answer as an int when it is a whole number, else as it came (an illegal choice)."""
    return int(value) if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else value


def illegal_choice(state: State, chosen: dict) -> tuple[int, object] | None:
    """``(seat, action)`` of the first action of ``chosen`` (``{seat: action}``) that is not a legal move
    of its seat in ``state`` (an agent's mistake: the game ends with its loss,
    :func:`boardgames.play.ending.forfeit`), or None when all are legal."""
    n = state.game.info.num_actions
    for seat, action in sorted(chosen.items()):
        legal = isinstance(action, (int, np.integer)) and 0 <= int(action) < n and state.legal_mask(seat)[int(action)]
        if not legal:
            return seat, action
    return None


def timed_opponent_moves(state: State, human_seats: set, policies: dict, chosen: dict) -> tuple:
    """The agents' moves (:func:`opponent_move`) added to ``chosen``: ``(seconds they took, the first illegal
    choice)``, the choice as :func:`illegal_choice` says (None when all are legal)."""
    started = time.perf_counter()
    chosen.update(opponent_move(state, human_seats, policies))
    return time.perf_counter() - started, illegal_choice(state, chosen)


def legal_move_texts(state: State, seat: int) -> list[str]:
    """The notation of each legal move of ``seat``, in action order."""
    return [state.action_to_text(int(a), seat) for a in state.legal_actions(seat)]


def result_text(state: State, seat: int | None = None, agents: dict | None = None) -> str:
    """How the finished ``state`` ended, with the rule that ended it: said to the player at ``seat``
    (``You won: South lines up a1, b1, c1.``) or, without one, to a watcher, the ``agents``
    (``{seat: name}``) beside their sides (:func:`boardgames.play.ending.result_line`)."""
    return result_line(state, seat, agents)


def record_label(state: State, chosen: dict) -> str:
    """``South: <move>`` for each seat of the decision ``chosen`` (joined by ``|``), the sides named as
    :mod:`boardgames.play.sides` names them (move list files keep the engines' ``player_k``:
    :func:`boardgames.envs.tools.replay.labelled_move`)."""
    info = state.game.info
    return JOINT_SEPARATOR.join(
        f"{side_name(info, s)}: {state.action_to_text(a, s)}" for s, a in sorted(state.decision(chosen).items())
    )


def side_labels(record) -> list[str]:
    """Each move of the :class:`~boardgames.envs.tools.replay.GameRecord` ``record`` as
    :func:`record_label` writes it (``South: a2-b3 | North: stay``)."""
    return [record_label(state, move) for state, move in zip(record.states(), record.moves)]
