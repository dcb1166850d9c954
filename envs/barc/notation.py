"""Barc duel notation: positions and orders as text, written and read.

Position notation (one line, space-separated; see docs/rules/barc.md)::

    barc <board> turn=<n> [limit=<n>] [last=<order0>,<order1>] [over=win:<seat>|draw|limit]

``<board>`` lists ranks 6 to 1 separated by ``/``; each rank has 6 cells separated by ``.``; a cell
is ``-`` when empty, else the stack's pawns from the bottom up, ``0`` for a pawn of player_0
(South) and ``1`` for a pawn of player_1 (North): ``01`` is a South pawn covered by a North pawn
(North owns it). The start position is::

    barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0

``last=`` gives the orders of last turn, player_0's first; ``limit=`` is written only when it differs
from the game's ``max_turns``. An order is written with absolute square names from its origin to its
destination, ``b1-d3``, or ``stay``; the same text means the same move for either player (the action
index behind it is egocentric, see :mod:`boardgames.envs.barc.rules`).
"""

from __future__ import annotations

import re

import numpy as np

from boardgames.envs.barc import rules as R
from boardgames.envs.core import squares
from boardgames.envs.core.errors import IllegalActionError, NotationError

SQ = squares.BoardSquares(R.SIZE)
SEAT_NAMES = ("player_0", "player_1")
SIDE_NAMES = ("South", "North")
STAY_TEXT = "stay"


def who(seat: int) -> str:
    """``seat`` named in messages: ``player_0 (South)``."""
    return f"{SEAT_NAMES[seat]} ({SIDE_NAMES[seat]})"


# ----- orders -------------------------------------------------------------------------------------


def order_text(seat: int, action: int) -> str:
    """The text of ``seat``'s order ``action`` (egocentric): ``b1-d3`` (absolute squares) or ``stay``."""
    if action == R.STAY:
        return STAY_TEXT
    o, d, k = R.decode(seat, action)
    t = R.target(o, d, k)
    if t < 0:
        return f"{SQ.name(o)}-off({R.DIR_NAMES[d]}{k})"  # only for an action index that leaves the board
    return f"{SQ.name(o)}-{SQ.name(t)}"


_ORDER = re.compile(r"^([a-z][0-9]+)\s*-\s*([a-z][0-9]+)$")


def parse_order(t: str) -> tuple:
    """``"b1-d3"`` -> (origin, absolute direction, distance); IllegalActionError when malformed."""
    m = _ORDER.match(t)
    if not m:
        raise IllegalActionError(f"cannot read order {t!r}: write origin-destination like 'b1-d3', or 'stay'")
    try:
        origin, dest = SQ.parse(m.group(1)), SQ.parse(m.group(2))
    except NotationError as e:
        raise IllegalActionError(f"cannot read order {t!r}: {e}") from None
    dr = dest // R.SIZE - origin // R.SIZE
    df = dest % R.SIZE - origin % R.SIZE
    if dr == 0 and df == 0:
        raise IllegalActionError(f"order {t!r} goes nowhere (to stay put, write 'stay')")
    if dr != 0 and df != 0 and abs(dr) != abs(df):
        raise IllegalActionError(f"order {t!r} is not a straight line (row, column or diagonal)")
    distance = max(abs(dr), abs(df))
    step = ((dr > 0) - (dr < 0), (df > 0) - (df < 0))
    direction = [(int(R.DIR_DR[k]), int(R.DIR_DF[k])) for k in range(R.NUM_DIRS)].index(step)
    return origin, direction, distance


def why_illegal(data: np.ndarray, origin: int, direction: int, distance: int) -> str:
    """A sentence saying why the well-formed order from ``origin`` (``distance`` squares in absolute
    ``direction``) of the mover who tops it is not legal in the position ``data``."""
    height = int(data[R.HEIGHT + origin])
    if distance > height:
        pawns = "1 pawn" if height == 1 else f"{height} pawns"
        return f"the stack on {SQ.name(origin)} has {pawns}, so it moves at most {height} square(s)"
    for step in range(1, distance):
        sq = int(R.target(origin, direction, step))
        if data[R.HEIGHT + sq]:
            return f"{SQ.name(sq)} is in the way (the squares passed over must be empty)"
    dst = int(R.target(origin, direction, distance))
    return f"{SQ.name(dst)} is topped by the mover's own colour"


# ----- positions ----------------------------------------------------------------------------------


def write_position(state) -> str:
    """The notation of a :class:`boardgames.envs.barc.game.BarcState` (what ``state.to_text()`` returns)."""
    d = state.data
    parts = ["barc", SQ.write_stacks(state.stack), f"turn={int(d[R.TURN])}"]
    if int(d[R.MAX_TURNS]) != state.game.max_turns:
        parts.append(f"limit={int(d[R.MAX_TURNS])}")
    if d[R.LAST_ORDER] >= 0:
        parts.append("last=" + ",".join(state.last_orders()))
    if d[R.OVER]:
        parts.append(state.over_field())
    return " ".join(parts)


_FIELDS = ("turn", "limit", "last", "over")


def _parse_board(data: np.ndarray, board: str) -> None:
    for sq, cell in SQ.stack_cells(board):
        if not cell or any(ch not in "01" for ch in cell):
            raise NotationError(
                f"{SQ.name(sq)}: {cell!r} is not a cell ('-' empty, else the pawns from the bottom up: "
                "0 = player_0, 1 = player_1)"
            )
        if len(cell) > R.MAX_HEIGHT:
            raise NotationError(f"{SQ.name(sq)}: a stack of {len(cell)} pawns (there are {R.MAX_HEIGHT} in all)")
        bits = 0
        for i_pawn, ch in enumerate(cell):
            bits |= int(ch) << i_pawn
        data[R.HEIGHT + sq] = len(cell)
        data[R.COLOURS + sq] = bits


