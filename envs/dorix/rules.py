"""Dorix rules (Loic Lamy; sources 000/001 and rulings D1-D8) as numba kernels over one int array.

State layout (``data``, int32, length ``STATE_SIZE``):

=================  ==========================================================================
offset             content
=================  ==========================================================================
``STACKS``         16 * MAXH: pawn owners of each square, bottom (level 0) to top; -1 above it
``HEIGHTS``        16: stack heights
``HANDS``          4: pawns left in each seat's hand (unused seats 0)
``NUM_PLAYERS``    2, 3 or 4
``TO_MOVE``        seat to act (meaningless once the game is over)
``TURN``           turns played (a forced pass counts as a turn)
``MAX_TURNS``      turn limit (D8)
``PHASE``          PLAY, or COLLAPSE (the mover chooses where the next pawn falls)
``SOURCE``         square whose stack collapses (during COLLAPSE)
``LEFT``           pawns still to hand out (during COLLAPSE)
``TARGETS``        4 flags, N/E/S/W: lower neighbour still to receive a pawn (during COLLAPSE)
``OVER``           1 once the game is over
``WINNER``         winning side (team at 4 players, seat otherwise), -1 none
``TRUNCATED``      1 when the turn limit ended the game
``LAST_FROM``      origin square of the last move (-1: from the hand or none)
``LAST_TO``        destination of the last placement/move (-1 none)
=================  ==========================================================================

Squares: index = rank * 4 + file, a1 = 0, d4 = 15. Actions (``NUM_ACTIONS`` = 276):

* ``0..15``: place a pawn from the hand on square ``a``;
* ``16 + 16*f + t``: lift own top pawn from square f and put it on square t (t != f);
* ``272 + d``: during a collapse, the next pawn falls on the neighbour in direction d
  (0 north, 1 east, 2 south, 3 west).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardgames.envs.compiled.bits import index, lowest_bit, store_bytes
from boardgames.envs.compiled.cells import start_fields

SIZE = 4
SQUARES = 16
MAXH = 40  # never more pawns than 4 x 10 = 40 on the board
PAWNS_PER_PLAYER = (0, 0, 15, 12, 10)  # D2, indexed by player count: read it through pawns_per_player()

# The offsets of the state layout (see the module docstring), in its order.
STACKS = 0
HEIGHTS = STACKS + SQUARES * MAXH
HANDS = HEIGHTS + SQUARES
NUM_PLAYERS, TO_MOVE, TURN, MAX_TURNS, PHASE, SOURCE, LEFT, TARGETS = range(HANDS + 4, HANDS + 12)
OVER, WINNER, TRUNCATED, LAST_FROM, LAST_TO = range(TARGETS + 4, TARGETS + 9)
STATE_SIZE = LAST_TO + 1

PLAY, COLLAPSE = 0, 1  # PHASE values

PLACE = 0
MOVE = 16
FALL = MOVE + SQUARES * SQUARES
NUM_ACTIONS = FALL + 4

# Neighbour of each square in each direction (N, E, S, W), -1 off the board.
_NEIGHBOURS = np.full((SQUARES, 4), -1, dtype=np.int64)
for _sq in range(SQUARES):
    _r, _f = divmod(_sq, SIZE)
    for _d, (_dr, _df) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1))):
        if 0 <= _r + _dr < SIZE and 0 <= _f + _df < SIZE:
            _NEIGHBOURS[_sq, _d] = (_r + _dr) * SIZE + _f + _df
NEIGHBOURS = _NEIGHBOURS
DIAGONALS = np.array([[0, 5, 10, 15], [12, 9, 6, 3]], dtype=np.int64)  # a1-d4 and a4-d1 (D1)


@njit(cache=True)
def pawns_per_player(num_players):
    """D2: each player's pawns (15 at 2 players, 12 at 3, 10 at 4)."""
    return PAWNS_PER_PLAYER[num_players]


@njit(cache=True)
def init_state(data, num_players, max_turns):
    """Write the start position: empty board, full hands, seat 0 to play."""
    data[:] = 0
    data[STACKS:HEIGHTS] = -1
    pawns = pawns_per_player(num_players)
    for s in range(num_players):
        data[HANDS + s] = pawns
    data[NUM_PLAYERS] = num_players
    data[PHASE] = PLAY
    start_fields(data, MAX_TURNS, max_turns, (WINNER, LAST_FROM, LAST_TO))


