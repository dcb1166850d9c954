"""Dorix notation: positions and moves as text, written and read.

Position notation (one line, space-separated; see docs/rules/dorix.md)::

    dorix <board> hands=<h0,h1,..> move=<seat> turn=<n> [limit=<n>] [last=<sq>|<sq>-<sq>]
          [collapse=<sq>:<left>:<sq>,<sq>..] [over=win:<side>|draw|limit]

``<board>`` lists ranks 4 to 1 separated by ``/``, each rank's four squares a..d separated by ``.``;
a square is ``-`` when empty, else the owners of its pawns from bottom to top (``011`` = a pawn of
seat 0 under two of seat 1). Moves: ``b2`` (place from the hand), ``a1-b2`` (move a top pawn),
``>c2`` (during a collapse: the next pawn falls on c2).
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.core import squares
from boardgames.envs.core.errors import IllegalActionError, NotationError
from boardgames.envs.dorix import rules as R

SQ = squares.BoardSquares(R.SIZE)
_FIELDS = ("hands", "move", "turn", "limit", "last", "collapse", "over")

# ----- moves --------------------------------------------------------------------------------------


def move_text(data: np.ndarray, action: int) -> str:
    """The text of ``action`` (``b2``, ``a1-b2`` or ``>c2``) in the position ``data`` (a state array): a
    fall names the square it lands on while a collapse is under way, else its direction (``>N``)."""
    a = action
    if a < R.MOVE:
        return SQ.name(a)
    if a < R.FALL:
        f, t = divmod(a - R.MOVE, R.SQUARES)
        return f"{SQ.name(f)}-{SQ.name(t)}"
    d = a - R.FALL
    if data[R.PHASE] == R.COLLAPSE:
        nb = int(R.NEIGHBOURS[data[R.SOURCE], d])
        if nb >= 0:
            return ">" + SQ.name(nb)
    return ">" + "NESW"[d]


def parse_move(data: np.ndarray, text: str) -> int:
    """The action written ``text`` (``b2``, ``a1-b2``, ``>c2`` or a direction ``>n``) in the position
    ``data``; IllegalActionError when it cannot be read, or names a fall while no collapse is under way
    or onto a square next to no collapsing stack. Whether the action is legal is the caller's check."""
    t = text.strip().lower()
    try:
        if t.startswith(">"):
            if data[R.PHASE] != R.COLLAPSE:
                raise IllegalActionError(f"{text!r} picks where a collapsing pawn falls: no collapse now")
            if t[1:] in ("n", "e", "s", "w"):  # a direction, as move_text writes one with no square
                return R.FALL + "nesw".index(t[1:])
            target = SQ.parse(t[1:])
            dirs = [d for d in range(4) if R.NEIGHBOURS[data[R.SOURCE], d] == target]
            if not dirs:
                src = SQ.name(data[R.SOURCE])
                raise IllegalActionError(f"{t[1:]} is not next to the collapsing stack on {src}")
            return R.FALL + dirs[0]
        if "-" in t:
            f, _, to = t.partition("-")
            return R.MOVE + SQ.parse(f) * R.SQUARES + SQ.parse(to)
        return R.PLACE + SQ.parse(t)
    except NotationError as e:
        raise IllegalActionError(f"cannot read move {text!r}: {e}") from None


def why_illegal(d: np.ndarray, action: int) -> str:
    """A sentence saying why a well-formed move is not legal in the position ``d`` (a state array)."""
    seat = int(d[R.TO_MOVE])
    if d[R.PHASE] == R.COLLAPSE:
        return f"a collapse from {SQ.name(d[R.SOURCE])} is under way: choose where the next pawn falls (>square)"
    if action >= R.FALL:
        return "no collapse is under way"
    if action < R.MOVE:
        if d[R.HANDS + seat] == 0:
            return "your hand is empty: move a top pawn instead (like a1-b2)"
        return f"{SQ.name(action)} is topped by player_{R.top(d, action)}: place on an empty square or your own stack"
    f, t = divmod(action - R.MOVE, R.SQUARES)
    if d[R.HANDS + seat] > 0:
        return "you still have pawns in hand: place one (like b2) instead of moving"
    if f == t:
        return "the pawn must land on a different square"
    if R.top(d, f) != seat:
        return f"{SQ.name(f)} is not topped by your pawn"
    return f"{SQ.name(t)} is topped by player_{R.top(d, t)}: move onto an empty square or your own stack"


# ----- positions ----------------------------------------------------------------------------------


def write_position(state) -> str:
    """The notation of a :class:`boardgames.envs.dorix.game.DorixState` (what ``state.to_text()`` returns)."""
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


def parse_position(game, text: str):
    """The :class:`boardgames.envs.dorix.game.DorixState` of ``game`` (a DorixGame) written ``text``;
    :class:`NotationError` naming the problem when it is malformed or impossible."""
    board, fields = squares.split_position(text, "a Dorix", "board", _FIELDS, ("hands", "move", "turn"))
    n = game.num_players
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.init_state(data, n, game.max_turns)
    for sq, cell in SQ.stack_cells(board):
        if not cell or any(c not in squares.DIGITS[:n] for c in cell):
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
        data[R.HANDS + s] = squares.parse_int(h, f"hand of seat {s}", 0, per)
    for s in range(n):
        on_board = int(sum(data[R.STACKS : R.HEIGHTS] == s))
        if on_board + data[R.HANDS + s] != per:
            raise NotationError(
                f"seat {s} has {on_board} pawns on the board and {data[R.HANDS + s]} in hand; "
                f"with {n} players each has {per}"
            )
    data[R.TO_MOVE] = squares.parse_int(fields["move"], "move (seat to act)", 0, n - 1)
    turn, limit = squares.parse_turn(fields, game.max_turns)
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
    state = game.state_class(game, data)
    if not state.is_terminal() and not state.legal_mask().any():
        raise NotationError(f"seat {data[R.TO_MOVE]} is to move but has no legal action (it would pass)")
    return state


def _parse_collapse(data: np.ndarray, value: str) -> None:
    parts = value.split(":")
    if len(parts) != 3:
        raise NotationError(f"collapse= is <square>:<pawns left>:<targets>, got {value!r}")
    src = SQ.parse(parts[0])
    left = squares.parse_int(parts[1], "pawns left to fall", 1)
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
        squares.check_running_turn(turn, limit)
    elif over == "limit":
        if holder >= 0:
            raise NotationError(f"over=limit, but {held}: the game was won (over=win:{holder})")
        squares.check_limit_ending(turn, limit)
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
        data[R.WINNER] = squares.parse_int(value[4:], "winning side", 0, sides - 1)
    elif value != "draw":
        raise NotationError(f"over= is win:<side>, draw or limit, got {value!r}")
