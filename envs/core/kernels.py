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


@njit(cache=True)
def blank_state(data, max_turns_at, max_turns, unset_at):
    """How every ``init_state`` begins: ``data`` all zeros but the turn limit ``max_turns`` at offset
    ``max_turns_at`` and -1 ("none yet": the winner, the last move...) at each offset of the tuple
    ``unset_at``."""
    data[:] = 0
    data[max_turns_at] = max_turns
    for at in unset_at:
        data[at] = -1