@njit(cache=True)
def is_over(data):
    """True once the game has ended (won, drawn or truncated)."""
    return data[OVER] == 1


@njit(cache=True)
def top(data, sq):
    """Owner of the top pawn of square ``sq``, -1 when empty."""
    h = data[HEIGHTS + sq]
    if h == 0:
        return -1
    return data[STACKS + sq * MAXH + h - 1]


@njit(cache=True)
def side_of(data, seat):
    """The side a seat plays for: its team at 4 players (D2: seats 0+2 and 1+3), itself otherwise."""
    if data[NUM_PLAYERS] == 4:
        return seat % 2
    return seat


# _BYTES[b]: the eight bits of the byte b spread into the eight bytes of a word (byte j: bit j of b), eight
# mask entries written at once (store_bytes) from eight bits of a bit board.
_BYTES = np.array([sum(((b >> j) & 1) << (8 * j) for j in range(8)) for b in range(256)], dtype=np.uint64)


@njit(cache=True, inline="always")
def _store_squares(mask, at, squares):
    """Entries ``at .. at + 15`` of ``mask``: bit ``sq`` of the 16-square bit board ``squares`` each."""
    store_bytes(mask, at, _BYTES[index(squares & 0xFF)])
    store_bytes(mask, at + 8, _BYTES[index((squares >> 8) & 0xFF)])


@njit(cache=True)
def legal_mask(data, seat, mask):
    """Write the legal actions of ``seat`` into ``mask`` (bool, NUM_ACTIONS); all False if it does not act.
    A placement (D3) or a move's destination (D4) is an empty square or one that ``seat`` tops (a move's
    lift changes only the top of its origin, which is never its destination), read as bit boards in one
    pass over the squares without branches; each origin's sixteen destinations are written as two words."""
    mask[:] = False
    if data[OVER] == 1 or seat != data[TO_MOVE]:
        return
    if data[PHASE] == COLLAPSE:
        for d in range(4):
            mask[FALL + d] = data[TARGETS + d] == 1
        return
    own = 0
    free = 0
    for sq in range(SQUARES):  # the top pawn's owner; an empty square's level 0 holds -1, "nobody"
        t = data[index(STACKS + sq * MAXH + max(data[index(HEIGHTS + sq)] - 1, 0))]
        own |= np.int64(t == seat) << sq
        free |= np.int64(t == -1) << sq
    if data[HANDS + seat] > 0:  # D3: empty square or own stack, never a partner's or an opponent's
        _store_squares(mask, PLACE, own | free)
        return
    origins = own  # D4: lift an own top pawn, put it on an empty or (after the lift) own stack
    while origins != 0:
        f = lowest_bit(origins)
        origins ^= np.int64(1) << f
        _store_squares(mask, MOVE + f * SQUARES, (own | free) & ~(np.int64(1) << f))


@njit(cache=True)
def has_legal_action(data, seat):
    """True when ``seat`` could play a placement or a move now (in PLAY phase); used for D5 passes.
    A player with pawns in hand but no empty or own square passes too (see the rules page)."""
    own = 0
    free = 0
    for sq in range(SQUARES):
        t = top(data, sq)
        if t == -1:
            free += 1
        elif t == seat:
            own += 1
    if data[HANDS + seat] > 0:
        return free + own > 0
    # an own top pawn and somewhere else to put it: an empty square or a second own stack
    return own > 0 and (free > 0 or own > 1)


@njit(cache=True)
def _push(data, sq, owner):
    h = data[HEIGHTS + sq]
    data[STACKS + sq * MAXH + h] = owner
    data[HEIGHTS + sq] = h + 1


@njit(cache=True)
def _pop(data, sq):
    h = data[HEIGHTS + sq] - 1
    owner = data[STACKS + sq * MAXH + h]
    data[STACKS + sq * MAXH + h] = -1
    data[HEIGHTS + sq] = h
    return owner


@njit(cache=True)
def _start_collapse(data, sq):
    """D6: after a pawn is put on a non-empty stack, mark the lower neighbours that will receive."""
    h = data[HEIGHTS + sq]
    n = 0
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        flag = 0
        if nb >= 0:
            hn = data[HEIGHTS + nb]
            if 0 < hn < h:  # empty squares never receive
                flag = 1
                n += 1
        data[TARGETS + d] = flag
    if n == 0:
        return
    data[SOURCE] = sq
    data[LEFT] = min(h, n)
    data[PHASE] = COLLAPSE


