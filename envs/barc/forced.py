"""Forced victory in the Barc duel: can a side make sure of reaching victory within a number of turns,
whatever the other side orders? An exhaustive search over the rules kernels (both sides' every legal
order, stay included), used to check a start against ruling B1's criterion 3 (``tests/barc/test_barc_opening.py``,
``benchmarks/barc_opening.py``).

"Forcing victory within ``n`` turns" is read turn by turn as the orders are given: the side picks an order
without knowing the other's (both are secret), then sees the resolved turn before its next order. It
forces victory when it has an order such that, for every order of the other side, the turn either ends
the game with the side at victory (B5; both at victory counts too: it is the stronger claim to refute)
or leaves a position from which it forces victory within ``n - 1`` turns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.barc import rules as R


@njit(cache=True)
def _orders(data, seat):
    """``seat``'s legal orders in ``data``, STAY included, as an int64 list."""
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.bool_)
    listed = np.zeros(R.LEGAL_LIST, dtype=np.int64)
    R.legal_mask_listed(data, seat, mask, listed)
    return listed[1 : 1 + listed[0]].copy()


@njit(cache=True)
def _after(data, seat, mine, theirs):
    """The position after ``seat`` orders ``mine`` and the other side ``theirs`` (a copy)."""
    after = data.copy()
    joint = np.empty(2, dtype=np.int64)
    joint[seat] = mine
    joint[1 - seat] = theirs
    R.apply_joint(after, joint)
    return after


@njit  # not cached: numba cannot reload mutually recursive functions from its cache
def _refuted(data, seat, order, theirs, turns):
    """True when some order in ``theirs`` answers ``seat``'s ``order`` so that ``seat`` does not reach
    victory this turn and cannot force it within ``turns - 1`` turns after it."""
    for reply in theirs:
        after = _after(data, seat, order, reply)
        if R.is_over(after):
            if not R.victory(after, seat):
                return True
        elif turns <= 1 or not forces_victory(after, seat, turns - 1):
            return True
    return False


@njit  # not cached: numba cannot reload mutually recursive functions from its cache
def forces_victory(data, seat, turns):
    """True when ``seat`` can force reaching victory within ``turns`` turns from the running position
    ``data`` (see the module docstring)."""
    theirs = _orders(data, 1 - seat)
    for order in _orders(data, seat):
        if not _refuted(data, seat, order, theirs, turns):
            return True
    return False


@njit
def forcing_orders(data, seat, turns):
    """``seat``'s first orders after which it forces victory within ``turns`` turns (empty when none)."""
    theirs = _orders(data, 1 - seat)
    mine = _orders(data, seat)
    keep = np.zeros(len(mine), dtype=np.bool_)
    for i in range(len(mine)):
        keep[i] = not _refuted(data, seat, mine[i], theirs, turns)
    return mine[keep]


def forced_depth(data: np.ndarray, seat: int, max_turns: int) -> int:
    """The fewest turns within which ``seat`` forces victory from ``data``, 0 when it cannot within
    ``max_turns`` (searched one depth after the other)."""
    for turns in range(1, max_turns + 1):
        if forces_victory(data, seat, turns):
            return turns
    return 0
