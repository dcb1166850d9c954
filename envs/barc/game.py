"""Barc duel behind the shared Game/State interface: options, notation and order names.

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

import dataclasses
import re

import numpy as np

from boardgames.envs.barc import observe as O
from boardgames.envs.barc import rules as R
from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import check_move_text, is_integer
from boardgames.envs.core.kernel_state import KernelState, TwoPlayerBoardGame
from boardgames.envs.core.squares import (
    BoardSquares,
    check_limit_ending,
    check_running_turn,
    parse_int,
    parse_turn,
    split_position,
)

DEFAULT_MAX_TURNS = R.DEFAULT_MAX_TURNS
SQ = BoardSquares(R.SIZE)
SEAT_NAMES = ("player_0", "player_1")
SIDE_NAMES = ("South", "North")
STAY_TEXT = "stay"


def _who(seat: int) -> str:
    return f"{SEAT_NAMES[seat]} ({SIDE_NAMES[seat]})"


class BarcState(KernelState, rules=R, encoder=O):
    """A Barc duel position (see :mod:`boardgames.envs.barc.rules` for the array layout)."""

    __slots__ = ()

    # board access -----------------------------------------------------------------------------
    def stack(self, square: int | str) -> tuple:
        """The pawns on ``square`` (index or name) from the bottom up, as seats: ``(0, 1)`` is a South
        pawn covered by a North pawn; ``()`` when empty."""
        sq = SQ.index(square)
        h = int(self.data[R.HEIGHT + sq])
        c = int(self.data[R.COLOURS + sq])
        return tuple((c >> i) & 1 for i in range(h))

    def owner(self, square: int | str) -> int:
        """Seat whose pawn tops ``square`` (B4), -1 when empty."""
        sq = SQ.index(square)
        return int(R.top(self.data, sq))

    def stacks_of(self, seat: int) -> int:
        """How many stacks ``seat`` tops."""
        return int(R.stacks_of(self.data, int(seat)))

    def aligned(self, seat: int) -> bool:
        """True when ``seat`` tops 3 neighbouring squares in a row, column or diagonal (B5)."""
        return bool(R.aligned(self.data, int(seat)))

    def last_orders(self) -> tuple:
        """Last turn's orders in notation, player_0's first (``None`` each before the first turn)."""
        return tuple(
            None if self.data[R.LAST_ORDER + s] < 0 else _order_text(s, int(self.data[R.LAST_ORDER + s]))
            for s in range(2)
        )

    @property
    def last_cancelled(self) -> bool:
        """True when last turn's two orders named the same destination, so nobody moved (B3)."""
        return bool(self.data[R.LAST_CANCELLED])

    # notation ---------------------------------------------------------------------------------
    def action_to_text(self, action: int, seat: int | None = None) -> str:
        """``b1-d3`` (absolute squares) or ``stay``. ``seat`` says whose order ``action`` is (action
        indices are egocentric); by default the seat that tops the origin it names for that seat,
        player_0 when that does not decide."""
        a = self._action_index(action)
        if seat is None:
            seat = 0
            if a != R.STAY:
                tops = [s for s in range(2) if R.top(self.data, R.decode(s, a)[0]) == s]
                if len(tops) == 1:
                    seat = tops[0]
        return _order_text(_check_seat(seat), a)

    def text_to_action(self, text: str, seat: int | None = None) -> int:
        """The action of the order written ``text`` (``b1-d3`` or ``stay``) for ``seat`` (by default
        the owner of the origin square; player_0 for ``stay``). Raises IllegalActionError naming the
        problem when the text is malformed or the order is not legal here."""
        check_move_text(text, "'b1-d3' or 'stay'", "an order")
        if seat is not None:
            seat = _check_seat(seat)
        if self.is_terminal():
            raise IllegalActionError("the game is over: no order can be given")
        t = text.strip().lower()
        if t == STAY_TEXT:
            return R.STAY
        origin, direction, distance = _parse_order(t)
        owner = self.owner(origin)
        if owner < 0:
            raise IllegalActionError(f"order {text!r}: there is no stack on {SQ.name(origin)}")
        if seat is None:
            seat = owner
        elif owner != seat:
            raise IllegalActionError(
                f"order {text!r}: the stack on {SQ.name(origin)} is topped by {_who(owner)}, "
                f"so {_who(seat)} cannot move it"
            )
        action = int(R.encode(seat, origin, direction, distance))
        if not R.is_legal_order(self.data, seat, action):
            raise IllegalActionError(f"order {text!r} is illegal: {self._why_illegal(origin, direction, distance)}")
        return action

    def _why_illegal(self, origin: int, direction: int, distance: int) -> str:
        height = int(self.data[R.HEIGHT + origin])
        if distance > height:
            pawns = "1 pawn" if height == 1 else f"{height} pawns"
            return f"the stack on {SQ.name(origin)} has {pawns}, so it moves at most {height} square(s)"
        for step in range(1, distance):
            sq = int(R.target(origin, direction, step))
            if self.data[R.HEIGHT + sq]:
                return f"{SQ.name(sq)} is in the way (the squares passed over must be empty)"
        dst = int(R.target(origin, direction, distance))
        return f"{SQ.name(dst)} is topped by the mover's own colour"

    def _check_legal(self, seat: int, action) -> None:
        """As the shared check, with the order written for the right seat in the message."""
        well_formed = is_integer(action)
        if self.is_terminal() or not well_formed or not 0 <= action < R.NUM_ACTIONS:
            super()._check_legal(seat, action)  # raises the shared message
            return
        if not R.is_legal_order(self.data, int(seat), int(action)):
            raise IllegalActionError(
                f"action {int(action)} ({_order_text(seat, int(action))}) is illegal for {_who(seat)} in "
                f"position {self.to_text()!r}"
            )

    # checks -----------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        d = self.data
        counts = [0, 0]
        owners = [int(R.top(d, sq)) for sq in range(R.CELLS)]
        for sq in range(R.CELLS):
            h = int(d[R.HEIGHT + sq])
            c = int(d[R.COLOURS + sq])
            assert 0 <= h <= R.MAX_HEIGHT, f"{SQ.name(sq)} has height {h}"
            assert c >= 0 and c >> h == 0, f"{SQ.name(sq)}: colour bits {c:b} above its height {h}"
            north = c.bit_count()  # bit i set: the i-th pawn from the bottom is North's (seat 1)
            counts[1] += north
            counts[0] += h - north
            expected_owner = (c >> (h - 1)) & 1 if h else -1
            assert owners[sq] == expected_owner, f"{SQ.name(sq)}: owner is not the top pawn's colour"
        assert counts == [R.PAWNS, R.PAWNS], f"pawns on the board per seat {counts}, not 6 each (12 in all)"
        tops = [owners.count(s) for s in range(2)]
        assert tops == [self.stacks_of(0), self.stacks_of(1)], "stack counts disagree"
        for s in range(2):
            a = int(d[R.LAST_ORDER + s])
            assert -1 <= a < R.NUM_ACTIONS, f"last order of seat {s} is {a}"
            assert a == -1 or a == R.STAY or R.order_target(s, a) >= 0, f"last order of seat {s} leaves the board"
        assert (d[R.LAST_ORDER] < 0) == (d[R.LAST_ORDER + 1] < 0), "only one seat has a last order"
        t0, t1 = (int(R.order_target(s, int(d[R.LAST_ORDER + s]))) for s in range(2))
        assert bool(d[R.LAST_CANCELLED]) == (t0 >= 0 and t0 == t1), "LAST_CANCELLED disagrees with the orders"
        victory = [bool(R.victory(d, s)) for s in range(2)]
        if not self.is_terminal():
            assert not any(victory), "a running game where a player has reached victory"
            assert d[R.WINNER] == -1 and d[R.TRUNCATED] == 0, "a running game has a result"
            assert d[R.TURN] < d[R.MAX_TURNS], "a running game at the turn limit"
            for s in range(2):
                assert self.legal_mask(s)[R.STAY], f"seat {s} cannot stay"
                assert min(tops) > R.OUT_LIMIT, "a running game where a player is out"
        elif d[R.TRUNCATED]:
            assert not any(victory) and d[R.WINNER] == -1, "a truncated game with a result"
            assert d[R.TURN] >= d[R.MAX_TURNS], "truncated before the turn limit"
        else:
            expected = 0 if victory == [True, False] else 1 if victory == [False, True] else -1
            assert any(victory), "the game is over with nobody at victory"
            assert d[R.WINNER] == expected, f"winner {int(d[R.WINNER])} but victory is {victory}"


