"""The Olix observation encoder: ``observe(data, seat, out)`` over the state array of
:mod:`boardgames.envs.olix.rules`, and its planes (``OBS_*``, ``OBS_CHANNELS``)."""

from __future__ import annotations

from numba import njit

from boardgames.envs.compiled.cells import obs_flag, obs_value
from boardgames.envs.olix.rules import BOARD, COL_HOLD, LAST, LEFT, PAWNS, SIZE, column_row

# Observation planes over the 11x11 grid (see observe()).
OBS_OWN, OBS_OPP, OBS_OWN_LEFT, OBS_OPP_LEFT = 0, 1, 2, 3
OBS_OWN_MARKS = 4  # + 4*t + row: the observer holds the marker of column t on row (0..3)
OBS_OPP_MARKS = OBS_OWN_MARKS + 16  # the same for the opponent
OBS_LAST = OBS_OPP_MARKS + 16
OBS_CHANNELS = OBS_LAST + 1
WRITES_UINT8 = True  # observe() also takes a uint8 ``out`` (the planes x 255): see boardgames.envs.vector.loops


@njit(cache=True)
def observe(data, seat, out):
    """Egocentric observation of ``seat``: (11, 11, OBS_CHANNELS) float32, values in [0, 1] (or, into a
    uint8 ``out``, those values times 255, rounded: see :func:`boardgames.envs.compiled.cells.obs_value`).

    * ``0``: the observer's pawns; ``1``: the opponent's pawns;
    * ``2``, ``3``: pawns left to place / 46, observer then opponent (constant planes);
    * ``4 + 4*t + k``: the observer holds the marker on row k (0 = lowest value) of column t
      (t = O, L, I, X) (constant plane); ``20 + 4*t + k``: the same for the opponent;
    * ``36``: the cell of the last placement (either player's).
    """
    # One fast zero-fill, then only the nonzero entries, cell by cell in memory order (the constant
    # planes of a marker: one strided pass each; at most 8 of them). Every entry goes through
    # obs_value / obs_flag: the same kernel writes float32 planes or uint8 ones (x 255) directly.
    out[:] = 0
    opp = 1 - seat
    one = obs_flag(out, True)
    own_left = obs_value(out, data[LEFT + seat] / PAWNS)
    opp_left = obs_value(out, data[LEFT + opp] / PAWNS)
    c = 0
    for r in range(SIZE):
        for f in range(SIZE):
            o = data[BOARD + c]
            out[r, f, OBS_OWN] = obs_flag(out, o == seat)
            out[r, f, OBS_OPP] = obs_flag(out, o == opp)
            out[r, f, OBS_OWN_LEFT] = own_left
            out[r, f, OBS_OPP_LEFT] = opp_left
            c += 1
    for t in range(4):
        row = column_row(data, t)
        if row > 0:
            for s in range(2):
                if data[COL_HOLD + 2 * t + s] == 1:
                    k = (OBS_OWN_MARKS if s == seat else OBS_OPP_MARKS) + 4 * t + row - 1
                    for r in range(SIZE):
                        for f in range(SIZE):
                            out[r, f, k] = one
    last = data[LAST]
    if last >= 0:
        out[last // SIZE, last % SIZE, OBS_LAST] = one
