"""The Barc duel observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`envs.barc.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

import numpy as np
from numba import njit

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
from envs.core.kernels import cell_of, obs_flag, obs_scale, obs_value, turn_plane

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
    # One fast zero-fill, then only the nonzero entries, cell by cell in the output's memory order.
    out[:] = 0
    one = obs_flag(out, True)
    scale, offset = obs_scale(out)  # the fractional planes below: value * scale + offset
    opp = 1 - seat
    own_order = data[LAST_ORDER + seat]
    opp_order = data[LAST_ORDER + opp]
    own_stayed = obs_flag(out, own_order == STAY)
    opp_stayed = obs_flag(out, opp_order == STAY)
    cancelled = obs_flag(out, data[LAST_CANCELLED] == 1)
    turn = obs_value(out, turn_plane(data[TURN], data[MAX_TURNS]))
    flip = seat == 1
    v = 0
    for r in range(SIZE):
        for f in range(SIZE):
            cell = out[r, f]
            cell[OBS_OWN_STAYED] = own_stayed
            cell[OBS_OPP_STAYED] = opp_stayed
            cell[OBS_CANCELLED] = cancelled
            cell[OBS_TURN] = turn
            sq = CELLS - 1 - v if flip else v
            v += 1
            h = data[HEIGHT + sq]
            if h == 0:
                continue
            c = data[COLOURS + sq]
            if ((c >> (h - 1)) & 1) == seat:  # the stack's owner (B4)
                cell[OBS_OWN] = one
            else:
                cell[OBS_OPP] = one
            north = _pawns_of_north(c, h)
            mine = north if flip else h - north
            cell[OBS_HEIGHT] = np.float32(h / MAX_HEIGHT) * scale + offset
            cell[OBS_OWN_PAWNS] = np.float32(mine / PAWNS) * scale + offset
            cell[OBS_OPP_PAWNS] = np.float32((h - mine) / PAWNS) * scale + offset
    if own_order >= 0 and own_order != STAY:
        _mark_order(data, seat, seat, own_order, out, OBS_OWN_FROM, OBS_OWN_TO)
    if opp_order >= 0 and opp_order != STAY:
        _mark_order(data, opp, seat, opp_order, out, OBS_OPP_FROM, OBS_OPP_TO)