def _check_seat(seat) -> int:
    if not is_integer(seat) or not 0 <= seat <= 1:
        raise IllegalActionError(f"seat must be 0 or 1, got {seat!r}")
    return int(seat)


def _order_text(seat: int, action: int) -> str:
    if action == R.STAY:
        return STAY_TEXT
    o, d, k = R.decode(seat, action)
    t = R.target(o, d, k)
    if t < 0:
        return f"{SQ.name(o)}-off({R.DIR_NAMES[d]}{k})"  # only for an action index that leaves the board
    return f"{SQ.name(o)}-{SQ.name(t)}"


_ORDER = re.compile(r"^([a-z][0-9]+)\s*-\s*([a-z][0-9]+)$")


def _parse_order(t: str) -> tuple:
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


# ----- position notation ------------------------------------------------------------------------


def _write_position(state: BarcState) -> str:
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


def _parse_last(state: BarcState, value: str) -> None:
    parts = value.split(",")
    if len(parts) != 2:
        raise NotationError(f"last= gives both orders, player_0's first, like last=b1-c2,stay; got {value!r}")
    for s, part in enumerate(parts):
        t = part.strip().lower()
        if t == STAY_TEXT:
            action = R.STAY
        else:
            try:
                origin, direction, distance = _parse_order(t)
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


