"""Olix rules (Reiner Knizia; source 003 and rulings O1-O6) as numba kernels over one int array.

State layout (``data``, int32, length ``STATE_SIZE``):

================  ===========================================================================
offset            content
================  ===========================================================================
``BOARD``         121 cells, index = rank * 11 + file (a1 = 0, k11 = 120): -1 empty, else the seat
``LEFT``          2: pawns each seat still has to place (46 at the start, O1)
``TO_MOVE``       seat to act (meaningless once the game is over)
``TURN``          pawns placed so far (one placement = one turn)
``MAX_TURNS``     turn limit (the environment's truncation; 92 = a full game)
``OVER``          1 once the game is over
``WINNER``        winning seat, -1 none (draw, truncation or running game)
``TRUNCATED``     1 when the turn limit ended the game
``SUPER_TYPE``    pattern type of the super pattern that won at once (O4), -1 none
``SUPER_VALUE``   its value (0 none)
``LAST``          cell of the last placement, -1 none
``COL_MAX``       4: per score column (O, L, I, X) the highest value marked so far, 0 none
``COL_HOLD``      8: ``COL_HOLD + 2*t + seat`` is 1 when seat holds a marker on column t
================  ===========================================================================

Only the highest value of a column keeps markers (O5), so a column is fully described by that value
and by who holds a marker on it.

Actions (``NUM_ACTIONS`` = 121): action ``a`` places a pawn on cell ``a``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.compiled.cells import start_fields, two_player_returns
from boardgames.envs.compiled.views import scratch

SIZE = 11
CELLS = SIZE * SIZE
PAWNS = 46  # O1: 50 pawns, 4 of them score markers
NUM_ACTIONS = CELLS
DEFAULT_MAX_TURNS = 2 * PAWNS

# Pattern types, in the order of the score columns on the board (O, L, I, X).
T_O, T_L, T_I, T_X = 0, 1, 2, 3
TYPE_NAMES = "OLIX"
# O3: the printed values of each column, low (row 1) to high (row 4).
COLUMN_VALUES = np.array([[4, 6, 8, 9], [5, 6, 7, 8], [4, 5, 6, 7], [4, 5, 6, 7]], dtype=np.int64)

# The offsets of the state layout (see the module docstring), in its order.
BOARD = 0
LEFT = BOARD + CELLS
TO_MOVE, TURN, MAX_TURNS, OVER, WINNER, TRUNCATED, SUPER_TYPE, SUPER_VALUE, LAST, COL_MAX = range(LEFT + 2, LEFT + 12)
COL_HOLD = COL_MAX + 4
STATE_SIZE = COL_HOLD + 8


@njit(cache=True)
def init_state(data, max_turns):
    """Write the start position: empty grid, 46 pawns each, seat 0 to play (O1)."""
    data[:] = 0
    for c in range(CELLS):
        data[BOARD + c] = -1
    data[LEFT] = PAWNS
    data[LEFT + 1] = PAWNS
    start_fields(data, MAX_TURNS, max_turns, (WINNER, SUPER_TYPE, LAST))


@njit(cache=True)
def is_over(data):
    """True once the game has ended (won, drawn or truncated)."""
    return data[OVER] == 1


@njit(cache=True)
def legal_mask(data, seat, mask):
    """Write the legal actions of ``seat`` into ``mask`` (bool, 121): the empty cells when it is
    ``seat``'s turn and it has a pawn left; all False otherwise."""
    mask[:] = False
    if data[OVER] == 1 or seat != data[TO_MOVE] or data[LEFT + seat] <= 0:
        return
    for c in range(CELLS):
        if data[BOARD + c] == -1:
            mask[c] = True


@njit(cache=True)
def _owner(data, r, f):
    """Owner of cell (rank r, file f): -1 when empty, -2 off the grid."""
    if r < 0 or r >= SIZE or f < 0 or f >= SIZE:
        return -2
    return data[BOARD + r * SIZE + f]


@njit(cache=True)
def _run(data, r, f, dr, df, seat):
    """How many of ``seat``'s pawns follow (r, f) in direction (dr, df), not counting (r, f)."""
    n = 0
    r += dr
    f += df
    while _owner(data, r, f) == seat:
        n += 1
        r += dr
        f += df
    return n


@njit(cache=True)
def _line_value(data, r, f, seat, dr, df):
    """Length of the run of ``seat``'s pawns through (r, f) along (dr, df), (r, f) included."""
    return 1 + _run(data, r, f, dr, df, seat) + _run(data, r, f, -dr, -df, seat)


@njit(cache=True)
def _best_vertical_arm(data, r, f, seat):
    """Longest vertical arm (up or down, corner included) from a corner of ``seat`` at (r, f)."""
    return 1 + max(_run(data, r, f, 1, 0, seat), _run(data, r, f, -1, 0, seat))


