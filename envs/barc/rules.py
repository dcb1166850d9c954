"""Barc duel rules (Sylvie Barc's 6x6 simultaneous-move game; source 002 and rulings B1-B6) as numba
kernels over one int array.

State layout (``data``, int32, length ``STATE_SIZE``):

==================  =========================================================================
offset              content
==================  =========================================================================
``HEIGHT``          36 squares, index = rank * 6 + file (a1 = 0, f6 = 35): pawns in the stack
``COLOURS``         36 squares: the stack's pawns as bits, bottom pawn = bit 0; a bit is 1 for
                    a pawn of seat 1 (North), 0 for seat 0 (South)
``TURN``            turns played (one turn = both orders resolved)
``MAX_TURNS``       turn limit (B6: the environment's truncation)
``OVER``            1 once the game is over
``WINNER``          winning seat, -1 none (running, draw or truncation)
``TRUNCATED``       1 when the turn limit ended the game
``LAST_ORDER``      2: the order each seat gave last turn (its own action index, see below),
                    -1 before the first turn
``LAST_CANCELLED``  1 when last turn's two orders named the same destination (B3: nobody moved)
``TO_MOVE``         always 0: both seats act every turn (kept for the shared interface)
==================  =========================================================================

The owner of a stack is the colour of its top pawn (B4); covered pawns never come back to the top
(stacks always move whole), but they are kept so that the 12 pawns can be counted and drawn.

Actions (``NUM_ACTIONS`` = 1441), written from the acting seat's own side (egocentric, like the
observation): ``a = origin * 40 + direction * 5 + (distance - 1)`` for ``a < 1440``, and
``STAY = 1440`` (the void order, B2). For seat 0 (South) ``origin`` is the square index and the
directions are 0 N (towards rank 6), 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW. For seat 1 (North) the
board is turned half a turn: ``origin`` is ``35 - square`` and direction ``k`` is the absolute
direction ``(k + 4) % 8`` (so "N" is always "forward, away from me").
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from boardgames.envs.compiled.bits import bit_count, highest_bit, index, lowest_bit, store_bytes, write_run
from boardgames.envs.compiled.cells import start_fields, two_player_returns

SIZE = 6
CELLS = SIZE * SIZE
PAWNS = 6  # per player
MAX_DIST = SIZE - 1
NUM_DIRS = 8
STAY = CELLS * NUM_DIRS * MAX_DIST
NUM_ACTIONS = STAY + 1
DEFAULT_MAX_TURNS = 200
OUT_LIMIT = 2  # B5: a player topping this many stacks or fewer is out
MAX_HEIGHT = 2 * PAWNS  # every pawn of the game in one stack

# Absolute directions: rank step and file step (0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW).
DIR_DR = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
DIR_DF = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

# B1 (revised): the named starts, each a row of START_SQUARES (South's six squares, then North's, the
# half-turn image: square s -> 35 - s). START_NAMES[i] names START_SQUARES[i]; the first is the default.
START_NAMES = ("alternating", "corners", "edges")
START_SQUARES = np.array(
    [
        # alternating (the default): both back ranks alternate the colours, South on a1 c1 e1 a6 c6 e6
        [[0, 2, 4, 30, 32, 34], [35, 33, 31, 5, 3, 1]],
        # corners (the first ruling, barc_v0): South on a1 b1 a2 e1 f1 f2, North on the half-turn image
        [[0, 1, 6, 4, 5, 11], [30, 31, 24, 34, 35, 29]],
        # edges: South on a1 f1 a3 f3 b6 e6, North on the half-turn image
        [[0, 5, 12, 17, 31, 34], [35, 30, 23, 18, 4, 1]],
    ],
    dtype=np.int64,
)
DEFAULT_START = 0

# The offsets of the state layout (see the module docstring), in its order.
HEIGHT = 0
COLOURS = HEIGHT + CELLS
TURN, MAX_TURNS, OVER, WINNER, TRUNCATED, LAST_ORDER = range(COLOURS + CELLS, COLOURS + CELLS + 6)
LAST_CANCELLED, TO_MOVE = range(LAST_ORDER + 2, LAST_ORDER + 4)
STATE_SIZE = TO_MOVE + 1


@njit(cache=True)
def init_state(data, start, max_turns):
    """Write the start position number ``start`` of :data:`START_NAMES` (B1): six single pawns per seat."""
    data[:] = 0
    for seat in range(2):
        for i in range(PAWNS):
            sq = START_SQUARES[start, seat, i]
            data[HEIGHT + sq] = 1
            data[COLOURS + sq] = seat
    start_fields(data, MAX_TURNS, max_turns, (WINNER, LAST_ORDER, LAST_ORDER + 1))


@njit(cache=True)
def is_over(data):
    """True once the game has ended (won, drawn or truncated)."""
    return data[OVER] == 1


@njit(cache=True)
def decode(seat, action):
    """``(origin, direction, distance)`` in absolute board terms of ``seat``'s ``action``;
    origin -1 for STAY or an out-of-range action."""
    if action < 0 or action >= STAY:
        return -1, 0, 0
    o = action // (NUM_DIRS * MAX_DIST)
    d = (action // MAX_DIST) % NUM_DIRS
    k = action % MAX_DIST + 1
    if seat == 1:
        o = CELLS - 1 - o
        d = (d + 4) % NUM_DIRS
    return o, d, k


@njit(cache=True)
def encode(seat, origin, direction, distance):
    """The action of ``seat`` moving the stack on absolute square ``origin`` ``distance`` squares in
    absolute ``direction`` (the inverse of :func:`decode`)."""
    if seat == 1:
        origin = CELLS - 1 - origin
        direction = (direction + 4) % NUM_DIRS
    return origin * (NUM_DIRS * MAX_DIST) + direction * MAX_DIST + distance - 1


@njit(cache=True)
def target(origin, direction, distance):
    """The square ``distance`` steps from ``origin`` in absolute ``direction``, -1 off the board."""
    r = origin // SIZE + DIR_DR[direction] * distance
    f = origin % SIZE + DIR_DF[direction] * distance
    if r < 0 or r >= SIZE or f < 0 or f >= SIZE:
        return -1
    return r * SIZE + f


@njit(cache=True)
def order_target(seat, action):
    """Destination square of ``seat``'s order ``action`` (any position), -1 for STAY or off-board."""
    o, d, k = decode(seat, action)
    if o < 0:
        return -1
    return target(o, d, k)


