"""The ADIX observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`boardgames.envs.adix.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.adix.cube import CAPTAIN, M_TILT_N, opposite
from boardgames.envs.adix.rules import (
    CELLS,
    CUBE,
    KIND_SHIFT,
    MAX_TURNS,
    NORTH_SHIFT,
    OVER,
    QUIET,
    QUIET_DRAW,
    REP_COUNT,
    REP_MOVE,
    REP_SQ,
    SEAT_SHIFT,
    SIZE,
    TO_MOVE,
    TOP_SHIFT,
    TURN,
)
from boardgames.envs.compiled.bits import index
from boardgames.envs.compiled.cells import byte_entries, cell_of, obs_value, turn_plane, write_cell

# Observation planes over the 9x9 board, egocentric (see observe()).
OBS_OWN_CAPTAIN, OBS_OWN_TEAMMATE, OBS_OPP_CAPTAIN, OBS_OPP_TEAMMATE = 0, 1, 2, 3
OBS_FACES = 4  # + 4 * face + weapon; faces 0 top, 1 up, 2 right, 3 down, 4 left, 5 bottom
OBS_OWN_REP = OBS_FACES + 24  # + movement (L, R, tilt up, right, down, left): count / 2
OBS_OPP_REP = OBS_OWN_REP + 6
OBS_QUIET = OBS_OPP_REP + 6
OBS_TURN = OBS_QUIET + 1
OBS_TO_MOVE = OBS_TURN + 1
OBS_CHANNELS = OBS_TO_MOVE + 1
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see boardgames.envs.vector.loops

# A cell's planes before the constant ones (pieces, faces, A9 records: OBS_QUIET of them) depend only on
# the cube on its square, so observe() copies them from a table with a row per cube a square can hold,
# seen from either side, instead of writing them plane by plane: row flip * 256 + (code ^ seat << 7) for
# the cube code of the state (boardgames.envs.adix.rules.cube_code), whose seat bit so says whether the cube is the
# observer's (0) or the enemy's (1). The A9 records are written after, over the copied zeros.
CELL_PLANES = OBS_QUIET
EMPTY_CELL = 2 * 256  # the row of an empty square (zeros), after every cube's


def _cube_planes(enemy, kind, top, north, east, flip):
    """The planes set to 1 in the cell of a cube of ``kind`` with ``top``, ``north`` and ``east`` (weapon
    indices), the observer's (``enemy`` 0) or the enemy's (1), seen by Black when ``flip`` (the board
    turned: "up" is the board's south, "right" its west)."""
    opp = getattr(opposite, "py_func", opposite)  # plain Python: no compiling at import
    south, west = opp(north, kind), opp(east, kind)
    up, right, down, left = (south, west, north, east) if flip else (north, east, south, west)
    if kind == CAPTAIN:
        piece = OBS_OPP_CAPTAIN if enemy else OBS_OWN_CAPTAIN
    else:
        piece = OBS_OPP_TEAMMATE if enemy else OBS_OWN_TEAMMATE
    faces = (top, up, right, down, left, opp(top, kind))
    return [piece] + [OBS_FACES + 4 * face + weapon for face, weapon in enumerate(faces)]


def _cell_table():
    """Rows of CELL_PLANES float32 entries for every cube code seen from either side, in the order of the
    row index above (orientations no cube reaches included: never looked up), then the empty square's
    row EMPTY_CELL."""
    table = np.zeros((EMPTY_CELL + 1, CELL_PLANES), dtype=np.float32)
    for row in range(EMPTY_CELL):
        flip, code = divmod(row, 256)
        enemy, top = code >> SEAT_SHIFT, (code >> TOP_SHIFT) & 3
        kind, north, east = (code >> KIND_SHIFT) & 1, (code >> NORTH_SHIFT) & 3, code & 3
        table[row, _cube_planes(enemy, kind, top, north, east, flip)] = 1.0
    return table


_CELLS = _cell_table()
_CELLS_U8 = byte_entries(_CELLS)


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (9, 9, OBS_CHANNELS) float32 in [0, 1] (into a uint8 ``out``:
    times 255, rounded, see :func:`boardgames.envs.compiled.cells.obs_value`). For Black the
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
    flip = seat == 1
    side = 256 if flip else 0
    relative = seat << SEAT_SHIFT
    flat = out.reshape(-1)  # ``out`` C-contiguous, as every caller's is (flat indices: 100 ns faster than views)
    for v in range(CELLS):  # every cell in memory order, the board's squares in the observer's order
        code = data[index(CUBE + ((CELLS - 1 - v) if flip else v))]
        # the cell table's row; an empty square's row by a select, not a branch
        row = side + (code ^ relative) if code >= 0 else EMPTY_CELL
        write_cell(flat, v * OBS_CHANNELS, _CELLS, _CELLS_U8, row, constants)
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