@njit(cache=True)
def _best_horizontal_arm(data, r, f, seat):
    """Longest horizontal arm (left or right, corner included) from a corner of ``seat`` at (r, f)."""
    return 1 + max(_run(data, r, f, 0, 1, seat), _run(data, r, f, 0, -1, seat))


@njit(cache=True)
def _l_value(harm, varm):
    """Value of an L with arms of these lengths (corner counted in both), 0 when an arm is under 3."""
    if harm < 3 or varm < 3:
        return 0
    return harm + varm - 1


@njit(cache=True)
def _best_l(data, r, f, seat):
    """Largest L of ``seat`` containing (r, f): as its corner or on one of its arms (O2)."""
    left = _run(data, r, f, 0, -1, seat)
    right = _run(data, r, f, 0, 1, seat)
    down = _run(data, r, f, -1, 0, seat)
    up = _run(data, r, f, 1, 0, seat)
    best = _l_value(1 + max(left, right), 1 + max(down, up))  # (r, f) is the corner
    # corner on the same rank: the horizontal arm runs from the corner through (r, f) to the run's end
    for i in range(1, left + 1):
        best = max(best, _l_value(i + 1 + right, _best_vertical_arm(data, r, f - i, seat)))
    for i in range(1, right + 1):
        best = max(best, _l_value(i + 1 + left, _best_vertical_arm(data, r, f + i, seat)))
    # corner on the same file
    for i in range(1, down + 1):
        best = max(best, _l_value(_best_horizontal_arm(data, r - i, f, seat), i + 1 + up))
    for i in range(1, up + 1):
        best = max(best, _l_value(_best_horizontal_arm(data, r + i, f, seat), i + 1 + down))
    return best


@njit(cache=True)
def _interior_pawns(data, r0, r1, f0, f1):
    """Pawns of either colour strictly inside the rectangle ranks r0..r1, files f0..f1."""
    n = 0
    for r in range(r0 + 1, r1):
        for f in range(f0 + 1, f1):
            if data[BOARD + r * SIZE + f] != -1:
                n += 1
    return n


@njit(cache=True)
def _best_o(data, r, f, seat):
    """Largest O of ``seat`` containing (r, f) on its border or strictly inside (O2).

    A rectangle ranks r0..r1, files f0..f1 around (r, f) has its left and right edges crossing rank r
    and its bottom and top edges crossing file f, so f0, f1 are files of ``seat``'s pawns on rank r and
    r0, r1 ranks of its pawns on file f. Each edge is then all ``seat``'s exactly when the run of
    pawns through its crossing point covers the whole edge. The six work arrays are on the stack
    (:func:`boardgames.envs.compiled.views.scratch`): allocated on the heap, they took half of a move's time."""
    files = scratch(SIZE, np.int64)  # candidate edge files on rank r ...
    flo = scratch(SIZE, np.int64)  # ... and the rank extent of the vertical run through them
    fhi = scratch(SIZE, np.int64)
    nf = 0
    for x in range(SIZE):
        if data[BOARD + r * SIZE + x] == seat:
            files[nf] = x
            flo[nf] = r - _run(data, r, x, -1, 0, seat)
            fhi[nf] = r + _run(data, r, x, 1, 0, seat)
            nf += 1
    ranks = scratch(SIZE, np.int64)  # candidate edge ranks on file f and their file extents
    rlo = scratch(SIZE, np.int64)
    rhi = scratch(SIZE, np.int64)
    nr = 0
    for y in range(SIZE):
        if data[BOARD + y * SIZE + f] == seat:
            ranks[nr] = y
            rlo[nr] = f - _run(data, y, f, 0, -1, seat)
            rhi[nr] = f + _run(data, y, f, 0, 1, seat)
            nr += 1
    best = 0
    for a in range(nf):
        f0 = files[a]
        if f0 > f:
            break
        for b in range(nf):
            f1 = files[b]
            if f1 <= f0 or f1 < f:
                continue
            for i in range(nr):
                r0 = ranks[i]
                if r0 > r:
                    break
                if flo[a] > r0 or flo[b] > r0 or rlo[i] > f0 or rhi[i] < f1:
                    continue
                for j in range(nr):
                    r1 = ranks[j]
                    if r1 <= r0 or r1 < r:
                        continue
                    if fhi[a] < r1 or fhi[b] < r1 or rlo[j] > f0 or rhi[j] < f1:
                        continue
                    border = 2 * (f1 - f0 + r1 - r0)
                    area = (f1 - f0 - 1) * (r1 - r0 - 1)
                    if border + area <= best:
                        continue
                    best = max(best, border + _interior_pawns(data, r0, r1, f0, f1))
    return best