def _parse_last(state, value: str) -> None:
    parts = value.split(",")
    if len(parts) != 2:
        raise NotationError(f"last= gives both orders, player_0's first, like last=b1-c2,stay; got {value!r}")
    for s, part in enumerate(parts):
        t = part.strip().lower()
        if t == STAY_TEXT:
            action = R.STAY
        else:
            try:
                origin, direction, distance = parse_order(t)
            except IllegalActionError as e:
                raise NotationError(f"last= order of player_{s}: {e}") from None
            action = int(R.encode(s, origin, direction, distance))
        state.data[R.LAST_ORDER + s] = action
    t0, t1 = (int(R.order_target(s, int(state.data[R.LAST_ORDER + s]))) for s in range(2))
    state.data[R.LAST_CANCELLED] = int(t0 >= 0 and t0 == t1)
    for s, part in enumerate(parts):
        _check_last_order(state.data, s, part.strip(), (t0, t1))


def _check_last_order(data: np.ndarray, seat: int, text: str, targets: tuple) -> None:
    """NotationError unless ``seat``'s last order (``text``, already in ``data``) fits the board it left.

    The orders were legal (an impossible one is played as ``stay``, B2), and the turn resolved them
    (B3): when both named the same destination nobody moved, so the board is the one they were given
    on: each order is still legal and its destination is empty (neither seat tops it). Otherwise both
    stacks were lifted, then each put down on its own destination, so after the turn the mover tops its
    destination, with at least as many pawns there as the squares travelled (a stack travels at most
    its height); the squares passed over are empty (they had to be, and only the other stack can
    have landed there since), and so is the origin unless the other stack landed on it. ``stay``
    implies nothing. (Whether the position before the turn was itself reachable is not checked.)"""
    action = int(data[R.LAST_ORDER + seat])
    if action == R.STAY:
        return
    origin, direction, distance = (int(v) for v in R.decode(seat, action))
    dest, other = targets[seat], targets[1 - seat]
    who = f"last= order of player_{seat} ({text})"
    if dest == other:
        if data[R.HEIGHT + dest]:
            raise NotationError(f"{who}: both orders named {SQ.name(dest)}, so nobody moved, but it is not empty (B3)")
        if not R.is_legal_order(data, seat, action):
            raise NotationError(f"{who}: both orders named {SQ.name(dest)}, so nobody moved, but it is not legal here")
        return
    if R.top(data, dest) != seat:
        raise NotationError(f"{who}: {SQ.name(dest)} is not topped by player_{seat}'s pawn after the turn (B3)")
    if data[R.HEIGHT + dest] < distance:
        raise NotationError(f"{who}: a stack travels at most its height, and {SQ.name(dest)} holds fewer pawns (B2)")
    for step in range(1, distance):
        sq = int(R.target(origin, direction, step))
        if data[R.HEIGHT + sq] and sq != other:
            raise NotationError(f"{who}: {SQ.name(sq)}, passed over, is not empty (B2)")
    if data[R.HEIGHT + origin] and origin != other:
        raise NotationError(f"{who}: the stack left {SQ.name(origin)}, which is not empty (B3)")


def parse_position(game, text: str):
    """The :class:`boardgames.envs.barc.game.BarcState` of ``game`` (a BarcGame) written ``text``;
    :class:`NotationError` naming the problem when it is malformed or impossible."""
    board, fields = squares.split_position(text, "a Barc", "board", _FIELDS, ("turn",))
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.init_state(data, game.start_index, game.max_turns)
    data[R.HEIGHT : R.HEIGHT + 2 * R.CELLS] = 0
    _parse_board(data, board)
    state = game.state_class(game, data)
    for s in range(2):
        pawns = sum(state.stack(sq).count(s) for sq in range(R.CELLS))
        if pawns != R.PAWNS:
            raise NotationError(f"player_{s} has {pawns} pawns on the board; each player has {R.PAWNS}, always")
    turn, limit = squares.parse_turn(fields, game.max_turns)
    data[R.TURN], data[R.MAX_TURNS] = turn, limit
    if "last" in fields:
        if data[R.TURN] == 0:
            raise NotationError("last= at turn=0: no order has been given yet")
        _parse_last(state, fields["last"])
    victory = [bool(R.victory(data, s)) for s in range(2)]
    seen = (
        "both players reach victory (a draw)"
        if all(victory)
        else (f"player_{victory.index(True)} reaches victory" if any(victory) else "nobody reaches victory")
    )
    over = fields.get("over")
    if over is None:
        if any(victory):
            raise NotationError(f"{seen} on this board: the game is over (add an over= field)")
        squares.check_running_turn(turn, limit)
        return state
    data[R.OVER] = 1
    if over == "limit":
        if any(victory):
            raise NotationError(f"over=limit, but {seen} on this board")
        squares.check_limit_ending(turn, limit)
        data[R.TRUNCATED] = 1
    elif over == "draw":
        if not all(victory):
            raise NotationError(f"over=draw, but {seen} on this board")
    elif over.startswith("win:"):
        w = squares.parse_int(over[4:], "winning seat", 0, 1)
        if victory != [w == 0, w == 1]:
            raise NotationError(f"over={over}, but {seen} on this board")
        data[R.WINNER] = w
    else:
        raise NotationError(f"over= is win:<seat>, draw or limit, got {over!r}")
    return state
