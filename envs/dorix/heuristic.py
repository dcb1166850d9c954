"""Dorix's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``DorixGame.heuristic``."""

from __future__ import annotations

import numpy as np

from boardgames.envs.dorix import rules as R

_SQUARES = np.arange(R.SQUARES)
_DIAGONALS = [[int(sq) for sq in diag] for diag in R.DIAGONALS]


def heuristic(state, seat: int) -> float:
    """How close each side is to topping a long diagonal (D1), own side minus the best other side:
    per diagonal, (own tops)^2 - (the best other side's tops)^2; plus 0.05 per pawn of each stack the
    side tops (tall own stacks are hard to take over). Higher is better for ``seat``; ``state`` is a
    :class:`boardgames.envs.dorix.game.DorixState`. Reads the tops and heights from the state's array in
    one step (the greedy agent scores every child of every move with it)."""
    teams = state.game.info.teams
    side = teams[seat]
    others = sorted(set(teams) - {side})
    heights = state.data[R.HEIGHTS : R.HEIGHTS + R.SQUARES]
    tops = state.data[R.STACKS + _SQUARES * R.MAXH + np.maximum(heights - 1, 0)].tolist()
    heights = heights.tolist()
    top_side = [teams[top] if height else -1 for top, height in zip(tops, heights)]
    score = 0.0
    for diag in _DIAGONALS:
        sides_on = [top_side[sq] for sq in diag]
        score += sides_on.count(side) ** 2 - max(sides_on.count(other) for other in others) ** 2
    for sq in range(R.SQUARES):
        if top_side[sq] == side:
            score += 0.05 * heights[sq]
    return score
