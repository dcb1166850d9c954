"""The ADIX observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`envs.adix.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.adix.cube import CAPTAIN, M_TILT_N, TEAMMATE, opposite
from envs.adix.rules import (
    CELLS,
    EAST,
    KIND,
    MAX_TURNS,
    NORTH,
    OVER,
    OWNER,
    QUIET,
    QUIET_DRAW,
    REP_COUNT,
    REP_MOVE,
    REP_SQ,
    SIZE,
    TO_MOVE,
    TOP,
    TURN,
)
from envs.core.kernels import cell_of, clear_observation, obs_flag, obs_value, turn_plane

# Observation planes over the 9x9 board, egocentric (see observe()).
OBS_OWN_CAPTAIN, OBS_OWN_TEAMMATE, OBS_OPP_CAPTAIN, OBS_OPP_TEAMMATE = 0, 1, 2, 3
OBS_FACES = 4  # + 4 * face + weapon; faces 0 top, 1 up, 2 right, 3 down, 4 left, 5 bottom
OBS_OWN_REP = OBS_FACES + 24  # + movement (L, R, tilt up, right, down, left): count / 2
OBS_OPP_REP = OBS_OWN_REP + 6
OBS_QUIET = OBS_OPP_REP + 6
OBS_TURN = OBS_QUIET + 1
OBS_TO_MOVE = OBS_TURN + 1
OBS_CHANNELS = OBS_TO_MOVE + 1
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see envs.vector.kernels

# observe()'s tables: opposite(weapon, kind) looked up as _OPPOSITE[kind, weapon]; the piece plane of a cube,
# _PIECE_PLANE[is the enemy's, kind].
_OPPOSITE = np.array(
    [[getattr(opposite, "py_func", opposite)(w, kind) for w in range(4)] for kind in (TEAMMATE, CAPTAIN)],
    dtype=np.int64,
)
_PIECE_PLANE = np.array([[OBS_OWN_TEAMMATE, OBS_OWN_CAPTAIN], [OBS_OPP_TEAMMATE, OBS_OPP_CAPTAIN]], dtype=np.int64)


@njit(cache=True)
def _encode_cube(data, sq, seat, flip, cell, one):
    """The piece and face planes of the cube on ``sq`` in ``cell``, as ``seat`` sees them (``flip``:
    Black, who sees the board turned); ``one``: the entry of a set plane (1.0, or 255 in uint8)."""
    kind = data[KIND + sq]
    cell[_PIECE_PLANE[data[OWNER + sq] ^ seat, kind]] = one  # seats are 0 and 1
    top = data[TOP + sq]
    north = data[NORTH + sq]
    east = data[EAST + sq]
    south = _OPPOSITE[kind, north]
    west = _OPPOSITE[kind, east]
    if flip:
        up, right, down, left = south, west, north, east
    else:
        up, right, down, left = north, east, south, west
    cell[OBS_FACES + top] = one
    cell[OBS_FACES + 4 + up] = one
    cell[OBS_FACES + 8 + right] = one
    cell[OBS_FACES + 12 + down] = one
    cell[OBS_FACES + 16 + left] = one
    cell[OBS_FACES + 20 + _OPPOSITE[kind, top]] = one


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (9, 9, OBS_CHANNELS) float32 in [0, 1] (into a uint8 ``out``:
    times 255, rounded, see :func:`envs.core.kernels.obs_value`). For Black the
    board is turned 180 degrees: ``out[r, f]`` shows board square (8 - r, 8 - f), "up" is the board's
    south and "right" its west. Planes:

    * 0 own captain, 1 own teammate, 2 enemy captain, 3 enemy teammate;
    * ``4 + 4*face + weapon`` (weapon 0 rock, 1 paper, 2 scissors, 3 shelter): the weapon on each
      face of the cube, face 0 top (the active weapon), 1 up, 2 right, 3 down, 4 left, 5 bottom;
    * ``28 + m``: own A9 record, on the square of the cube that made movement m (0 rotate left,
      1 rotate right, 2..5 tilt up, right, down, left) on its last own turns: count / 2 (at 1.0 that
      movement is illegal now); ``34 + m``: the same for the enemy;
    * 40: quiet turns / 30 (A11); 41: turn / turn limit; 42: 1 when the observer is to move
      (constant planes).
    """
    quiet = np.float32(min(data[QUIET], QUIET_DRAW) / QUIET_DRAW)
    turn = turn_plane(data[TURN], data[MAX_TURNS])
    to_move = np.float32(data[OVER] == 0 and data[TO_MOVE] == seat)
    constants = (obs_value(out, quiet), obs_value(out, turn), obs_value(out, to_move))
    clear_observation(out, constants)  # then only the nonzero entries of the cubes
    one = obs_flag(out, True)
    flip = seat == 1
    for sq in range(CELLS):
        if data[OWNER + sq] >= 0:
            r, f = cell_of(sq, flip, SIZE)
            _encode_cube(data, sq, seat, flip, out[r, f], one)
    for s in range(2):
        sq = data[REP_SQ + s]
        m = data[REP_MOVE + s]
        if sq < 0 or m < 0 or data[REP_COUNT + s] <= 0:
            continue
        if flip and m >= M_TILT_N:
            m = M_TILT_N + (m - M_TILT_N + 2) % 4
        r, f = cell_of(sq, flip, SIZE)
        base = OBS_OWN_REP if s == seat else OBS_OPP_REP
        out[r, f, base + m] = obs_value(out, min(data[REP_COUNT + s], 2) / 2.0)
