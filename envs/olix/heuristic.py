"""Olix's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``OlixGame.heuristic``."""

from __future__ import annotations

from boardgames.envs.olix import rules as R


def heuristic(state, seat: int) -> float:
    """The score columns held (O5), each worth 1 + its highest marked value / 10, own minus the
    opponent's (a column both seats hold counts for neither). Higher is better for ``seat``; ``state`` is
    an :class:`boardgames.envs.olix.game.OlixState`.

    Reads the columns straight from the state array (:meth:`OlixState.column` gives the same values,
    at twice the cost of the whole score)."""
    d = state.data
    score = 0.0
    for t in range(len(R.TYPE_NAMES)):
        value = float(d[R.COL_MAX + t])
        mine = bool(d[R.COL_HOLD + 2 * t + seat])
        theirs = bool(d[R.COL_HOLD + 2 * t + 1 - seat])
        score += (1.0 + value / 10.0) * (mine - theirs)
    return score