@njit(cache=True)
def _fall(data, d):
    """Move the top pawn of the collapsing stack onto its neighbour in direction ``d``."""
    src = data[SOURCE]
    _push(data, NEIGHBOURS[src, d], _pop(data, src))
    data[TARGETS + d] = 0
    data[LEFT] -= 1


@njit(cache=True)
def _collapse_choice_matters(data):
    """True when the mover has a real choice for the rest of the collapse: more than one target
    left and either fewer pawns than targets, or pawns of different colours still to fall."""
    targets = 0
    for d in range(4):
        targets += data[TARGETS + d]
    left = data[LEFT]
    if left == 0 or targets <= 1:
        return False
    if left < targets:
        return True
    src = data[SOURCE]
    h = data[HEIGHTS + src]
    first = data[STACKS + src * MAXH + h - 1]
    for i in range(1, left):
        if data[STACKS + src * MAXH + h - 1 - i] != first:
            return True
    return False


@njit(cache=True)
def _settle_collapse(data):
    """Play the collapse steps that leave no real choice; stop where the mover must decide."""
    while data[PHASE] == COLLAPSE:
        if data[LEFT] == 0:
            data[PHASE] = PLAY
            break
        if _collapse_choice_matters(data):
            return
        for d in range(4):  # one target left, or all remaining pawns identical: order is irrelevant
            if data[TARGETS + d] == 1:
                _fall(data, d)
                break
    for d in range(4):
        data[TARGETS + d] = 0
    data[SOURCE] = 0


@njit(cache=True)
def diagonal_winner(data):
    """D7: the single side controlling a long diagonal, or -1 (none, or two sides each holding one)."""
    winner = -1
    for k in range(2):
        side = -1
        for i in range(4):
            t = top(data, DIAGONALS[k, i])
            if t == -1:
                side = -1
                break
            s = side_of(data, t)
            if i == 0:
                side = s
            elif s != side:
                side = -1
                break
        if side >= 0:
            if winner == -1:
                winner = side
            elif winner != side:
                return -1
    return winner


@njit(cache=True)
def _end_turn(data):
    """Check the diagonals, count the turn, then hand over to the next seat able to act (D5: the
    others pass, each pass being a turn), ending the game at the turn limit (D8)."""
    data[TURN] += 1
    w = diagonal_winner(data)
    if w >= 0:
        data[WINNER] = w
        data[OVER] = 1
        return
    n = data[NUM_PLAYERS]
    passes = 0
    while True:
        if data[TURN] >= data[MAX_TURNS]:
            data[TRUNCATED] = 1
            data[OVER] = 1
            return
        data[TO_MOVE] = (data[TO_MOVE] + 1) % n
        if has_legal_action(data, data[TO_MOVE]):
            return
        data[TURN] += 1  # D5: this seat passes; the pass is a turn
        passes += 1
        if passes > n:  # nobody can act (cannot happen under these rules): end as a draw
            data[OVER] = 1
            return


@njit(cache=True)
def apply_action(data, action):
    """Play a legal ``action`` for the seat to move, then resolve collapse, win and next seat."""
    seat = data[TO_MOVE]
    if action >= FALL:
        _fall(data, action - FALL)
    else:
        if action < MOVE:
            dest = action - PLACE
            data[HANDS + seat] -= 1
            data[LAST_FROM] = -1
        else:
            src = (action - MOVE) // SQUARES
            dest = (action - MOVE) % SQUARES
            _pop(data, src)
            data[LAST_FROM] = src
        data[LAST_TO] = dest
        was_empty = data[HEIGHTS + dest] == 0
        _push(data, dest, seat)
        if not was_empty:
            _start_collapse(data, dest)
    _settle_collapse(data)
    if data[PHASE] == PLAY:
        _end_turn(data)


@njit(cache=True)
def returns(data, out):
    """+1 to each seat of the winning side, -1 to the others; 0 to all on a draw or unfinished game."""
    n = data[NUM_PLAYERS]
    w = data[WINNER]
    for s in range(n):
        if w < 0:
            out[s] = 0.0
        elif side_of(data, s) == w:
            out[s] = 1.0
        else:
            out[s] = -1.0
