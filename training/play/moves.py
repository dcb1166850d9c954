"""What the players of ``boardgames play`` share, whatever the screen: the opponents, the
moves of the seats no human plays, and moves and results as text."""

from __future__ import annotations

from collections.abc import Callable

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import Game, State
from boardgames.envs.tools.replay import labelled_move
from boardgames.training.agent_kinds import RandomAgent, make_agent

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
