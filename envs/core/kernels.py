"""Small numba kernels that several games' ``rules.py`` and ``observe.py`` share (compiled once, called
from their kernels)."""

from __future__ import annotations

import numpy as np
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
def start_fields(data, max_turns_at, max_turns, unset_at):
    """How every ``init_state`` ends (after zeroing ``data`` and placing the pieces): the turn limit
    ``max_turns`` at offset ``max_turns_at`` and -1 ("none yet": the winner, the last move...) at each
    offset of the tuple ``unset_at`` (written after the pieces: measured 0.5 ns faster than before them)."""
    data[max_turns_at] = max_turns
    for at in unset_at:
        data[at] = -1


# ----- observations --------------------------------------------------------------------------------


@njit(cache=True)
def clear_observation(out, constants):
    """Zero the observation ``out`` (rows, columns, channels) but for its last channels, the constant
    planes, which get the values of the tuple ``constants`` on every cell; the encoder then writes only
    the nonzero entries of its occupied squares. (An encoder that visits every cell anyway writes its
    constant planes in that walk instead, in one pass: Barc's.)"""
    out[:] = 0.0
    first = out.shape[2] - len(constants)
    for r in range(out.shape[0]):
        for f in range(out.shape[1]):
            cell = out[r, f]
            for i in range(len(constants)):
                cell[first + i] = constants[i]


@njit(cache=True)
def cell_of(sq, turned, size):
    """``(row, column)`` of the observation cell that shows square ``sq`` of a ``size`` x ``size``
    board (index ``rank * size + file``) to an observer who sees the board as it is (``turned``
    False: row = rank) or turned half a turn (the square's mirror image ``size*size - 1 - sq``)."""
    if turned:
        sq = size * size - 1 - sq
    return sq // size, sq % size


@njit(cache=True)
def turn_plane(turn, max_turns):
    """The value of a "turns played / turn limit" plane: ``turn / max_turns``, at most 1, as float32."""
    return np.float32(min(turn, max_turns) / max(max_turns, 1))
