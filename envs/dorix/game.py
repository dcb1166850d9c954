"""Dorix behind the shared Game/State interface: options, notation and action names.

Notation (one line, space-separated; see docs/rules/dorix.md)::

    dorix <board> hands=<h0,h1,..> move=<seat> turn=<n> [limit=<n>] [last=<sq>|<sq>-<sq>]
          [collapse=<sq>:<left>:<sq>,<sq>..] [over=win:<side>|draw|limit]

``<board>`` lists ranks 4 to 1 separated by ``/``, each rank's four squares a..d separated by ``.``;
a square is ``-`` when empty, else the owners of its pawns from bottom to top (``011`` = a pawn of
seat 0 under two of seat 1). Moves: ``b2`` (place from the hand), ``a1-b2`` (move a top pawn),
``>c2`` (during a collapse: the next pawn falls on c2).
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import GameInfo, check_move_text, is_integer
from boardgames.envs.core.kernel_state import KernelGame, KernelState, check_max_turns
from boardgames.envs.core.squares import (
    DIGITS,
    BoardSquares,
    check_limit_ending,
    check_running_turn,
    parse_int,
    parse_turn,
    split_position,
)
from boardgames.envs.dorix import observe as O
from boardgames.envs.dorix import rules as R

DEFAULT_MAX_TURNS = 200
SQ = BoardSquares(R.SIZE)
_FIELDS = ("hands", "move", "turn", "limit", "last", "collapse", "over")


class DorixGame(KernelGame):
    """Dorix for 2, 3 or 4 players (teams 0+2 against 1+3 at 4 players), with a turn limit."""

    def __init__(self, num_players: int = 2, max_turns: int = DEFAULT_MAX_TURNS):
        integer = is_integer(num_players)
        if not integer or num_players not in (2, 3, 4):  # 2.0, True and "2" are not player counts
            raise GameOptionError(f"num_players must be the integer 2, 3 or 4, got {num_players!r}")
        self.num_players = int(num_players)
        self.max_turns = check_max_turns(max_turns)
        teams = (0, 1, 0, 1) if num_players == 4 else tuple(range(num_players))
        self.info = GameInfo(
            name="dorix",
            num_seats=self.num_players,
            num_actions=R.NUM_ACTIONS,
            observation_shape=(R.SIZE, R.SIZE, O.obs_channels(self.num_players)),
            max_turns=self.max_turns,
            teams=teams,
            options={"num_players": self.num_players, "max_turns": self.max_turns},
        )

    def init_args(self) -> tuple:
        return (self.num_players, self.max_turns)


class DorixState(KernelState, rules=R, encoder=O):
    """A Dorix position (see :mod:`boardgames.envs.dorix.rules` for the array layout)."""

    __slots__ = ()

    # board access -----------------------------------------------------------------------------
    def stack(self, square: int | str) -> list:
        """Owners of the pawns on ``square`` (index or name), bottom to top."""
        sq = SQ.index(square)
        h = int(self.data[R.HEIGHTS + sq])
        return [int(x) for x in self.data[R.STACKS + sq * R.MAXH : R.STACKS + sq * R.MAXH + h]]

    def hand(self, seat: int) -> int:
        """Pawns left in ``seat``'s hand."""
        return int(self.data[R.HANDS + seat])

    @property
    def collapsing(self) -> bool:
        """True while the mover must choose where the next pawn of a collapse falls."""
        return bool(self.data[R.PHASE] == R.COLLAPSE)

    # notation ---------------------------------------------------------------------------------
    def action_to_text(self, action: int, seat: int | None = None) -> str:
        a = self._action_index(action)
        if a < R.MOVE:
            return SQ.name(a)
        if a < R.FALL:
            f, t = divmod(a - R.MOVE, R.SQUARES)
            return f"{SQ.name(f)}-{SQ.name(t)}"
        d = a - R.FALL
        if self.data[R.PHASE] == R.COLLAPSE:
            nb = int(R.NEIGHBOURS[self.data[R.SOURCE], d])
            if nb >= 0:
                return ">" + SQ.name(nb)
        return ">" + "NESW"[d]

    def text_to_action(self, text: str, seat: int | None = None) -> int:
        t = check_move_text(text, "'b2', 'a1-b2' or '>c2'").strip().lower()
        try:
            if t.startswith(">"):
                if self.data[R.PHASE] != R.COLLAPSE:
                    raise IllegalActionError(f"{text!r} picks where a collapsing pawn falls: no collapse now")
                if t[1:] in ("n", "e", "s", "w"):  # a direction, as action_to_text writes one with no square
                    return self._checked(text, R.FALL + "nesw".index(t[1:]))
                target = SQ.parse(t[1:])
                dirs = [d for d in range(4) if R.NEIGHBOURS[self.data[R.SOURCE], d] == target]
                if not dirs:
                    src = SQ.name(self.data[R.SOURCE])
                    raise IllegalActionError(f"{t[1:]} is not next to the collapsing stack on {src}")
                action = R.FALL + dirs[0]
            elif "-" in t:
                f, _, to = t.partition("-")
                action = R.MOVE + SQ.parse(f) * R.SQUARES + SQ.parse(to)
            else:
                action = R.PLACE + SQ.parse(t)
        except NotationError as e:
            raise IllegalActionError(f"cannot read move {text!r}: {e}") from None
        return self._checked(text, action)

    def _checked(self, text: str, action: int) -> int:
        """``action`` (read from ``text``) when it is legal now, else IllegalActionError saying why."""
        if self.is_terminal():
            raise IllegalActionError("the game is over: no move can be played")
        if not self.legal_mask()[action]:
            raise IllegalActionError(f"move {text!r} is illegal here: {_why_illegal(self, action)}")
        return action

    # checks and pictures ----------------------------------------------------------------------
    def check_invariants(self) -> None:
        d = self.data
        n = self.game.num_players
        per = R.PAWNS_PER_PLAYER[n]
        heights = d[R.HEIGHTS : R.HEIGHTS + R.SQUARES].astype(np.int64)
        stacks = d[R.STACKS : R.STACKS + R.SQUARES * R.MAXH].reshape(R.SQUARES, R.MAXH)
        filled = np.arange(R.MAXH) < heights[:, None]
        bad_height = (heights < 0) | (heights > R.MAXH)
        bad_owner = (filled & ((stacks < 0) | (stacks >= n))).any(axis=1)
        garbage = (~filled & (stacks != -1)).any(axis=1)
        for sq in np.flatnonzero(bad_height | bad_owner | garbage)[:1]:  # the first faulty square, named
            assert not bad_height[sq], f"height {heights[sq]} on {SQ.name(sq)}"
            assert not bad_owner[sq], f"bad pawn owner on {SQ.name(sq)}"
            assert not garbage[sq], f"garbage above the stack on {SQ.name(sq)}"
        counts = np.bincount(stacks[filled].astype(np.int64), minlength=n)
        for s in range(n):
            hand = int(d[R.HANDS + s])
            assert 0 <= hand <= per, f"hand of seat {s} is {hand}"
            assert counts[s] + hand == per, f"seat {s}: {counts[s]} on board + {hand} in hand != {per}"
        if not self.is_terminal():
            assert self.legal_mask().any(), "the seat to act has no legal action"
        if d[R.OVER] and not d[R.TRUNCATED] and d[R.WINNER] >= 0:
            assert R.diagonal_winner(d) == d[R.WINNER], "the winner does not hold a diagonal"