def _parse_position(game: BarcGame, text: str) -> BarcState:
    board, fields = split_position(text, "a Barc", "board", _FIELDS, ("turn",))
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.init_state(data, game.start_index, game.max_turns)
    data[R.HEIGHT : R.HEIGHT + 2 * R.CELLS] = 0
    _parse_board(data, board)
    state = BarcState(game, data)
    for s in range(2):
        pawns = sum(state.stack(sq).count(s) for sq in range(R.CELLS))
        if pawns != R.PAWNS:
            raise NotationError(f"player_{s} has {pawns} pawns on the board; each player has {R.PAWNS}, always")
    turn, limit = parse_turn(fields, game.max_turns)
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
        check_running_turn(turn, limit)
        return state
    data[R.OVER] = 1
    if over == "limit":
        if any(victory):
            raise NotationError(f"over=limit, but {seen} on this board")
        check_limit_ending(turn, limit)
        data[R.TRUNCATED] = 1
    elif over == "draw":
        if not all(victory):
            raise NotationError(f"over=draw, but {seen} on this board")
    elif over.startswith("win:"):
        w = parse_int(over[4:], "winning seat", 0, 1)
        if victory != [w == 0, w == 1]:
            raise NotationError(f"over={over}, but {seen} on this board")
        data[R.WINNER] = w
    else:
        raise NotationError(f"over= is win:<seat>, draw or limit, got {over!r}")
    return state


START_NAMES = R.START_NAMES
DEFAULT_START = START_NAMES[R.DEFAULT_START]
START_DESCRIPTIONS = {
    "alternating": "both back ranks alternate the colours: South on a1, c1, e1, a6, c6, e6; North on b1, d1, f1, "
    "b6, d6, f6 (ruling B1, revised; barc_v1's default)",
    "corners": "South on a1, b1, a2, e1, f1, f2; North on the half-turn image (the first ruling, barc_v0: each "
    "side can force victory on turn 2)",
    "edges": "South on a1, f1, a3, f3, b6, e6; North on the half-turn image (f6, a6, f4, a4, e1, b1)",
}


def check_start(start) -> str:
    """The ``start`` option as a start name; GameOptionError naming the starts unless it is one."""
    if not isinstance(start, str) or start not in START_NAMES:
        raise GameOptionError(f"start must be one of {', '.join(map(repr, START_NAMES))}, got {start!r}")
    return start


def env_version(start: str) -> int:
    """The environment version whose dynamics a game from ``start`` has: 0 for the corners start (barc_v0),
    1 for the others (barc_v1, whose default is the alternating start)."""
    return 0 if start == "corners" else 1


class BarcGame(TwoPlayerBoardGame):
    """Barc duel for two players on the 6x6 board, both ordering at once, from one of the named starts
    (``start``, B1: :data:`START_DESCRIPTIONS`) with a turn limit (B6)."""

    name = "barc"
    info_extra = {"simultaneous": True, "seat_names": SEAT_NAMES}
    state_class = BarcState
    parse_position = _parse_position
    write_position = staticmethod(_write_position)

    def __init__(self, max_turns: int | None = None, start: str = DEFAULT_START):
        self.start = check_start(start)
        self.start_index = START_NAMES.index(self.start)
        super().__init__(max_turns)
        self.info = dataclasses.replace(self.info, options={"start": self.start, "max_turns": self.max_turns})

    @property
    def version(self) -> int:
        """The environment version of this game's dynamics (see :func:`env_version`)."""
        return env_version(self.start)

    def init_args(self) -> tuple:
        return (self.start_index, self.max_turns)