@njit(cache=True)
def top(data, sq):
    """Seat owning the stack on ``sq`` (colour of its top pawn, B4), -1 when the square is empty."""
    h = data[HEIGHT + sq]
    if h == 0:
        return -1
    return top_colour(h, data[COLOURS + sq])


@njit(cache=True, inline="always")
def top_colour(h, colours):
    """B4: the colour (seat) of the top pawn of a stack of ``h`` pawns with colour bits ``colours``; for
    ``h == 0`` a value to ignore (no branch: the loops over every square select with it)."""
    return (colours >> max(h - 1, 0)) & 1


def _ray_table():
    """``RAYS[o, d, k]``: the square ``k + 1`` steps from ``o`` in absolute direction ``d`` (-1 off the
    board)."""
    rays = np.full((CELLS, NUM_DIRS, MAX_DIST), -1, dtype=np.int64)
    for o in range(CELLS):
        for d in range(NUM_DIRS):
            for k in range(MAX_DIST):
                r = o // SIZE + DIR_DR[d] * (k + 1)
                f = o % SIZE + DIR_DF[d] * (k + 1)
                if 0 <= r < SIZE and 0 <= f < SIZE:
                    rays[o, d, k] = r * SIZE + f
    return rays


RAYS = _ray_table()


@njit(cache=True)
def steps_of(height):
    """B2: a stack of ``height`` pawns travels 1..height squares (at most across the board)."""
    return min(height, MAX_DIST)


# Entries of a listed mask (:func:`legal_mask_listed`): the count, then at most 6 stacks x 8 directions x 5
# distances + STAY legal orders (a seat has 6 pawns, so it tops at most 6 stacks). The mask kernel writes a
# run of eight entries per direction of which it keeps the legal ones (:func:`write_run`): the stacks a seat
# tops hold the 12 pawns at most, and a stack travels at most its height, so a seat never has more than
# 8 * 12 moves, and the runs stay within the list.
LEGAL_LIST = 2 + PAWNS * NUM_DIRS * MAX_DIST


