"""Barc duel's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``BarcGame.heuristic``."""

from __future__ import annotations

from boardgames.envs.barc import rules as R


def _squares(mask: int) -> tuple:
    return tuple(sq for sq in range(R.CELLS) if mask >> sq & 1)


# Every line of three (B5), the squares of each in increasing order, from :data:`boardgames.envs.barc.rules.LINES`;
# listed by first square, then row, column, NE diagonal, NW diagonal: the order the score has always
# summed them in (the float sum depends on it).
_STEP_ORDER = {1: 0, R.SIZE: 1, R.SIZE + 1: 2, R.SIZE - 1: 3}
LINES = tuple(sorted((_squares(int(m)) for m in R.LINES), key=lambda sqs: (sqs[0], _STEP_ORDER[sqs[1] - sqs[0]])))


def heuristic(state, seat: int) -> float:
    """Stacks topped (B5: a side left with 2 loses), own minus the opponent's, plus the lines of three
    being built: 0.1 x (own tops)^2 for each line the opponent tops none of, minus the same for the
    opponent. Higher is better for ``seat``; ``state`` is a :class:`boardgames.envs.barc.game.BarcState`."""
    owners = [state.owner(sq) for sq in range(R.CELLS)]
    score = 1.0 * (owners.count(seat) - owners.count(1 - seat))
    for line in LINES:
        tops = [owners[sq] for sq in line]
        mine, theirs = tops.count(seat), tops.count(1 - seat)
        if theirs == 0:
            score += 0.1 * mine**2
        if mine == 0:
            score -= 0.1 * theirs**2
    return score