def _why_illegal(state: DorixState, action: int) -> str:
    """A sentence saying why a well-formed move is not legal in ``state``."""
    d = state.data
    seat = int(d[R.TO_MOVE])
    if d[R.PHASE] == R.COLLAPSE:
        return f"a collapse from {SQ.name(d[R.SOURCE])} is under way: choose where the next pawn falls (>square)"
    if action >= R.FALL:
        return "no collapse is under way"
    if action < R.MOVE:
        if state.hand(seat) == 0:
            return "your hand is empty: move a top pawn instead (like a1-b2)"
        return f"{SQ.name(action)} is topped by player_{R.top(d, action)}: place on an empty square or your own stack"
    f, t = divmod(action - R.MOVE, R.SQUARES)
    if state.hand(seat) > 0:
        return "you still have pawns in hand: place one (like b2) instead of moving"
    if f == t:
        return "the pawn must land on a different square"
    if R.top(d, f) != seat:
        return f"{SQ.name(f)} is not topped by your pawn"
    return f"{SQ.name(t)} is topped by player_{R.top(d, t)}: move onto an empty square or your own stack"


def _write_position(state: DorixState) -> str:
    d = state.data
    n = state.game.num_players
    parts = [
        "dorix",
        SQ.write_stacks(state.stack),
        "hands=" + ",".join(str(state.hand(s)) for s in range(n)),
        f"move={int(d[R.TO_MOVE])}",
        f"turn={int(d[R.TURN])}",
    ]
    if int(d[R.MAX_TURNS]) != state.game.max_turns:
        parts.append(f"limit={int(d[R.MAX_TURNS])}")
    if d[R.LAST_TO] >= 0:
        last = SQ.name(d[R.LAST_TO])
        parts.append("last=" + (f"{SQ.name(d[R.LAST_FROM])}-{last}" if d[R.LAST_FROM] >= 0 else last))
    if d[R.PHASE] == R.COLLAPSE:
        src = int(d[R.SOURCE])
        targets = [SQ.name(R.NEIGHBOURS[src, k]) for k in range(4) if d[R.TARGETS + k]]
        parts.append(f"collapse={SQ.name(src)}:{int(d[R.LEFT])}:{','.join(targets)}")
    if d[R.OVER]:
        parts.append(state.over_field())
    return " ".join(parts)


