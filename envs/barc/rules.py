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

import numpy as np
from numba import njit

from envs.core.kernels import two_player_returns

SIZE = 6
CELLS = SIZE * SIZE
PAWNS = 6  # per player
MAX_DIST = SIZE - 1
NUM_DIRS = 8
STAY = CELLS * NUM_DIRS * MAX_DIST
NUM_ACTIONS = STAY + 1
DEFAULT_MAX_TURNS = 200
OUT_LIMIT = 2  # B5: a player topping this many stacks or fewer is out

# Absolute directions: rank step and file step (0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW).
DIR_DR = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
DIR_DF = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

# B1: the start squares of each seat.
START_SQUARES = np.array(
    [
        [0, 1, 6, 4, 5, 11],  # South: a1, b1, a2, e1, f1, f2
        [30, 31, 24, 34, 35, 29],  # North: a6, b6, a5, e6, f6, f5
    ],
    dtype=np.int64,
)

HEIGHT = 0
COLOURS = HEIGHT + CELLS
TURN = COLOURS + CELLS
MAX_TURNS = TURN + 1
OVER = MAX_TURNS + 1
WINNER = OVER + 1
TRUNCATED = WINNER + 1
LAST_ORDER = TRUNCATED + 1
LAST_CANCELLED = LAST_ORDER + 2
TO_MOVE = LAST_CANCELLED + 1
STATE_SIZE = TO_MOVE + 1

# Observation planes over the 6x6 board (see observe()).
OBS_OWN, OBS_OPP, OBS_HEIGHT, OBS_OWN_PAWNS, OBS_OPP_PAWNS = 0, 1, 2, 3, 4
OBS_OWN_FROM, OBS_OWN_TO, OBS_OPP_FROM, OBS_OPP_TO = 5, 6, 7, 8
OBS_OWN_STAYED, OBS_OPP_STAYED, OBS_CANCELLED, OBS_TURN = 9, 10, 11, 12
OBS_CHANNELS = 13
MAX_HEIGHT = 2 * PAWNS


@njit(cache=True)
def init_state(data, max_turns):
    """Write the start position (B1): six single pawns per seat on its two back ranks."""
    data[:] = 0
    for seat in range(2):
        for i in range(PAWNS):
            sq = START_SQUARES[seat, i]
            data[HEIGHT + sq] = 1
            data[COLOURS + sq] = seat
    data[MAX_TURNS] = max_turns
    data[WINNER] = -1
    data[LAST_ORDER] = -1
    data[LAST_ORDER + 1] = -1


@njit(cache=True)
def is_over(data):
    """True once the game has ended (won, drawn or truncated)."""
    return data[OVER] == 1


@njit(cache=True)
def top(data, sq):
    """Seat owning the stack on ``sq`` (colour of its top pawn, B4), -1 when the square is empty."""
    h = data[HEIGHT + sq]
    if h == 0:
        return -1
    return (data[COLOURS + sq] >> (h - 1)) & 1


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
def is_legal_order(data, seat, action):
    """B2: STAY, or a stack topped by ``seat``, moved 1..height squares in a straight line over empty
    squares onto a square of the board not topped by ``seat``. False once the game is over."""
    if data[OVER] == 1 or action < 0 or action >= NUM_ACTIONS:
        return False
    if action == STAY:
        return True
    o, d, k = decode(seat, action)
    if top(data, o) != seat or k > data[HEIGHT + o]:
        return False
    dst = target(o, d, k)
    if dst < 0 or top(data, dst) == seat:
        return False
    for step in range(1, k):
        if data[HEIGHT + target(o, d, step)] != 0:
            return False
    return True


def _ray_tables():
    """``RAYS[o, d, k]``: the square ``k + 1`` steps from ``o`` in absolute direction ``d`` (-1 off the
    board); ``RAY_ACTIONS[seat, o, d, k]``: ``seat``'s action moving the stack on ``o`` there."""
    rays = np.full((CELLS, NUM_DIRS, MAX_DIST), -1, dtype=np.int64)
    actions = np.full((2, CELLS, NUM_DIRS, MAX_DIST), -1, dtype=np.int64)
    for o in range(CELLS):
        for d in range(NUM_DIRS):
            for k in range(MAX_DIST):
                r = o // SIZE + DIR_DR[d] * (k + 1)
                f = o % SIZE + DIR_DF[d] * (k + 1)
                if 0 <= r < SIZE and 0 <= f < SIZE:
                    rays[o, d, k] = r * SIZE + f
                for seat in range(2):
                    so, sd = (o, d) if seat == 0 else (CELLS - 1 - o, (d + 4) % NUM_DIRS)
                    actions[seat, o, d, k] = so * (NUM_DIRS * MAX_DIST) + sd * MAX_DIST + k
    return rays, actions


