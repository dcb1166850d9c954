"""ADIX rules (Echamier Games; source 004 and rulings A1-A11) as numba kernels over one int array.

Board: 9x9, square index = rank * 9 + file (a1 = 0, i9 = 80), a1 dark (A1). White = seat 0 moves first.

The cube model (weapons, faces, tilts and rotations: A3, A5, A7, A8) is :mod:`boardgames.envs.adix.cube`;
its names are importable from here too.

State layout (``data``, int32, length ``STATE_SIZE``)
------------------------------------------------------
================  ===========================================================================
offset            content
================  ===========================================================================
``CUBE``          81 squares: -1 empty, else the cube's code (below)
``TO_MOVE``       seat to act
``TURN``          turns played so far
``MAX_TURNS``     turn limit (truncation)
``OVER``          1 once the game is over
``WINNER``        winning seat, -1 none
``TRUNCATED``     1 when the turn limit ended the game
``REASON``        how the game ended (``END_*``)
``QUIET``         consecutive turns (both players') without a displacement (A11; captures are
                  displacements); 30 draws
``REP_SQ``        2: per seat, the square of the cube that made the seat's last movement, -1 none
``REP_MOVE``      2: per seat, that movement (``M_*``: rotation or tilt), -1 when the seat's last
                  turn was a displacement (or none yet)
``REP_COUNT``     2: per seat, on how many consecutive own turns that cube made that movement (0..2)
``LAST_FROM``     square the last action started from, -1 none
``LAST_TO``       square the last action ended on (= ``LAST_FROM`` for a rotation), -1 none
================  ===========================================================================

A cube's code packs everything about it in 8 bits (:func:`cube_code`): ``seat << 7 | top << 5 | kind << 4 |
north << 2 | east``, with ``kind`` ``TEAMMATE`` 0 / ``CAPTAIN`` 1 and ``top``, ``north``, ``east`` the weapons
on the top face (the active weapon), the face pointing north (towards rank 9) and the one pointing east
(towards file i). One load tells the hot kernels whether a square is empty (the code is negative), whose
cube it holds (``code >> 7``, which is -1 on an empty square) and which weapon it shows (``code >> 5``: seat
and top together). :func:`owner_of`, :func:`kind_of`, :func:`top_of`, :func:`north_of`, :func:`east_of` and
:func:`cube_fields` read the fields back (-1 on an empty square).

A9 ("the same movement on three consecutive turns of its owner") only concerns the cube its owner
played on each of its last turns, so one record per seat (square, movement, count) is the whole
per-piece history the rule needs: a movement ``m`` of the cube on ``REP_SQ[s]`` is illegal when
``REP_MOVE[s] == m`` and ``REP_COUNT[s] == 2``.

Actions (``NUM_ACTIONS`` = 81 * 70 = 5670), **egocentric**: ``action = 70 * square + k`` in the acting
seat's own frame, where White's frame is the board and Black's frame is the board turned 180 degrees
(Black's square s is the board's square 80 - s, its north is the board's south, its east the board's
west). ``k`` in 0..63: displacement in direction ``k // 8`` (N, NE, E, SE, S, SW, W, NW) by
``k % 8 + 1`` squares; 64: rotate left; 65: rotate right; 66..69: tilt N, E, S, W. So one policy
plays both colours. Notation (:mod:`boardgames.envs.adix.notation`) is always absolute.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.adix.cube import (  # noqa: F401  (the cube's names are the rules' too: R.ROCK, R.opposite...)
    CAPTAIN,
    M_LEFT,
    M_RIGHT,
    M_TILT_N,
    M_TILT_W,
    MOVEMENT_NAMES,
    PAPER,
    ROCK,
    SCISSORS,
    SHELTER,
    TEAMMATE,
    WEAPON_LETTERS,
    beats,
    opposite,
    turn_cube,
    valid_orientation,
    weapon_moves_along,
)
from boardgames.envs.compiled.bits import highest_bit, index, lowest_bit, store_bytes, write_run
from boardgames.envs.compiled.cells import start_fields, two_player_returns
from boardgames.envs.compiled.packing import bool_form, finish_mask, or_bits, packed_words, set_entry, start_mask
from boardgames.envs.compiled.views import scratch

SIZE = 9
CELLS = SIZE * SIZE
ACTIONS_PER_SQUARE = 70
NUM_ACTIONS = CELLS * ACTIONS_PER_SQUARE
DEFAULT_MAX_TURNS = 300
QUIET_DRAW = 30  # A11
TEAMMATES = 9

# directions (rank step, file step): N, NE, E, SE, S, SW, W, NW
DR = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
DF = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

# action codes k of a square (see the module doc): the movements M_* of boardgames.envs.adix.cube are K_LEFT + movement
K_LEFT = 64
K_RIGHT = 65
K_TILT = 66  # + 0 N, 1 E, 2 S, 3 W
TILT_DIRS = np.array([0, 2, 4, 6], dtype=np.int64)  # tilt n -> direction index

# how the game ended
END_NONE, END_CAPTAIN, END_TEAM, END_STUCK, END_QUIET, END_LIMIT = 0, 1, 2, 3, 4, 5

# The offsets of the state layout (see the module docstring), in its order.
CUBE = 0  # a code per square
TO_MOVE, TURN, MAX_TURNS, OVER, WINNER, TRUNCATED, REASON, QUIET = range(CUBE + CELLS, CUBE + CELLS + 8)
REP_SQ, REP_MOVE, REP_COUNT = range(QUIET + 1, QUIET + 7, 2)  # a value per seat each
LAST_FROM, LAST_TO = range(REP_COUNT + 2, REP_COUNT + 4)
STATE_SIZE = LAST_TO + 1

# ----- actions ---------------------------------------------------------------------------------


@njit(cache=True)
def mirror_action(action):
    """The same action seen from the other side of the board (square turned 180 degrees, directions
    reversed, rotations unchanged). It is its own inverse."""
    sq = action // ACTIONS_PER_SQUARE
    k = action % ACTIONS_PER_SQUARE
    if k < K_LEFT:
        k = ((k // 8 + 4) % 8) * 8 + k % 8
    elif k >= K_TILT:
        k = K_TILT + (k - K_TILT + 2) % 4
    return (CELLS - 1 - sq) * ACTIONS_PER_SQUARE + k


@njit(cache=True)
def absolute_action(action, seat):
    """The board-frame action of ``seat``'s egocentric ``action`` (Black's is mirrored)."""
    if seat == 1:
        return mirror_action(action)
    return action


@njit(cache=True)
def decode(abs_action):
    """Board-frame action -> (from square, to square, movement): movement -1 for a displacement, the
    square -1 off the board (from the move tables RAYS and TILTS below)."""
    sq = abs_action // ACTIONS_PER_SQUARE
    k = abs_action % ACTIONS_PER_SQUARE
    if k < K_LEFT:
        return sq, RAYS[sq, k // 8, k % 8], -1
    if k < K_TILT:
        return sq, sq, M_LEFT + k - K_LEFT
    return sq, TILTS[sq, k - K_TILT], M_TILT_N + k - K_TILT


# ----- the cube codes of the CUBE squares (see the module docstring) ------------------------------
EMPTY = -1  # the code of an empty square
SEAT_SHIFT, TOP_SHIFT, KIND_SHIFT, NORTH_SHIFT = 7, 5, 4, 2


@njit(cache=True, inline="always")
def cube_code(seat, kind, top, north, east):
    """The code of a cube of ``seat`` and ``kind`` showing the weapons ``top``, ``north`` and ``east``."""
    return (seat << SEAT_SHIFT) | (top << TOP_SHIFT) | (kind << KIND_SHIFT) | (north << NORTH_SHIFT) | east


@njit(cache=True, inline="always")
def owner_of(data, sq):
    """The seat owning the cube on ``sq``, -1 when the square is empty (the code's arithmetic shift)."""
    return data[CUBE + sq] >> SEAT_SHIFT


@njit(cache=True, inline="always")
def _field(data, sq, shift, bits):
    """The field of ``bits`` (1 or 3) from bit ``shift`` of the code on ``sq``, -1 when the square is empty."""
    code = data[CUBE + sq]
    return (code >> shift) & bits if code >= 0 else -1


@njit(cache=True, inline="always")
def kind_of(data, sq):
    """``TEAMMATE`` or ``CAPTAIN`` for the cube on ``sq``, -1 when the square is empty."""
    return _field(data, sq, KIND_SHIFT, 1)


@njit(cache=True, inline="always")
def top_of(data, sq):
    """The weapon on the top face of the cube on ``sq`` (its active weapon), -1 when the square is empty."""
    return _field(data, sq, TOP_SHIFT, 3)


@njit(cache=True, inline="always")
def north_of(data, sq):
    """The weapon on the face of the cube on ``sq`` that points north, -1 when the square is empty."""
    return _field(data, sq, NORTH_SHIFT, 3)


@njit(cache=True, inline="always")
def east_of(data, sq):
    """The weapon on the face of the cube on ``sq`` that points east, -1 when the square is empty."""
    return _field(data, sq, 0, 3)


# ----- set-up and queries ----------------------------------------------------------------------


@njit(cache=True)
def cube_fields(data, sq):
    """(owner, kind, top, north, east) of the cube on ``sq``; all -1 when the square is empty."""
    return owner_of(data, sq), kind_of(data, sq), top_of(data, sq), north_of(data, sq), east_of(data, sq)


@njit(cache=True)
def clear_square(data, sq):
    """Make ``sq`` empty."""
    data[CUBE + sq] = EMPTY


@njit(cache=True)
def put_cube(data, sq, seat, kind, top, north, east):
    """Put a cube of ``seat`` on ``sq``."""
    data[CUBE + sq] = cube_code(seat, kind, top, north, east)


@njit(cache=True)
def clear_state(data, max_turns):
    """An empty board, White to move, no history."""
    data[:] = 0
    for sq in range(CELLS):
        clear_square(data, sq)
    start_fields(data, MAX_TURNS, max_turns, (WINNER, REP_SQ, REP_SQ + 1, REP_MOVE, REP_MOVE + 1, LAST_FROM, LAST_TO))


@njit(cache=True)
def init_state(data, max_turns):
    """A2/A3: captains on e1 and e9 with rock on top, the teammates on ranks 2 and 8 with the shelter
    on top (the walls); paper faces north and south, scissors east and west; White to move."""
    clear_state(data, max_turns)
    put_cube(data, 4, 0, CAPTAIN, ROCK, PAPER, SCISSORS)
    put_cube(data, 8 * SIZE + 4, 1, CAPTAIN, ROCK, PAPER, SCISSORS)
    for f in range(SIZE):
        put_cube(data, SIZE + f, 0, TEAMMATE, SHELTER, PAPER, SCISSORS)
        put_cube(data, 7 * SIZE + f, 1, TEAMMATE, SHELTER, PAPER, SCISSORS)


@njit(cache=True)
def is_over(data):
    """True once the game has ended (won, drawn or truncated)."""
    return data[OVER] == 1


@njit(cache=True)
def count_pieces(data, seat, kind):
    """How many cubes of ``kind`` ``seat`` has on the board."""
    n = 0
    for sq in range(CELLS):
        n += (owner_of(data, sq) == seat) & (kind_of(data, sq) == kind)
    return n


@njit(cache=True, inline="always")
def repeated_movement(data, seat, sq):
    """A9: the movement (M_*) the cube on ``sq`` made on its owner's last two turns, which it may not make a
    third time now; -1 when there is none."""
    if data[REP_SQ + seat] == sq and data[REP_COUNT + seat] >= 2:
        return data[REP_MOVE + seat]
    return -1


@njit(cache=True)
def movement_allowed(data, seat, sq, movement):
    """A9: False when the cube on ``sq`` made ``movement`` on its owner's last two turns."""
    return repeated_movement(data, seat, sq) != movement


def _move_tables():
    """``RAYS[sq, d, n - 1]``: the square ``n`` steps from ``sq`` in direction ``d`` (-1 off the board);
    ``TILTS[sq, t]``: the square a tilt ``t`` (N, E, S, W) moves to (-1 off the board);
    ``EGO[seat, a]``: ``seat``'s egocentric index of board-frame action ``a`` (see mirror_action)."""
    rays = np.full((CELLS, 8, SIZE - 1), -1, dtype=np.int64)
    tilts = np.full((CELLS, 4), -1, dtype=np.int64)
    for sq in range(CELLS):
        r, f = divmod(sq, SIZE)
        for d in range(8):
            for n in range(1, SIZE):
                rr, ff = r + DR[d] * n, f + DF[d] * n
                if 0 <= rr < SIZE and 0 <= ff < SIZE:
                    rays[sq, d, n - 1] = rr * SIZE + ff
        for t in range(4):
            tilts[sq, t] = rays[sq, TILT_DIRS[t], 0]
    mirror = getattr(mirror_action, "py_func", mirror_action)  # plain Python: no compiling at import
    ego = np.empty((2, NUM_ACTIONS), dtype=np.int64)
    for a in range(NUM_ACTIONS):
        ego[0, a] = a
        ego[1, a] = mirror(a)
    return rays, tilts, ego


RAYS, TILTS, EGO = _move_tables()


@njit(cache=True, inline="always")
def can_turn(data, seat, src, movement):
    """A6-A9: whether ``seat``'s cube on ``src`` may make ``movement`` (M_*) now (see :func:`turn_legal`)."""
    return turn_legal(data, src, movement, repeated_movement(data, seat, src))


@njit(cache=True, inline="always")
def turn_legal(data, src, movement, repeated):
    """A6-A9, the one implementation of a rotation's or tilt's legality: whether the cube on ``src`` may
    make ``movement`` (M_*) now, ``repeated`` being the movement A9 forbids it (:func:`repeated_movement`).
    Not three times in a row (A9); a rotation not under shelter (A6, A7); a tilt onto an empty square of
    the board (A8). Written without branches (a tilt's square -1, off the board, reads a square of the
    state that the test then ignores), so that the mask kernel's six calls per cube cost no mispredictions."""
    if movement <= M_RIGHT:
        return (movement != repeated) & (top_of(data, src) != SHELTER)
    dst = TILTS[index(src), index(movement - M_TILT_N)]
    return (movement != repeated) & (dst >= 0) & (data[index(CUBE + max(dst, 0))] == EMPTY)


def _ray_tables():
    """``RAY_LEN[sq, d]``: how many squares of the board lie from ``sq`` in direction ``d`` (the length of
    ``RAYS[sq, d]`` before its -1s); ``RAY_BITS[sq, d]``: those squares as a bit board of two words (squares
    0..63, then 64..80); ``RAY_COORD[d, sq]``: the coordinate of ``sq`` along direction ``d`` (its file
    for east and west, its rank for the other directions), so that the squares between two squares of a
    ray are the difference of their coordinates, minus one."""
    lengths = (RAYS >= 0).sum(axis=2).astype(np.int64)
    bits = np.zeros((CELLS, 8, 2), dtype=np.uint64)
    for sq in range(CELLS):
        for d in range(8):
            for target in RAYS[sq, d][RAYS[sq, d] >= 0]:
                bits[sq, d, target // 64] |= np.uint64(1) << np.uint64(target % 64)
    coord = np.array([[sq % SIZE if DR[d] == 0 else sq // SIZE for sq in range(CELLS)] for d in range(8)])
    return lengths, bits, coord.astype(np.int64)


RAY_LEN, RAY_BITS, RAY_COORD = _ray_tables()
# A ray's eight bool mask entries as one word (byte n: the action n + 1 squares away, see store_bytes) when its
# first ``n`` entries are legal (the empty squares, then a capture): RAY_ENTRIES[n].
RAY_ENTRIES = np.array([int("01" * n or "0", 16) for n in range(SIZE)], dtype=np.uint64)


# Entries of a listed mask (:func:`legal_mask_listed`): the count, then at most every action of the
# squares of a seat's 10 cubes, and 7 more, written past the last legal action (see write_run).
LEGAL_LIST = 1 + (TEAMMATES + 1) * ACTIONS_PER_SQUARE + 7
# The mask kernels also write a packed mask (uint8, eight actions a byte) directly: the engine hands them its
# packed rows (boardgames.envs.compiled.render); PACKED_WORDS: their work words (packed_words).
WRITES_PACKED = True
PACKED_WORDS = packed_words(NUM_ACTIONS)


@njit(cache=True)
def legal_mask(data, seat, mask):
    """Write ``seat``'s legal actions (egocentric indices) into ``mask`` (bool, NUM_ACTIONS, or packed: uint8,
    eight actions a byte, see ``WRITES_PACKED``); none when ``seat`` does not act now (see :func:`_legal_mask`)."""
    _legal_mask(data, seat, mask, None)


@njit(cache=True)
def legal_mask_listed(data, seat, mask, listed):
    """:func:`legal_mask`, and the legal actions in increasing order into ``listed`` (``LEGAL_LIST``
    entries): ``listed[0]`` their count, ``listed[1:1 + count]`` the actions, for the batches' random
    draws (:func:`boardgames.envs.compiled.sampling.pick_listed`)."""
    _legal_mask(data, seat, mask, listed)


@njit(cache=True, inline="always")
def square_boards(data, seat):
    """Two bit boards of two words each (squares 0..63 in the first, 64..80 in the second), in one pass
    without branches: ``seat``'s cubes (the order the mask kernel visits them in: :func:`_legal_mask`) and
    the occupied squares (the rays' blockers: :func:`ray_reach`)."""
    own_low = own_high = occupied_low = occupied_high = np.uint64(0)
    for sq in range(64):
        code = data[CUBE + sq]
        own_low |= np.uint64((code >> SEAT_SHIFT) == seat) << np.uint64(sq)
        occupied_low |= np.uint64(code >= 0) << np.uint64(sq)
    for sq in range(64, CELLS):
        code = data[CUBE + sq]
        own_high |= np.uint64((code >> SEAT_SHIFT) == seat) << np.uint64(sq - 64)
        occupied_high |= np.uint64(code >= 0) << np.uint64(sq - 64)
    return own_low, own_high, occupied_low, occupied_high


@njit(cache=True, inline="always")
def _legal_mask(data, seat, mask, listed):
    """Write ``seat``'s legal actions (egocentric indices) into ``mask`` (bool, or packed: a packed one's bits
    are gathered in work words on the stack and stored at the end, see :mod:`boardgames.envs.compiled.packing`),
    and unless ``listed`` is None (numba compiles the tests away) their list; no action when ``seat`` does not
    act now. The cubes' loop (:func:`_own_cubes`) is written out twice, once per seat, so that the compiler
    knows the frame (``turned``) in each: the directions, tilts and bit scans it picks are then constants."""
    words = scratch(PACKED_WORDS, np.uint64)  # a packed mask's bits (unused for a bool mask)
    start_mask(mask, words)
    count = 0
    if data[OVER] == 0 and seat == data[TO_MOVE]:
        if seat == 1:
            count = _own_cubes(data, seat, True, mask, words, listed)
        else:
            count = _own_cubes(data, seat, False, mask, words, listed)
    finish_mask(mask, words)
    if listed is not None:
        listed[0] = count


@njit(cache=True, inline="always")
def _own_cubes(data, seat, turned, mask, words, listed):
    """The actions of ``seat``'s cubes (``turned``: Black, a constant where this is inlined), visited in
    ``seat``'s own frame, so the actions come in increasing order: White's squares from a1 up, Black's from
    i9 down (Black's square ``src`` is its ``80 - src``), taken from the bit board of :func:`square_boards`
    (lowest or highest set bit first) rather than found by a test per square; returns their count. Each
    cube's actions: :func:`_cube_actions`, which writes a bool ``mask`` itself and returns the cube's entries
    as bits for a packed one (:func:`or_bits`; it gets None for a packed ``mask``, and so no array more to
    count references to per cube)."""
    count = 0
    dense = bool_form(mask)
    low, high, occupied_low, occupied_high = square_boards(data, seat)
    for half in range(2):  # White: the low word, then the high one; Black: the reverse
        second = (half == 1) != turned
        word = high if second else low
        offset = 64 if second else 0
        while word != 0:
            bit = highest_bit(word) if turned else lowest_bit(word)
            word ^= np.uint64(1) << np.uint64(bit)
            src = offset + bit
            base = ((CELLS - 1 - src) if turned else src) * ACTIONS_PER_SQUARE  # the cube's first action
            count, rays, turns = _cube_actions(data, seat, src, base, turned, dense, listed, count, occupied_low,
                                               occupied_high)  # fmt: skip
            or_bits(mask, words, base, rays)
            or_bits(mask, words, base + K_LEFT, turns)
    return count


@njit(cache=True, inline="always")
def ray_reach(data, src, d, length, occupied_low, occupied_high, prey):
    """The displacements of the cube on ``src`` along direction ``d`` (board frame), at most ``length`` squares
    far, among the occupied squares of the bit board (``occupied_low``, ``occupied_high``): ``(free,
    capture)``, the empty squares before the first cube of the ray (or its end) and whether that cube may be
    captured (its code shifted by ``TOP_SHIFT`` is ``prey``: the enemy's seat and the weapon the mover's
    beats) and lies within ``length``. The first cube is the lowest set bit of the ray's blockers for the
    directions that go up the square indices (N, NE, E, NW), the highest for the others; no branch."""
    at, towards = index(src), index(d)  # unsigned indices: no wrap-around code (boardgames.envs.compiled.bits.index)
    low = occupied_low & RAY_BITS[at, towards, 0]
    high = occupied_high & RAY_BITS[at, towards, 1]
    if d <= 2 or d == 7:
        first = lowest_bit(low) if low != 0 else 64 + lowest_bit(high)  # 128 when the ray is clear
    else:
        first = 64 + highest_bit(high) if high != 0 else highest_bit(low)  # -1 when the ray is clear
    clear = (first < 0) | (first >= CELLS)
    blocker = src if clear else first  # a square of the board either way (src: never used)
    distance = abs(RAY_COORD[towards, index(blocker)] - RAY_COORD[towards, at])
    free = length if clear else min(length, distance - 1)
    capture = (not clear) & (distance <= length) & ((data[index(CUBE + blocker)] >> TOP_SHIFT) == prey)
    return free, capture


@njit(cache=True, inline="always")
def _cube_actions(data, seat, src, base, turned, dense, listed, count, occupied_low, occupied_high):
    """Set the legal actions of ``seat``'s cube on ``src`` (its first action ``base``) in the bool mask
    ``dense`` (unless None) and after entry ``count`` of ``listed`` (unless None); returns the new count and
    the cube's entries as bits: its 64 displacements (``rays``) and its six turns (``turns``). The one
    implementation of the legality of a displacement (A5, A6, 8-3, 8-5: none under shelter; along the lines
    of the top weapon; one square for a captain; never jumping; onto an empty square or an enemy cube the
    weapon beats); rotations and tilts: :func:`turn_legal`, their six entries written whether legal or not
    (the list's next entry too, kept only when legal: no branch).

    In ``seat``'s frame (``turned``: Black) a direction ``ed`` is the board's ``(ed + 4) % 8`` and a tilt
    ``t`` the board's ``(t + 2) % 4`` (:func:`mirror_action`); these are computed, not looked up in ``EGO``
    (a 90 KB table: its rows do not stay in the L1 cache). The directions of the top weapon (A5:
    :func:`weapon_moves_along`) are every one for rock, the even ones for paper and the odd ones for
    scissors (the same parity in both frames), and the enemy cube it beats (:func:`beats`) has the weapon
    ``(top + 2) % 3`` on top. A direction's legal displacements are the first ones of its eight actions
    (:func:`ray_reach`), so its eight bool mask entries are one word, its bits one byte of ``rays``, and its
    list entries a run of eight of which the legal ones are kept: no branch per square of the ray, whose
    outcome no predictor guesses. The rays are written out per weapon (:func:`_ray_actions`), each loop
    over constant directions, and with ``turned`` a constant (:func:`_legal_mask`) the compiler unrolls
    them and fixes each ray's board direction and bit scan: one branch per cube on its weapon instead of a
    loop whose length and directions it must guess. Same mask as the table-driven loop it replaced (kept
    in ``benchmarks/mask_ab.py``)."""
    code = data[index(CUBE + src)]
    top = (code >> TOP_SHIFT) & 3
    rays = np.uint64(0)
    if top != SHELTER:
        reach = 1 if ((code >> KIND_SHIFT) & 1) == CAPTAIN else SIZE - 1
        prey = ((1 - seat) << 2) | ((top + 2) % 3)  # an enemy cube showing the weapon top beats: code >> 5
        flip = 4 if turned else 0
        occupied = (occupied_low, occupied_high)
        # one loop per weapon, each over constant directions (A5: every one for rock, the even ones for
        # paper, the odd ones for scissors): unrolled, each ray's scan direction known to the compiler
        if top == ROCK:
            for ed in range(8):
                count, rays = _ray_actions(data, src, base, ed, flip, reach, prey, occupied, dense, listed, count, rays)
        elif top == PAPER:
            for ed in range(0, 8, 2):
                count, rays = _ray_actions(data, src, base, ed, flip, reach, prey, occupied, dense, listed, count, rays)
        else:
            for ed in range(1, 8, 2):
                count, rays = _ray_actions(data, src, base, ed, flip, reach, prey, occupied, dense, listed, count, rays)
    tilt_flip = 2 if turned else 0
    repeated = repeated_movement(data, seat, src)
    turns = np.uint64(0)
    for k in range(M_TILT_W + 1):
        movement = k if k <= M_RIGHT else M_TILT_N + ((k - M_TILT_N + tilt_flip) & 3)
        legal = turn_legal(data, src, movement, repeated)
        set_entry(dense, index(base + K_LEFT + k), legal)
        turns |= np.uint64(legal) << np.uint64(k)
        if listed is not None:
            listed[index(count + 1)] = base + K_LEFT + k  # within LEGAL_LIST: at most 699 actions before it
            count += legal
    return count, rays, turns


@njit(cache=True)
def _ray_actions(data, src, base, ed, flip, reach, prey, occupied, dense, listed, count, rays):
    """The displacements of the cube on ``src`` along its owner's direction ``ed``, the board's
    ``(ed + flip) % 8`` (``reach``, ``prey``: see :func:`_cube_actions`; ``occupied``: the two words of the
    occupied squares' bit board): its eight entries from ``base + 8 * ed`` in the bool mask ``dense`` (unless
    None) as one word (:func:`boardgames.envs.compiled.bits.store_bytes`), its list entries a run of eight
    after entry ``count`` of ``listed`` (unless None) of which the legal ones are kept (:func:`write_run`);
    returns the new count, and ``rays`` (the cube's entries as bits from ``base``) with the ray's in its byte
    ``ed``.

    Compiled on its own, not with ``inline="always"``: LLVM inlines it all the same, while numba's inlining
    of a function taking arrays, in the loops of :func:`_cube_actions` that are branches on the weapon,
    left reference-count updates (atomic calls) around each ray (354 against 302 ns a position)."""
    d = (ed + flip) & 7
    length = min(RAY_LEN[index(src), index(d)], reach)
    free, capture = ray_reach(data, src, d, length, occupied[0], occupied[1], prey)
    legal = free + capture  # the ray's first ``legal`` entries: its empty squares, then the capture if any
    at = base + ed * 8
    if dense is not None:
        store_bytes(dense, at, RAY_ENTRIES[index(legal)])
    if listed is not None:
        write_run(listed, count + 1, at)
        count += legal
    return count, rays | (((np.uint64(1) << np.uint64(legal)) - np.uint64(1)) << np.uint64(8 * ed))


@njit(cache=True)
def is_legal_abs(data, seat, abs_action):
    """Whether board-frame ``abs_action`` is legal for ``seat`` now (A4-A9): read from its
    :func:`legal_mask` (for notation and checks, not for the hot paths)."""
    if abs_action < 0 or abs_action >= NUM_ACTIONS:
        return False
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_mask(data, seat, mask)
    return mask[EGO[seat, abs_action]]


@njit(cache=True)
def has_legal_action(data, seat):
    """Whether ``seat`` would have a legal action with the move (A4)."""
    for src in range(CELLS):
        if owner_of(data, src) != seat:
            continue
        if top_of(data, src) != SHELTER:
            return True  # A9 forbids at most one rotation direction: the other one is legal
        for movement in range(M_TILT_N, M_TILT_W + 1):
            if can_turn(data, seat, src, movement):
                return True
    return False


# ----- playing ---------------------------------------------------------------------------------


@njit(cache=True)
def _end(data, winner, reason):
    data[OVER] = 1
    data[WINNER] = winner
    data[REASON] = reason


@njit(cache=True)
def apply_abs(data, abs_action):
    """Play the legal board-frame ``abs_action`` for the seat to move, then end the game (capture of
    the captain or the last teammate, A10; 30 quiet turns, A11; the next player stuck, A4; the turn
    limit) or hand over."""
    seat = data[TO_MOVE]
    other = 1 - seat
    src, dst, movement = decode(abs_action)
    won = END_NONE
    if movement < 0:  # displacement, with a capture when dst holds an enemy cube (A5)
        if owner_of(data, dst) == other:
            if kind_of(data, dst) == CAPTAIN:
                won = END_CAPTAIN
            elif count_pieces(data, other, TEAMMATE) == 1:
                won = END_TEAM
            if data[REP_SQ + other] == dst:  # the captured cube's A9 record goes with it
                data[REP_SQ + other] = -1
                data[REP_MOVE + other] = -1
                data[REP_COUNT + other] = 0
        data[CUBE + dst] = data[CUBE + src]
        clear_square(data, src)
        data[REP_SQ + seat] = -1
        data[REP_MOVE + seat] = -1
        data[REP_COUNT + seat] = 0
        data[QUIET] = 0
    else:  # rotation or tilt (A7, A8): the A9 record
        kind = kind_of(data, src)
        top, north, east = turn_cube(kind, top_of(data, src), north_of(data, src), east_of(data, src), movement)
        clear_square(data, src)
        put_cube(data, dst, seat, kind, top, north, east)
        if data[REP_SQ + seat] == src and data[REP_MOVE + seat] == movement:
            data[REP_COUNT + seat] += 1
        else:
            data[REP_COUNT + seat] = 1
        data[REP_SQ + seat] = dst
        data[REP_MOVE + seat] = movement
        data[QUIET] += 1
    data[LAST_FROM] = src
    data[LAST_TO] = dst
    data[TURN] += 1
    data[TO_MOVE] = other
    if won != END_NONE:
        _end(data, seat, won)
    elif data[QUIET] >= QUIET_DRAW:
        _end(data, -1, END_QUIET)
    elif not has_legal_action(data, other):
        _end(data, seat, END_STUCK)
    elif data[TURN] >= data[MAX_TURNS]:
        _end(data, -1, END_LIMIT)
        data[TRUNCATED] = 1


@njit(cache=True)
def apply_action(data, action):
    """Play the legal egocentric ``action`` of the seat to move (see :func:`apply_abs`)."""
    apply_abs(data, absolute_action(action, data[TO_MOVE]))


@njit(cache=True)
def returns(data, out):
    """+1 to the winner and -1 to the loser; 0 to both on a draw, truncation or running game."""
    two_player_returns(data[WINNER], out)