def _parse_position(game: DorixGame, text: str) -> DorixState:
    board, fields = split_position(text, "a Dorix", "board", _FIELDS, ("hands", "move", "turn"))
    n = game.num_players
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.init_state(data, n, game.max_turns)
    for sq, cell in SQ.stack_cells(board):
        if not cell or any(c not in DIGITS[:n] for c in cell):
            raise NotationError(f"square {SQ.name(sq)}: {cell!r} is not a stack of seats 0..{n - 1} (or '-')")
        if len(cell) > R.MAXH:
            raise NotationError(f"square {SQ.name(sq)}: stack of {len(cell)} pawns is too high")
        for c in cell:
            R._push(data, sq, int(c))
    hands = fields["hands"].split(",")
    if len(hands) != n:
        raise NotationError(f"hands= lists {len(hands)} players but this game has {n}")
    per = R.PAWNS_PER_PLAYER[n]
    for s, h in enumerate(hands):
        data[R.HANDS + s] = parse_int(h, f"hand of seat {s}", 0, per)
    for s in range(n):
        on_board = int(sum(data[R.STACKS : R.HEIGHTS] == s))
        if on_board + data[R.HANDS + s] != per:
            raise NotationError(
                f"seat {s} has {on_board} pawns on the board and {data[R.HANDS + s]} in hand; "
                f"with {n} players each has {per}"
            )
    data[R.TO_MOVE] = parse_int(fields["move"], "move (seat to act)", 0, n - 1)
    turn, limit = parse_turn(fields, game.max_turns)
    data[R.TURN], data[R.MAX_TURNS] = turn, limit
    if "last" in fields:
        frm, dash, to = fields["last"].partition("-")
        data[R.LAST_FROM] = SQ.parse(frm) if dash else -1
        data[R.LAST_TO] = SQ.parse(to if dash else frm)
        if data[R.LAST_FROM] == data[R.LAST_TO]:
            raise NotationError(f"last={fields['last']}: a moved pawn lands on another square (D4)")
    if "collapse" in fields:
        _parse_collapse(data, fields["collapse"])
    if "over" in fields:
        _parse_over(data, fields["over"], n)
    _check_result(data, fields.get("over"), n)
    state = DorixState(game, data)
    if not state.is_terminal() and not state.legal_mask().any():
        raise NotationError(f"seat {data[R.TO_MOVE]} is to move but has no legal action (it would pass)")
    return state