@njit(cache=True)
def pattern_values(data, cell, seat, out):
    """O2: write into ``out`` (4 ints, order O, L, I, X) the largest value of a pattern of ``seat``
    containing ``cell`` (which must hold a pawn of ``seat``, or lie inside an O); 0 when none."""
    r = cell // SIZE
    f = cell % SIZE
    out[T_O] = _best_o(data, r, f, seat)
    out[T_L] = _best_l(data, r, f, seat) if data[BOARD + cell] == seat else 0
    i_val = 0
    x_val = 0
    if data[BOARD + cell] == seat:
        i_val = max(_line_value(data, r, f, seat, 0, 1), _line_value(data, r, f, seat, 1, 0))
        x_val = max(_line_value(data, r, f, seat, 1, 1), _line_value(data, r, f, seat, 1, -1))
    out[T_I] = i_val if i_val >= 4 else 0
    out[T_X] = x_val if x_val >= 4 else 0


@njit(cache=True)
def mark(data, t, value, seat):
    """O5: mark ``value`` (within column t's printed range) for ``seat`` on column t.

    A value below the column's highest marked value scores nothing; an equal value adds the seat's
    marker beside the others; a higher value becomes the new highest and removes every marker below
    it (the opponent's and the seat's own)."""
    top = data[COL_MAX + t]
    if value < top:
        return
    if value > top:
        data[COL_MAX + t] = value
        data[COL_HOLD + 2 * t] = 0
        data[COL_HOLD + 2 * t + 1] = 0
    data[COL_HOLD + 2 * t + seat] = 1


@njit(cache=True)
def column_row(data, t):
    """Row (1 = lowest printed value .. 4 = highest) of the markers on column t; 0 when empty."""
    v = data[COL_MAX + t]
    for k in range(4):
        if COLUMN_VALUES[t, k] == v:
            return k + 1
    return 0


@njit(cache=True)
def count_winner(data):
    """O6: the seat holding more columns; on equal numbers the better markers, compared from the
    most advanced row (row 4) down; -1 on a draw."""
    cols0 = 0
    cols1 = 0
    for t in range(4):
        cols0 += data[COL_HOLD + 2 * t]
        cols1 += data[COL_HOLD + 2 * t + 1]
    if cols0 != cols1:
        return 0 if cols0 > cols1 else 1
    # Comparing the two players' rows sorted best first, element by element, is comparing how many
    # markers each has on row 4, then on row 3, and so on: the first difference decides.
    for row in range(4, 0, -1):
        n0 = 0
        n1 = 0
        for t in range(4):
            if column_row(data, t) == row:
                n0 += data[COL_HOLD + 2 * t]
                n1 += data[COL_HOLD + 2 * t + 1]
        if n0 != n1:
            return 0 if n0 > n1 else 1
    return -1


@njit(cache=True)
def apply_action(data, action):
    """Place a pawn of the seat to move on cell ``action`` (legal), mark its patterns, then end the
    game (super pattern, pawns used up or grid full, turn limit) or hand over to the next seat."""
    seat = data[TO_MOVE]
    data[BOARD + action] = seat
    data[LEFT + seat] -= 1
    data[LAST] = action
    data[TURN] += 1
    values = scratch(4, np.int64)  # on the stack: pattern_values writes all four
    pattern_values(data, action, seat, values)
    for t in range(4):  # O5: every pattern of the pawn within its column's range is marked
        v = values[t]
        if v >= COLUMN_VALUES[t, 0] and v <= COLUMN_VALUES[t, 3]:
            mark(data, t, v, seat)
    for t in range(4):  # O4: a value above the column wins at once (the first in O, L, I, X order)
        if values[t] > COLUMN_VALUES[t, 3]:
            data[WINNER] = seat
            data[SUPER_TYPE] = t
            data[SUPER_VALUE] = values[t]
            data[OVER] = 1
            return
    other = 1 - seat
    empty = 0
    for c in range(CELLS):
        if data[BOARD + c] == -1:
            empty += 1
    if empty == 0 or (data[LEFT] == 0 and data[LEFT + 1] == 0):  # O6: the count
        data[WINNER] = count_winner(data)
        data[OVER] = 1
        return
    if data[TURN] >= data[MAX_TURNS]:
        data[TRUNCATED] = 1
        data[OVER] = 1
        return
    # the other seat plays; a seat without pawns left (only in set-up positions) is skipped
    data[TO_MOVE] = other if data[LEFT + other] > 0 else seat


@njit(cache=True)
def returns(data, out):
    """+1 to the winner and -1 to the loser; 0 to both on a draw, truncation or running game."""
    two_player_returns(data[WINNER], out)
