"""The Barc duel observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`boardgames.envs.barc.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.barc.rules import (
    CELLS,
    COLOURS,
    HEIGHT,
    LAST_CANCELLED,
    LAST_ORDER,
    MAX_DIST,
    MAX_HEIGHT,
    MAX_TURNS,
    NUM_DIRS,
    PAWNS,
    STAY,
    TURN,
    decode,
    target,
    top_colour,
)
from boardgames.envs.compiled.bits import bit_count
from boardgames.envs.compiled.cells import byte_entries, obs_flag, obs_value, turn_plane, write_cell

# Observation planes over the 6x6 board (see observe()).
OBS_OWN, OBS_OPP, OBS_HEIGHT, OBS_OWN_PAWNS, OBS_OPP_PAWNS = 0, 1, 2, 3, 4
OBS_OWN_FROM, OBS_OWN_TO, OBS_OPP_FROM, OBS_OPP_TO = 5, 6, 7, 8
OBS_OWN_STAYED, OBS_OPP_STAYED, OBS_CANCELLED, OBS_TURN = 9, 10, 11, 12
OBS_CHANNELS = 13
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see boardgames.envs.vector.loops


def _order_targets():
    """``ORDER_TARGET[a]``: the destination of order ``a`` (< STAY) in the acting seat's own frame, where
    ``a // 40`` is its origin (the orders are egocentric: see boardgames.envs.barc.rules), so the cells of an order
    are looked up, not decoded (:func:`_mark_order`)."""
    dec, tgt = getattr(decode, "py_func", decode), getattr(target, "py_func", target)
    return np.array([tgt(*dec(0, a)) for a in range(STAY)], dtype=np.int64)


ORDER_TARGET = _order_targets()


@njit(cache=True, inline="always")
def _mark_order(flat, mine, action, one, plane_from, plane_to):
    """Mark the origin and destination cells of the observer's (``mine``) or the other seat's last order
    ``action`` (a move: not STAY, not none) in ``flat``'s planes ``plane_from`` and ``plane_to``. The
    observer's own frame is the order's, the other seat's is turned half a turn: cell ``35 - c``."""
    origin = action // (NUM_DIRS * MAX_DIST)
    dest = ORDER_TARGET[action]
    if not mine:
        origin = CELLS - 1 - origin
        dest = CELLS - 1 - dest
    flat[origin * OBS_CHANNELS + plane_from] = one
    flat[dest * OBS_CHANNELS + plane_to] = one


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


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (6, 6, OBS_CHANNELS) float32, values in [0, 1]; for seat 1
    the board is turned half a turn (``out[r, f]`` is square ``35 - (r * 6 + f)``). Into a uint8 ``out``:
    the values times 255, rounded (:func:`boardgames.envs.compiled.cells.obs_value`).

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
        tops = top_colour(h, c) == seat  # the observer tops the stack (any value for an empty square)
        north = bit_count(c & ((1 << h) - 1))  # North's pawns in the stack: its h lowest colour bits
        mine = north if flip else h - north
        at = v * OBS_CHANNELS
        code = (tops * (MAX_HEIGHT + 1) + h) * (MAX_HEIGHT + 1) + mine
        write_cell(flat, at, _CELLS, _CELLS_U8, code, constants)
    one = obs_flag(out, True)
    if own_order >= 0 and own_order != STAY:
        _mark_order(flat, True, own_order, one, OBS_OWN_FROM, OBS_OWN_TO)
    if opp_order >= 0 and opp_order != STAY:
        _mark_order(flat, False, opp_order, one, OBS_OPP_FROM, OBS_OPP_TO)