def _parse_collapse(data: np.ndarray, value: str) -> None:
    parts = value.split(":")
    if len(parts) != 3:
        raise NotationError(f"collapse= is <square>:<pawns left>:<targets>, got {value!r}")
    src = SQ.parse(parts[0])
    left = parse_int(parts[1], "pawns left to fall", 1)
    if left > data[R.HEIGHTS + src]:
        raise NotationError(f"collapse= says {left} pawns left but {SQ.name(src)} holds {data[R.HEIGHTS + src]}")
    for name in parts[2].split(","):
        t = SQ.parse(name)
        dirs = [k for k in range(4) if R.NEIGHBOURS[src, k] == t]
        if not dirs:
            raise NotationError(f"collapse target {name} is not next to {SQ.name(src)}")
        if data[R.HEIGHTS + t] == 0:
            raise NotationError(f"collapse target {name} is empty: empty squares never receive")
        data[R.TARGETS + dirs[0]] = 1
    if left > int(data[R.TARGETS : R.TARGETS + 4].sum()):
        raise NotationError(f"collapse= says {left} pawns left for fewer targets")
    data[R.SOURCE] = src
    data[R.LEFT] = left
    data[R.PHASE] = R.COLLAPSE


def _check_result(data: np.ndarray, over: str | None, n: int) -> None:
    """NotationError when the position's result (``over``, None for a running game) contradicts its
    board (D7, D8): a game goes on only before the turn limit and while no side controls a long
    diagonal alone (but for a collapse under way: the diagonals are checked once it is over);
    ``over=win:<side>`` needs that side to control one alone, ``over=limit`` nobody and the turn at the
    limit, ``over=draw`` (which these rules never reach) a board where no seat can act."""
    holder = int(R.diagonal_winner(data))
    held = f"side {holder} controls a long diagonal alone"
    turn, limit = int(data[R.TURN]), int(data[R.MAX_TURNS])
    if over is None:
        if holder >= 0 and data[R.PHASE] != R.COLLAPSE:  # the diagonals are checked after the collapse
            raise NotationError(f"{held}: the game is over (add over=win:{holder})")
        check_running_turn(turn, limit)
    elif over == "limit":
        if holder >= 0:
            raise NotationError(f"over=limit, but {held}: the game was won (over=win:{holder})")
        check_limit_ending(turn, limit)
    elif over == "draw":
        if holder >= 0:
            raise NotationError(f"over=draw, but {held}: the game was won (over=win:{holder})")
        able = [s for s in range(n) if R.has_legal_action(data, s)]
        if able:
            raise NotationError(
                f"over=draw, but seat {able[0]} can act: a Dorix game is drawn only when no seat can (D8)"
            )
    elif holder != data[R.WINNER]:
        seen = held if holder >= 0 else "no side controls a long diagonal alone"
        raise NotationError(f"over={over}, but {seen} on this board (D7)")


def _parse_over(data: np.ndarray, value: str, n: int) -> None:
    data[R.OVER] = 1
    data[R.PHASE] = R.PLAY  # a collapse= field of an ended game is not written back
    if value == "limit":
        data[R.TRUNCATED] = 1
    elif value.startswith("win:"):
        sides = 2 if n == 4 else n
        data[R.WINNER] = parse_int(value[4:], "winning side", 0, sides - 1)
    elif value != "draw":
        raise NotationError(f"over= is win:<side>, draw or limit, got {value!r}")


DorixGame.state_class = DorixState
DorixGame.parse_position = _parse_position
DorixGame.write_position = staticmethod(_write_position)