def _ray_bit_tables():
    """``RAY_BITS[o, d]``: the squares of the board from ``o`` in absolute direction ``d`` (``RAYS[o, d]``
    before its -1s) as a bit board; ``RAY_RUN[n]``: a word whose ``n`` low bytes are 1, a direction's eight
    mask entries with its first ``n`` orders legal (:func:`store_bytes`)."""
    bits = np.zeros((CELLS, NUM_DIRS), dtype=np.uint64)
    for o in range(CELLS):
        for d in range(NUM_DIRS):
            for sq in RAYS[o, d][RAYS[o, d] >= 0]:
                bits[o, d] |= np.uint64(1) << np.uint64(sq)
    runs = np.array([int("01" * n or "0", 16) for n in range(MAX_DIST + 1)], dtype=np.uint64)
    return bits, runs


RAY_BITS, RAY_RUN = _ray_bit_tables()


@njit(cache=True, inline="always")
def reach(origin, direction, steps, occupied, theirs):
    """B2, the one implementation of a move's legality: how far a stack on ``origin`` may move in absolute
    ``direction``, ``steps`` being the most it may travel (:func:`steps_of`), among the stacks of the bit
    board ``occupied``, of which ``theirs`` are topped by the other seat (:func:`top_boards`). Its moves of
    1..reach squares are the legal ones: in a straight line over empty squares, onto a square of the board
    not topped by the mover (a stack blocks the squares beyond it); so the reach is the squares of the ray
    nearer than its first stack, and that stack's square if the other seat tops it. The first stack is the
    lowest set bit of the ray's stacks for the directions that go up the square indices (N, NE, E, NW), the
    highest for the others. No branch: the mask kernel's reaches depend on the position in a way no
    predictor guesses."""
    ray = RAY_BITS[index(origin), index(direction)]
    blockers = occupied & ray
    if direction <= 2 or direction == 7:
        first = blockers & (np.uint64(0) - blockers)  # the lowest stack's bit, 0 when the ray is clear
        nearer = ray & (first - np.uint64(1))  # every square of a clear ray
    else:
        above = ~np.uint64(0) << np.uint64(highest_bit(blockers) + 1)  # the squares above the highest stack
        first = blockers & (above >> np.uint64(1))  # that stack's bit, 0 when the ray is clear
        nearer = ray & above
    landing = bit_count(first & theirs)
    return min(bit_count(nearer) + landing, steps)


@njit(cache=True)
def is_legal_order(data, seat, action):
    """B2: STAY, or a move of a stack topped by ``seat`` within its :func:`reach`. False once the game
    is over."""
    if data[OVER] == 1 or action < 0 or action >= NUM_ACTIONS:
        return False
    tops0, tops1 = top_boards(data)
    return _order_allowed(data, seat, action, tops0, tops1)


@njit(cache=True)
def _order_allowed(data, seat, action, tops0, tops1):
    """:func:`is_legal_order` in a running game, ``action`` in range, with the squares each seat tops
    given (:func:`top_boards`)."""
    if action == STAY:
        return True
    o, d, k = decode(seat, action)
    own, theirs = (tops1, tops0) if seat == 1 else (tops0, tops1)
    if (own >> np.uint64(o)) & np.uint64(1) == 0:
        return False
    return k <= reach(o, d, steps_of(data[HEIGHT + o]), tops0 | tops1, theirs)


@njit(cache=True)
def legal_mask(data, seat, mask):
    """Write ``seat``'s legal orders into ``mask`` (bool, NUM_ACTIONS): STAY plus every move of a
    stack it tops within its :func:`reach` (B2); all False once the game is over."""
    _legal_mask(data, seat, mask, None)


@njit(cache=True)
def legal_mask_listed(data, seat, mask, listed):
    """:func:`legal_mask`, and the legal orders in increasing order into ``listed`` (``LEGAL_LIST``
    entries): ``listed[0]`` their count, ``listed[1:1 + count]`` the orders, for the batches' random
    draws (:func:`boardgames.envs.compiled.sampling.pick_listed`)."""
    _legal_mask(data, seat, mask, listed)


