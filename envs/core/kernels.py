"""Small numba kernels that several games' ``rules.py`` share (compiled once, called from their kernels)."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def two_player_returns(winner, out):
    """Write the returns of a two-player game into ``out``: +1 to ``winner`` and -1 to the other seat;
    0 to both when ``winner`` is negative (draw, truncation or running game)."""
    for s in range(2):
        if winner < 0:
            out[s] = 0.0
        elif s == winner:
            out[s] = 1.0
        else:
            out[s] = -1.0