RAYS, RAY_ACTIONS = _ray_tables()


@njit(cache=True)
def legal_mask(data, seat, mask):
    """Write ``seat``'s legal orders into ``mask`` (bool, NUM_ACTIONS): STAY plus every move of a
    stack it tops (B2); all False once the game is over."""
    mask[:] = False
    if data[OVER] == 1:
        return
    mask[STAY] = True
    for o in range(CELLS):
        h = data[HEIGHT + o]
        if h == 0 or ((data[COLOURS + o] >> (h - 1)) & 1) != seat:
            continue
        reach = min(h, MAX_DIST)
        for d in range(NUM_DIRS):
            for k in range(reach):
                dst = RAYS[o, d, k]
                if dst < 0:
                    break
                hd = data[HEIGHT + dst]
                if hd == 0:
                    mask[RAY_ACTIONS[seat, o, d, k]] = True
                    continue
                if ((data[COLOURS + dst] >> (hd - 1)) & 1) != seat:
                    mask[RAY_ACTIONS[seat, o, d, k]] = True
                break  # a stack blocks the squares beyond it


@njit(cache=True)
def stacks_of(data, seat):
    """Number of stacks topped by ``seat``."""
    n = 0
    for sq in range(CELLS):
        if top(data, sq) == seat:
            n += 1
    return n


@njit(cache=True)
def aligned(data, seat):
    """B5: True when 3 neighbouring squares in a row, column or diagonal are all topped by ``seat``."""
    for sq in range(CELLS):
        if top(data, sq) != seat:
            continue
        for d in range(4):  # N, NE, E, SE: every line of 3 is seen once from one of its ends
            a = target(sq, d, 1)
            b = target(sq, d, 2)
            if b >= 0 and top(data, a) == seat and top(data, b) == seat:
                return True
    return False


@njit(cache=True)
def victory(data, seat):
    """B5: ``seat`` reaches victory when it is aligned or the other seat tops 2 stacks or fewer."""
    return aligned(data, seat) or stacks_of(data, 1 - seat) <= OUT_LIMIT


def _line_masks():
    """Every line of 3 neighbouring squares (B5) as a bit mask of its squares, as :func:`aligned` sees
    them: from one end towards N, NE, E or SE."""
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


@njit(cache=True)
def _victories(data):
    """``(victory(data, 0), victory(data, 1))`` in one pass over the board (B5)."""
    tops0 = np.int64(0)
    tops1 = np.int64(0)
    n0 = 0
    n1 = 0
    for sq in range(CELLS):
        h = data[HEIGHT + sq]
        if h == 0:
            continue
        if (data[COLOURS + sq] >> (h - 1)) & 1:
            tops1 |= np.int64(1) << sq
            n1 += 1
        else:
            tops0 |= np.int64(1) << sq
            n0 += 1
    aligned0 = False
    aligned1 = False
    for i in range(LINES.shape[0]):
        line = LINES[i]
        if (tops0 & line) == line:
            aligned0 = True
        if (tops1 & line) == line:
            aligned1 = True
    return aligned0 or n1 <= OUT_LIMIT, aligned1 or n0 <= OUT_LIMIT


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
    if not is_legal_order(data, 0, a0):
        a0 = STAY
    if not is_legal_order(data, 1, a1):
        a1 = STAY
    o0, d0, k0 = decode(0, a0)
    o1, d1, k1 = decode(1, a1)
    t0 = -1 if o0 < 0 else target(o0, d0, k0)
    t1 = -1 if o1 < 0 else target(o1, d1, k1)
    cancelled = 0
    if t0 >= 0 and t0 == t1:
        cancelled = 1  # B3: same destination, nobody moves
    else:
        # B3: both stacks are lifted first, then each is put down on its destination.
        h0 = h1 = c0 = c1 = 0
        if o0 >= 0:
            h0, c0 = _lift(data, o0)
        if o1 >= 0:
            h1, c1 = _lift(data, o1)
        if o0 >= 0:
            _put(data, t0, h0, c0)
        if o1 >= 0:
            _put(data, t1, h1, c1)
    data[LAST_ORDER] = a0
    data[LAST_ORDER + 1] = a1
    data[LAST_CANCELLED] = cancelled
    data[TURN] += 1
    v0, v1 = _victories(data)
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