@njit(cache=True, inline="always")
def _legal_mask(data, seat, mask, listed):
    """The mask kernel, with the list of legal orders too unless ``listed`` is None (numba compiles the
    tests away). The stacks' loop (:func:`_own_stacks`) is written out once per seat, so that the compiler
    knows the frame in each: the directions and bit scans are then constants."""
    mask[:] = False
    count = 0
    if data[OVER] == 0:
        if seat == 1:
            count = _own_stacks(data, 1, mask, listed)
        else:
            count = _own_stacks(data, 0, mask, listed)
        mask[STAY] = True
        if listed is not None:
            count += 1
            listed[index(count)] = STAY
    if listed is not None:
        listed[0] = count


@njit(cache=True)
def _own_stacks(data, seat, mask, listed):
    """The moves of the stacks ``seat`` tops, visited in its own frame (origin ``so``, direction ``sd``, the
    board's ``(sd + 4) % 8`` for North), so the orders ``so * 40 + sd * 5 + k`` come in increasing order:
    South's stacks from a1 up, North's from f6 down, taken from the bit board of :func:`top_boards`; returns
    their count. A direction's legal orders are its first :func:`reach` ones, so its five mask entries
    are written as one word (:func:`store_bytes`: eight entries, the next direction's first three written
    again after; the last origin's last direction, always off the board, f6 towards NW for South and a1
    towards SE for North, is left out: its word would pass the mask's end) and its list entries as a run of
    eight of which the legal ones are kept (:func:`write_run`). Compiled on its own, not inlined by numba
    (which would add reference counting of the arrays around the loop)."""
    count = 0
    tops0, tops1 = top_boards(data)
    occupied = tops0 | tops1
    word = tops1 if seat == 1 else tops0
    theirs = tops0 if seat == 1 else tops1
    while word != 0:
        o = highest_bit(word) if seat == 1 else lowest_bit(word)
        word ^= np.uint64(1) << np.uint64(o)
        so = CELLS - 1 - o if seat == 1 else o
        steps = steps_of(data[index(HEIGHT + o)])
        for sd in range(NUM_DIRS):
            n = reach(o, (sd + 4 * seat) & 7, steps, occupied, theirs)
            base = (so * NUM_DIRS + sd) * MAX_DIST
            if base + 8 <= NUM_ACTIONS:
                store_bytes(mask, base, RAY_RUN[index(n)])
            if listed is not None:
                write_run(listed, count + 1, base)
                count += n
    return count


def _line_masks():
    """Every line of 3 neighbouring squares (B5) as a bit mask of its squares, from one end towards N,
    NE, E or SE."""
    lines = []
    for sq in range(CELLS):
        r, f = divmod(sq, SIZE)
        for d in range(4):
            r2, f2 = r + 2 * DIR_DR[d], f + 2 * DIR_DF[d]
            if 0 <= r2 < SIZE and 0 <= f2 < SIZE:
                mid = (r + DIR_DR[d]) * SIZE + f + DIR_DF[d]
                lines.append((1 << sq) | (1 << int(mid)) | (1 << int(r2 * SIZE + f2)))
    return np.array(lines, dtype=np.int64)


LINES = _line_masks()


def _line_starts():
    """For each line direction of :data:`LINES` (N, NE, E, SE), the bit shift from one square of a line to
    the next and the squares where a line may start, so that ``t & (t >> s) & (t >> 2s) & starts`` is
    nonzero exactly when the squares of ``t`` hold a line of that direction (SE lines are read from
    their lower end, towards NW: shift 5)."""
    shifts, starts = [], []
    for d in (0, 1, 2, 7):  # N, NE, E and NW: the directions in which the square index grows
        dr, df = int(DIR_DR[d]), int(DIR_DF[d])
        ok = 0
        for sq in range(CELLS):
            r, f = divmod(sq, SIZE)
            if 0 <= r + 2 * dr < SIZE and 0 <= f + 2 * df < SIZE:
                ok |= 1 << sq
        shifts.append(dr * SIZE + df)
        starts.append(ok)
    return np.array(shifts, dtype=np.int64), np.array(starts, dtype=np.int64)


LINE_SHIFTS, LINE_STARTS = _line_starts()


