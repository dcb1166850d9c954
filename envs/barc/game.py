"""Barc duel behind the shared Game/State interface: the Game (options and starts) and the State
(board access, order names, invariants), wired to the game's modules: rules kernels
(:mod:`~boardgames.envs.barc.rules`), observations (:mod:`~boardgames.envs.barc.observe`), notation
(:mod:`~boardgames.envs.barc.notation`), pictures (:mod:`~boardgames.envs.barc.render`) and the greedy
agent's score (:mod:`~boardgames.envs.barc.heuristic`).
"""

from __future__ import annotations

import dataclasses

from boardgames.envs.barc import notation as N
from boardgames.envs.barc import observe as O
from boardgames.envs.barc import render
from boardgames.envs.barc import rules as R
from boardgames.envs.barc.heuristic import heuristic
from boardgames.envs.barc.notation import SEAT_NAMES, SQ
from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.core.game import check_move_text, is_integer
from boardgames.envs.core.kernel_state import KernelState, TwoPlayerBoardGame

DEFAULT_MAX_TURNS = R.DEFAULT_MAX_TURNS


class BarcState(KernelState, rules=R, encoder=O):
    """A Barc duel position (see :mod:`boardgames.envs.barc.rules` for the array layout)."""

    __slots__ = ()
    renderer = render

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
            None if self.data[R.LAST_ORDER + s] < 0 else N.order_text(s, int(self.data[R.LAST_ORDER + s]))
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
        return N.order_text(_check_seat(seat), a)

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
        if t == N.STAY_TEXT:
            return R.STAY
        origin, direction, distance = N.parse_order(t)
        owner = self.owner(origin)
        if owner < 0:
            raise IllegalActionError(f"order {text!r}: there is no stack on {SQ.name(origin)}")
        if seat is None:
            seat = owner
        elif owner != seat:
            raise IllegalActionError(
                f"order {text!r}: the stack on {SQ.name(origin)} is topped by {N.who(owner)}, "
                f"so {N.who(seat)} cannot move it"
            )
        action = int(R.encode(seat, origin, direction, distance))
        if not R.is_legal_order(self.data, seat, action):
            why = N.why_illegal(self.data, origin, direction, distance)
            raise IllegalActionError(f"order {text!r} is illegal: {why}")
        return action

    def _check_legal(self, seat: int, action) -> None:
        """As the shared check, with the order written for the right seat in the message."""
        well_formed = is_integer(action)
        if self.is_terminal() or not well_formed or not 0 <= action < R.NUM_ACTIONS:
            super()._check_legal(seat, action)  # raises the shared message
            return
        if not R.is_legal_order(self.data, int(seat), int(action)):
            raise IllegalActionError(
                f"action {int(action)} ({N.order_text(seat, int(action))}) is illegal for {N.who(seat)} in "
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
    parse_position = N.parse_position
    write_position = staticmethod(N.write_position)
    heuristic = staticmethod(heuristic)

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
