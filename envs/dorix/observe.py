"""The Dorix observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`boardgames.envs.dorix.rules`, and the number of planes it writes (``obs_channels``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.compiled.cells import obs_flag, obs_value
from boardgames.envs.dorix.rules import (
    COLLAPSE,
    HANDS,
    HEIGHTS,
    MAXH,
    NEIGHBOURS,
    NUM_PLAYERS,
    PHASE,
    SOURCE,
    SQUARES,
    STACKS,
    TARGETS,
    TO_MOVE,
    pawns_per_player,
    side_of,
)

# Observation: (4, 4, obs_channels(num_players)); see observe().
OBS_DEPTH = 6
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see boardgames.envs.vector.loops

# observe()'s deep-pawn counts: _FIFTEENTHS[j] is 1/15 added j times to a float32 (rounded to float32
# after each addition, as the plane was first computed), for j up to every pawn of the game.
_FIFTEENTHS = np.zeros(MAXH + 1, dtype=np.float32)
for _j in range(1, MAXH + 1):
    _FIFTEENTHS[_j] = np.float32(np.float64(_FIFTEENTHS[_j - 1]) + 1.0 / 15.0)


def obs_channels(num_players: int) -> int:
    """Number of observation planes for ``num_players`` seats."""
    return OBS_DEPTH * num_players + 3 * num_players + 4


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (4, 4, C) float32, seats in turn order from ``seat`` (into a
    uint8 ``out``: the values times 255, rounded, see :func:`boardgames.envs.compiled.cells.obs_value`).

    Planes, with k = relative seat (0 = the observer, then the next seats in turn order):
    * ``d*n + k`` for depth d < OBS_DEPTH from the top: the pawn d levels below the top is seat k's;
    * ``D*n + k``: seat k's pawns deeper than OBS_DEPTH in the stack / 15;
    * ``D*n + n + k``: seat k's hand / pawns per player (constant plane);
    * ``D*n + 2n + k``: seat k is on the observer's team (constant plane; the partner at 4 players);
    * ``D*n + 3n``: stack height / MAXH;
    * ``+1``: the stack that is collapsing; ``+2``: the lower neighbours still to receive a pawn;
    * ``+3``: the observer must choose where the next collapsing pawn falls (constant plane).
    """
    # One fast zero-fill, then only the nonzero entries, square by square in memory order; the
    # constant planes' values (relative seat k: hand, same side) are kept in scalars.
    n = data[NUM_PLAYERS]
    out[:] = 0
    one = obs_flag(out, True)
    base = OBS_DEPTH * n
    pawns = pawns_per_player(n)
    side = side_of(data, seat)
    h0 = h1 = h2 = h3 = obs_flag(out, False)
    t0 = t1 = t2 = t3 = obs_flag(out, False)
    for k in range(n):
        other = seat + k
        if other >= n:
            other -= n
        hand = obs_value(out, data[HANDS + other] / pawns)
        team = obs_flag(out, side_of(data, other) == side)
        if k == 0:
            h0, t0 = hand, team
        elif k == 1:
            h1, t1 = hand, team
        elif k == 2:
            h2, t2 = hand, team
        else:
            h3, t3 = hand, team
    collapse = data[PHASE] == COLLAPSE
    choose = obs_flag(out, collapse and data[TO_MOVE] == seat)
    for sq in range(SQUARES):
        cell = out[sq >> 2, sq & 3]
        cell[base + n] = h0
        cell[base + n + 1] = h1
        cell[base + 2 * n] = t0
        cell[base + 2 * n + 1] = t1
        if n >= 3:
            cell[base + n + 2] = h2
            cell[base + 2 * n + 2] = t2
            if n == 4:
                cell[base + n + 3] = h3
                cell[base + 2 * n + 3] = t3
        cell[base + 3 * n + 3] = choose
        h = data[HEIGHTS + sq]
        cell[base + 3 * n] = obs_value(out, h / MAXH)
        if h == 0:
            continue
        stack = STACKS + sq * MAXH
        deep = h - OBS_DEPTH
        for i in range(max(deep, 0), h):  # the top OBS_DEPTH pawns
            k = data[stack + i] - seat
            if k < 0:
                k += n
            cell[(h - 1 - i) * n + k] = one
        if deep > 0:  # the pawns below them: counted in the plane, then / 15 as the sum of 1/15s
            for i in range(deep):
                k = data[stack + i] - seat
                if k < 0:
                    k += n
                cell[base + k] += 1  # a count (< 256: fits a uint8 entry too)
            for k in range(n):
                cell[base + k] = obs_value(out, _FIFTEENTHS[int(cell[base + k])])
    if collapse:
        src = data[SOURCE]
        out[src >> 2, src & 3, base + 3 * n + 1] = one
        for d in range(4):
            if data[TARGETS + d] == 1:
                nb = NEIGHBOURS[src, d]
                out[nb >> 2, nb & 3, base + 3 * n + 2] = one