@njit(cache=True, inline="always")
def _has_line(t):
    """Whether the squares of bit board ``t`` hold 3 neighbouring squares in a row, column or diagonal
    (one of :data:`LINES`), by shifts instead of a loop over the 80 lines."""
    found = np.int64(0)
    for i in range(4):
        s = LINE_SHIFTS[i]
        found |= t & (t >> s) & (t >> (2 * s)) & LINE_STARTS[i]
    return found != 0


@njit(cache=True, inline="always")
def top_boards(data):
    """B4: the squares each seat tops, as two bit boards ``(South's, North's)`` (bit ``sq``), in one pass over
    the board without branches."""
    tops0 = np.uint64(0)
    tops1 = np.uint64(0)
    for sq in range(CELLS):
        h = data[HEIGHT + sq]
        north = top_colour(h, data[COLOURS + sq])
        tops0 |= np.uint64((h != 0) & (north == 0)) << np.uint64(sq)
        tops1 |= np.uint64((h != 0) & (north == 1)) << np.uint64(sq)
    return tops0, tops1


@njit(cache=True)
def _tops(data):
    """B4 and B5: ``(aligned0, n0, aligned1, n1)``, whether each seat tops 3 neighbouring squares in a
    row, column or diagonal (every line of :data:`LINES`), and how many stacks it tops."""
    tops0, tops1 = top_boards(data)
    return _has_line(np.int64(tops0)), bit_count(tops0), _has_line(np.int64(tops1)), bit_count(tops1)


@njit(cache=True)
def stacks_of(data, seat):
    """Number of stacks topped by ``seat``."""
    _, n0, _, n1 = _tops(data)
    return n1 if seat == 1 else n0


@njit(cache=True)
def aligned(data, seat):
    """B5: True when 3 neighbouring squares in a row, column or diagonal are all topped by ``seat``."""
    aligned0, _, aligned1, _ = _tops(data)
    return aligned1 if seat == 1 else aligned0


@njit(cache=True)
def victories(data):
    """B5, the one implementation of the end: whether each seat reaches victory, ``(South, North)``. A
    seat reaches it when it is aligned or the other seat tops ``OUT_LIMIT`` (2) stacks or fewer."""
    tops0, tops1 = top_boards(data)
    return _victories_of(tops0, tops1)


@njit(cache=True, inline="always")
def _victories_of(tops0, tops1):
    """:func:`victories` from the squares each seat tops (:func:`top_boards`)."""
    n0, n1 = bit_count(tops0), bit_count(tops1)
    return _has_line(np.int64(tops0)) or n1 <= OUT_LIMIT, _has_line(np.int64(tops1)) or n0 <= OUT_LIMIT


@njit(cache=True)
def victory(data, seat):
    """B5: whether ``seat`` reaches victory (see :func:`victories`)."""
    v0, v1 = victories(data)
    return v1 if seat == 1 else v0


def _score_lines():
    """Every line of three (:data:`LINES`) as its three squares in increasing order, listed by first square,
    then row, column, NE diagonal, NW diagonal: the order :func:`score` sums them in (a float sum depends
    on it, and the greedy agent's ties on the sum)."""
    step_order = {1: 0, SIZE: 1, SIZE + 1: 2, SIZE - 1: 3}
    lines = [tuple(sq for sq in range(CELLS) if int(m) >> sq & 1) for m in LINES]
    lines.sort(key=lambda sqs: (sqs[0], step_order[sqs[1] - sqs[0]]))
    return np.array(lines, dtype=np.int64)


SCORE_LINES = _score_lines()
LEAF_SCALE = 2.0  # a leaf's value is tanh(score / LEAF_SCALE)


@njit(cache=True)
def score(data, seat):
    """The greedy agent's position score for ``seat`` (not a rule; :mod:`boardgames.envs.barc.heuristic`):
    stacks topped (B5: a side left with 2 loses), own minus the opponent's, plus the lines of three being
    built: 0.1 x (own tops)^2 for each line the opponent tops none of, minus the same for the opponent."""
    tops0, tops1 = top_boards(data)
    mine_board, theirs_board = (tops1, tops0) if seat == 1 else (tops0, tops1)
    value = 1.0 * (bit_count(mine_board) - bit_count(theirs_board))
    for i in range(SCORE_LINES.shape[0]):
        mine = 0
        theirs = 0
        for k in range(3):
            bit = np.uint64(1) << np.uint64(SCORE_LINES[i, k])
            mine += (mine_board & bit) != 0
            theirs += (theirs_board & bit) != 0
        if theirs == 0:
            value += 0.1 * mine**2
        if mine == 0:
            value -= 0.1 * theirs**2
    return value


