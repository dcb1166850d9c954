"""Barc duel's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``BarcGame.heuristic``,
the compiled :func:`boardgames.envs.barc.rules.score` (the search's leaves use the same score,
:func:`boardgames.envs.barc.rules.leaf_values`)."""

from __future__ import annotations

from boardgames.envs.barc import rules as R

LINES = tuple(tuple(int(sq) for sq in line) for line in R.SCORE_LINES)
"""Every line of three (B5), the squares of each in increasing order, in the order the score sums them."""


def heuristic(state, seat: int) -> float:
    """Stacks topped (B5: a side left with 2 loses), own minus the opponent's, plus the lines of three
    being built: 0.1 x (own tops)^2 for each line the opponent tops none of, minus the same for the
    opponent. Higher is better for ``seat``; ``state`` is a :class:`boardgames.envs.barc.game.BarcState`."""
    return float(R.score(state.data, int(seat)))