@njit(cache=True)
def _mark_order(data, seat, viewer, action, out, plane_from, plane_to):
    """Write the origin and destination of ``seat``'s last order (a move, not STAY or none) into the
    observation planes of ``viewer``."""
    o, d, k = decode(seat, action)
    t = target(o, d, k)
    if viewer == 1:
        o = CELLS - 1 - o
        t = CELLS - 1 - t
    out[o // SIZE, o % SIZE, plane_from] = 1.0
    out[t // SIZE, t % SIZE, plane_to] = 1.0


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
    the board is turned half a turn (``out[r, f]`` is square ``35 - (r * 6 + f)``).

    * ``0``: stacks the observer tops; ``1``: stacks the opponent tops;
    * ``2``: stack height / 12; ``3``: the observer's pawns in the stack / 6; ``4``: the opponent's;
    * ``5``, ``6``: origin and destination of the observer's last order; ``7``, ``8``: the opponent's;
    * ``9``: the observer's last order was STAY (constant plane); ``10``: the opponent's;
    * ``11``: last turn's orders named the same destination (constant plane);
    * ``12``: turns played / turn limit (constant plane).

    The other seat's order for the current turn is never part of the state, so it cannot leak.
    """
    # One fast zero-fill, then only the nonzero entries, cell by cell in the output's memory order.
    out[:] = 0.0
    opp = 1 - seat
    own_order = data[LAST_ORDER + seat]
    opp_order = data[LAST_ORDER + opp]
    own_stayed = np.float32(own_order == STAY)
    opp_stayed = np.float32(opp_order == STAY)
    cancelled = np.float32(data[LAST_CANCELLED] == 1)
    turn = np.float32(min(1.0, data[TURN] / max(1, data[MAX_TURNS])))
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
                cell[OBS_OWN] = 1.0
            else:
                cell[OBS_OPP] = 1.0
            north = _pawns_of_north(c, h)
            mine = north if flip else h - north
            cell[OBS_HEIGHT] = h / MAX_HEIGHT
            cell[OBS_OWN_PAWNS] = mine / PAWNS
            cell[OBS_OPP_PAWNS] = (h - mine) / PAWNS
    if own_order >= 0 and own_order != STAY:
        _mark_order(data, seat, seat, own_order, out, OBS_OWN_FROM, OBS_OWN_TO)
    if opp_order >= 0 and opp_order != STAY:
        _mark_order(data, opp, seat, opp_order, out, OBS_OPP_FROM, OBS_OPP_TO)


# ----- fused kernels for the Parallel adapter (envs.core.parallel_env) ---------------------------------
# One compiled call per reset and per turn instead of a dozen: the adapter falls back to the kernels
# above, one by one, for a game whose rules module has none of these. Codes returned: bits 0-1 the seats
# whose order was not legal (played as STAY), bit 2 the game is over, bit 3 truncated, the turn above.
ENV_OVER_BIT = 4
ENV_TRUNCATED_BIT = 8
ENV_TURN_SHIFT = 4


@njit(cache=True)
def env_refresh(data, own, obs, masks):
    """Both seats' legal masks into ``own`` (bool (2, NUM_ACTIONS), the adapter's own copy for its
    checks) and ``masks`` (int8 (2, NUM_ACTIONS), handed out), both observations into ``obs``
    ((2, 6, 6, OBS_CHANNELS)). Returns the turn, over and truncated bits of the code."""
    for s in range(2):
        o = own[s]
        legal_mask(data, s, o)
        m = masks[s]
        for a in range(NUM_ACTIONS):
            m[a] = o[a]
        observe(data, s, obs[s])
    return (data[TURN] << ENV_TURN_SHIFT) | (ENV_OVER_BIT * data[OVER]) | (ENV_TRUNCATED_BIT * data[TRUNCATED])


@njit(cache=True)
def env_step(data, actions, void, own, obs, masks):
    """One turn for the Parallel adapter: ``actions`` (int64, both in range) checked against ``own``
    (this turn's masks). An order the mask forbids returns -1 with nothing changed unless ``void``;
    with ``void`` it is played as STAY (as :func:`apply_joint` does) and its seat's bit is set. Then
    :func:`env_refresh` of the new position; returns the code."""
    illegal = 0
    for s in range(2):
        if not own[s, actions[s]]:
            illegal |= 1 << s
    if illegal != 0 and not void:
        return -1
    apply_joint(data, actions)
    return env_refresh(data, own, obs, masks) | illegal
