"""Small numba kernels that several games' ``rules.py`` and ``observe.py`` share (compiled once, called
from their kernels)."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from boardgames.envs.compiled.bits import index


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
    offset of the tuple ``unset_at`` (written after the pieces)."""
    data[max_turns_at] = max_turns
    for at in unset_at:
        data[at] = -1


# ----- observations --------------------------------------------------------------------------------


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


# ----- one encoder for two storage types: float32 planes, or uint8 planes written directly ------------------
# An observe kernel writes its entries through these: numba compiles it once per output type (float32:
# the values as they are; uint8: times 255, rounded, what the batches' compact observations hold), so the
# uint8 form needs no float buffer and no conversion pass, and the float32 form is unchanged.


def obs_value(out, value):
    """``value`` (a number in [0, 1]) as an entry of the observation array ``out``: ``np.float32(value)``
    for float32 planes; for uint8 ones that float32, clipped to [0, 1], times 255, rounded (0 and 1 exactly)."""
    v = np.float32(value)
    if out.dtype == np.uint8:
        v = min(max(v, np.float32(0.0)), np.float32(1.0))
        return np.uint8(v * np.float32(255.0) + np.float32(0.5))
    return v


def obs_flag(out, flag):
    """``flag`` (a bool) as an entry of ``out``: 1.0 or 0.0 (float32); 255 or 0 (uint8)."""
    if out.dtype == np.uint8:
        return np.uint8(255) if flag else np.uint8(0)
    return np.float32(flag)


def obs_scale(out):
    """``(scale, offset)``, float32, for entries of ``out`` written in a hot loop as
    ``np.float32(value) * scale + offset`` (the value in [0, 1]: no clipping): ``(1, 0)`` for float32
    planes (the value itself, exactly), ``(255, 0.5)`` for uint8 ones (stored truncated: what
    :func:`obs_value` gives). Cheaper there than a call of :func:`obs_value` per entry."""
    if out.dtype == np.uint8:
        return np.float32(255.0), np.float32(0.5)
    return np.float32(1.0), np.float32(0.0)


def byte_entries(table):
    """The float32 observation entries of ``table`` as uint8 planes hold them: each value clipped to
    [0, 1], times 255, rounded (exactly :func:`obs_value`, entry by entry)."""
    v = np.clip(np.asarray(table, dtype=np.float32), np.float32(0.0), np.float32(1.0))
    return (v * np.float32(255.0) + np.float32(0.5)).astype(np.uint8)


def write_cell(flat, at, table, table_u8, code, constants):
    """Write one cell of an observation into ``flat`` (the observation's flat view) from ``at``: row ``code``
    of the table of ``flat``'s type (``table``, float32 planes, or ``table_u8``, the same as uint8 planes:
    :func:`byte_entries`), then the tuple ``constants`` (entries of ``flat``'s type: :func:`obs_value`). The
    encoders whose cells depend on one square each (ADIX, Barc) look their rows up in such tables instead
    of writing plane by plane. Compiled per type and inlined where it is called: the tables, module
    constants of the caller, stay constants there (a table handed to a function that is not inlined costs a
    copy per call)."""
    row = (table_u8 if flat.dtype == np.uint8 else table)[code]
    n = row.shape[0]
    flat[at : at + n] = row
    for i in range(len(constants)):
        flat[at + n + i] = constants[i]


@overload(write_cell, inline="always")
def _write_cell(flat, at, table, table_u8, code, constants):
    chosen_u8 = isinstance(flat, types.Array) and flat.dtype == types.uint8

    def write(flat, at, table, table_u8, code, constants):
        rows = table_u8 if chosen_u8 else table
        n = rows.shape[1]
        row = index(code)  # unsigned indices: no wrap-around code in the copy (boardgames.envs.compiled.bits.index)
        for j in range(n):
            flat[index(at + j)] = rows[row, j]
        for i in range(len(constants)):
            flat[index(at + n + i)] = constants[i]

    return write


@overload(obs_scale)
def _obs_scale(out):
    if isinstance(out, types.Array) and out.dtype == types.uint8:
        return lambda out: (np.float32(255.0), np.float32(0.5))
    return lambda out: (np.float32(1.0), np.float32(0.0))


@overload(obs_value)
def _obs_value(out, value):
    if isinstance(out, types.Array) and out.dtype == types.uint8:

        def quantized(out, value):
            v = min(max(np.float32(value), np.float32(0.0)), np.float32(1.0))
            return np.uint8(v * np.float32(255.0) + np.float32(0.5))

        return quantized
    return lambda out, value: np.float32(value)


@overload(obs_flag)
def _obs_flag(out, flag):
    if isinstance(out, types.Array) and out.dtype == types.uint8:
        return lambda out, flag: np.uint8(255) if flag else np.uint8(0)
    return lambda out, flag: np.float32(flag)