@njit(cache=True)
def leaf_values(data, out):
    """Each seat's value of a running position for a search's leaves (the optional kernel of
    :mod:`boardgames.envs.core.game_kernels`): ``tanh(score / LEAF_SCALE)``, in (-1, 1)."""
    for seat in range(2):
        out[seat] = math.tanh(score(data, seat) / LEAF_SCALE)


@njit(cache=True)
def _lift(data, sq):
    """Take the whole stack off ``sq``; returns (height, colour bits)."""
    h = data[HEIGHT + sq]
    c = data[COLOURS + sq]
    data[HEIGHT + sq] = 0
    data[COLOURS + sq] = 0
    return h, c


@njit(cache=True)
def _put(data, sq, h, c):
    """Put a stack of height ``h`` and colour bits ``c`` on top of whatever stands on ``sq`` (B4)."""
    below = data[HEIGHT + sq]
    data[COLOURS + sq] = data[COLOURS + sq] | (c << below)
    data[HEIGHT + sq] = below + h


@njit(cache=True)
def apply_joint(data, actions):
    """Resolve one turn (B3) from both orders ``actions[0]`` (South) and ``actions[1]`` (North), then
    check the end (B5) and the turn limit (B6). An impossible order counts as STAY (source: a
    player who gives an impossible order does not move); the environment rejects it before."""
    if data[OVER] == 1:
        return
    a0 = actions[0]
    a1 = actions[1]
    tops0, tops1 = top_boards(data)
    if a0 < 0 or a0 >= NUM_ACTIONS or not _order_allowed(data, 0, a0, tops0, tops1):
        a0 = STAY
    if a1 < 0 or a1 >= NUM_ACTIONS or not _order_allowed(data, 1, a1, tops0, tops1):
        a1 = STAY
    o0, d0, k0 = decode(0, a0)
    o1, d1, k1 = decode(1, a1)
    t0 = -1 if o0 < 0 else target(o0, d0, k0)
    t1 = -1 if o1 < 0 else target(o1, d1, k1)
    cancelled = 0
    if t0 >= 0 and t0 == t1:
        cancelled = 1  # B3: same destination, nobody moves
    else:
        # B3: both stacks are lifted first, then each is put down on its destination, which its mover
        # then tops (B4: the stack's top pawn is the mover's); the bit boards of the tops follow.
        h0 = h1 = c0 = c1 = 0
        if o0 >= 0:
            h0, c0 = _lift(data, o0)
            tops0 &= ~(np.uint64(1) << np.uint64(o0))
        if o1 >= 0:
            h1, c1 = _lift(data, o1)
            tops1 &= ~(np.uint64(1) << np.uint64(o1))
        if o0 >= 0:
            _put(data, t0, h0, c0)
            tops0 |= np.uint64(1) << np.uint64(t0)
            tops1 &= ~(np.uint64(1) << np.uint64(t0))
        if o1 >= 0:
            _put(data, t1, h1, c1)
            tops1 |= np.uint64(1) << np.uint64(t1)
            tops0 &= ~(np.uint64(1) << np.uint64(t1))
    data[LAST_ORDER] = a0
    data[LAST_ORDER + 1] = a1
    data[LAST_CANCELLED] = cancelled
    data[TURN] += 1
    v0, v1 = _victories_of(tops0, tops1)
    if v0 or v1:
        data[OVER] = 1
        if v0 and not v1:
            data[WINNER] = 0
        elif v1 and not v0:
            data[WINNER] = 1
        # both: a draw (B5), WINNER stays -1
    elif data[TURN] >= data[MAX_TURNS]:
        data[OVER] = 1
        data[TRUNCATED] = 1


@njit(cache=True)
def returns(data, out):
    """+1 to the winner and -1 to the loser; 0 to both on a draw, truncation or running game."""
    two_player_returns(data[WINNER], out)
