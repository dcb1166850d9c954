"""The Barc duel observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`envs.barc.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from envs.barc.rules import (
    CELLS,
    COLOURS,
    HEIGHT,
    LAST_CANCELLED,
    LAST_ORDER,
    MAX_HEIGHT,
    MAX_TURNS,
    PAWNS,
    SIZE,
    STAY,
    TURN,
    decode,
    target,
)
from envs.core.kernels import byte_entries, cell_of, obs_flag, obs_value, turn_plane

# Observation planes over the 6x6 board (see observe()).
OBS_OWN, OBS_OPP, OBS_HEIGHT, OBS_OWN_PAWNS, OBS_OPP_PAWNS = 0, 1, 2, 3, 4
OBS_OWN_FROM, OBS_OWN_TO, OBS_OPP_FROM, OBS_OPP_TO = 5, 6, 7, 8
OBS_OWN_STAYED, OBS_OPP_STAYED, OBS_CANCELLED, OBS_TURN = 9, 10, 11, 12
OBS_CHANNELS = 13
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see envs.vector.kernels


@njit(cache=True)
def _mark_order(data, seat, viewer, action, out, plane_from, plane_to):
    """Write the origin and destination of ``seat``'s last order (a move, not STAY or none) into the
    observation planes of ``viewer``."""
    o, d, k = decode(seat, action)
    r, f = cell_of(o, viewer == 1, SIZE)
    out[r, f, plane_from] = obs_flag(out, True)
    r, f = cell_of(target(o, d, k), viewer == 1, SIZE)
    out[r, f, plane_to] = obs_flag(out, True)


@njit(cache=True)
def _pawns_of_north(colours, h):
    """How many of the ``h`` (<= 16) lowest bits of ``colours`` are set: North's pawns in the stack."""
    x = colours & ((1 << h) - 1)
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


# A cell's planes up to the last orders' (0..8) depend only on the stack on its square, as the observer sees
# it: whether the observer tops it, its height, the observer's pawns in it. observe() copies them from a
# table with a row per such stack (the row of ``(tops * (MAX_HEIGHT + 1) + height) * (MAX_HEIGHT + 1) + mine``;
# the rows of height 0, the empty square, are zeros) instead of writing them plane by plane; the orders'
# marks are written after, over the copied zeros.
CELL_PLANES = OBS_OWN_STAYED


def _cell_table():
    """Rows of CELL_PLANES float32 entries for every (observer tops it, height, observer's pawns) triple up
    to MAX_HEIGHT pawns of one colour: the impossible ones included (more than PAWNS pawns of one colour:
    as the planes' formulas give them, values above 1)."""
    rows = 2 * (MAX_HEIGHT + 1) * (MAX_HEIGHT + 1)
    table = np.zeros((rows, CELL_PLANES), dtype=np.float32)
    for code in range(rows):
        rest, mine = divmod(code, MAX_HEIGHT + 1)
        tops, h = divmod(rest, MAX_HEIGHT + 1)
        if h == 0:
            continue
        table[code, OBS_OWN if tops else OBS_OPP] = 1.0
        table[code, OBS_HEIGHT] = np.float32(h / MAX_HEIGHT)
        table[code, OBS_OWN_PAWNS] = np.float32(mine / PAWNS)
        table[code, OBS_OPP_PAWNS] = np.float32((h - mine) / PAWNS)
    return table


_CELLS = _cell_table()
_CELLS_U8 = byte_entries(_CELLS)


def copy_cell(flat, at, code):
    """Write row ``code`` of the cell table of ``flat``'s type (float32, or uint8 planes: :data:`_CELLS_U8`)
    into ``flat[at:at + CELL_PLANES]``; compiled per type and inlined (see envs.adix.observe.copy_cell)."""
    flat[at : at + CELL_PLANES] = (_CELLS_U8 if flat.dtype == np.uint8 else _CELLS)[code]


@overload(copy_cell, inline="always")
def _copy_cell(flat, at, code):
    if flat.dtype == types.uint8:

        def copy_bytes(flat, at, code):
            for j in range(CELL_PLANES):
                flat[at + j] = _CELLS_U8[code, j]

        return copy_bytes

    def copy_floats(flat, at, code):
        for j in range(CELL_PLANES):
            flat[at + j] = _CELLS[code, j]

    return copy_floats


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (6, 6, OBS_CHANNELS) float32, values in [0, 1]; for seat 1
    the board is turned half a turn (``out[r, f]`` is square ``35 - (r * 6 + f)``). Into a uint8 ``out``:
    the values times 255, rounded (:func:`envs.core.kernels.obs_value`).

    * ``0``: stacks the observer tops; ``1``: stacks the opponent tops;
    * ``2``: stack height / 12; ``3``: the observer's pawns in the stack / 6; ``4``: the opponent's;
    * ``5``, ``6``: origin and destination of the observer's last order; ``7``, ``8``: the opponent's;
    * ``9``: the observer's last order was STAY (constant plane); ``10``: the opponent's;
    * ``11``: last turn's orders named the same destination (constant plane);
    * ``12``: turns played / turn limit (constant plane).

    The other seat's order for the current turn is never part of the state, so it cannot leak.
    """
    opp = 1 - seat
    own_order = data[LAST_ORDER + seat]
    opp_order = data[LAST_ORDER + opp]
    constants = (
        obs_flag(out, own_order == STAY),
        obs_flag(out, opp_order == STAY),
        obs_flag(out, data[LAST_CANCELLED] == 1),
        obs_value(out, turn_plane(data[TURN], data[MAX_TURNS])),
    )
    flip = seat == 1
    flat = out.reshape(-1)  # every cell in memory order, the board's squares in the observer's order
    for v in range(CELLS):
        sq = CELLS - 1 - v if flip else v
        h = data[HEIGHT + sq]
        c = data[COLOURS + sq]
        tops = ((c >> max(h - 1, 0)) & 1) == seat  # the stack's owner (B4); any value for an empty square
        north = _pawns_of_north(c, h)
        mine = north if flip else h - north
        at = v * OBS_CHANNELS
        copy_cell(flat, at, (tops * (MAX_HEIGHT + 1) + h) * (MAX_HEIGHT + 1) + mine)
        for i in range(4):
            flat[at + OBS_OWN_STAYED + i] = constants[i]
    if own_order >= 0 and own_order != STAY:
        _mark_order(data, seat, seat, own_order, out, OBS_OWN_FROM, OBS_OWN_TO)
    if opp_order >= 0 and opp_order != STAY:
        _mark_order(data, opp, seat, opp_order, out, OBS_OPP_FROM, OBS_OPP_TO)
