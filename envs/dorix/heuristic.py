"""Dorix's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``DorixGame.heuristic``."""

from __future__ import annotations

from boardgames.envs.dorix import rules as R


def heuristic(state, seat: int) -> float:
    """How close each side is to topping a long diagonal (D1), own side minus the best other side:
    per diagonal, (own tops)^2 - (the best other side's tops)^2; plus 0.05 per pawn of each stack the
    side tops (tall own stacks are hard to take over). Higher is better for ``seat``; ``state`` is a
    :class:`boardgames.envs.dorix.game.DorixState`."""
    info = state.game.info
    side = info.teams[seat]
    sides = sorted(set(info.teams))
    score = 0.0
    for diag in R.DIAGONALS:
        counts = dict.fromkeys(sides, 0)
        for sq in diag:
            stack = state.stack(sq)
            if stack:
                counts[info.teams[stack[-1]]] += 1
        score += counts[side] ** 2 - max(counts[s] for s in sides if s != side) ** 2
    for sq in range(R.SQUARES):
        stack = state.stack(sq)
        if stack and info.teams[stack[-1]] == side:
            score += 0.05 * len(stack)
    return score
