"""Olix notation: positions and moves as text, written and read.

Position notation (one line, space-separated; see docs/rules/olix.md)::

    olix <grid> move=<seat> turn=<n> [limit=<n>] [last=<cell>] [marks=O<v><who>,L..,I..,X..]
         [over=super:<seat>:<type><value>|win:<seat>|draw|limit]

``<grid>`` lists ranks 11 to 1 separated by ``/``; in a rank, ``w`` is a pawn of player_0 (light),
``b`` a pawn of player_1 (dark), and a number counts empty cells (``.`` is accepted for one empty
cell too). ``marks=`` gives each score column in the order O, L, I, X as ``-`` (no marker) or its
highest marked value followed by who holds a marker there (``w``, ``b`` or ``wb``), e.g.
``marks=O-,L-,I5wb,X4b``. Pawns left are 46 minus each player's pawns on the grid. A move is the
name of the cell, e.g. ``f6``.
"""

from __future__ import annotations

import re

import numpy as np

from boardgames.envs.core import squares
from boardgames.envs.core.errors import IllegalActionError, NotationError
from boardgames.envs.olix import rules as R

SQ = squares.BoardSquares(R.SIZE)
SEAT_LETTERS = "wb"  # player_0 (light) and player_1 (dark), in notation and text pictures

# ----- moves --------------------------------------------------------------------------------------


def move_text(action: int) -> str:
    """The text of ``action``: the name of the cell it places a pawn on (``f6``)."""
    return SQ.name(action)


def parse_move(text: str) -> int:
    """The action written ``text`` (a cell name like ``f6``); IllegalActionError when it cannot be read.
    Whether the action is legal is the caller's check."""
    try:
        return SQ.parse(text)
    except NotationError as e:
        raise IllegalActionError(f"cannot read move {text!r}: {e}") from None


def why_illegal(data: np.ndarray, action: int) -> str:
    """A sentence saying why placing on the cell of ``action`` is not legal in the position ``data``."""
    who = int(data[R.BOARD + action])
    return f"{SQ.name(action)} already holds a pawn of player_{who}"


# ----- positions ----------------------------------------------------------------------------------


def write_position(state) -> str:
    """The notation of an :class:`boardgames.envs.olix.game.OlixState` (what ``state.to_text()`` returns)."""
    d = state.data

    def token(square: int) -> str | None:
        owner = int(d[R.BOARD + square])
        return None if owner < 0 else SEAT_LETTERS[owner]

    parts = ["olix", squares.run_length_board(R.SIZE, token), f"move={int(d[R.TO_MOVE])}", f"turn={int(d[R.TURN])}"]
    if int(d[R.MAX_TURNS]) != state.game.max_turns:
        parts.append(f"limit={int(d[R.MAX_TURNS])}")
    if d[R.LAST] >= 0:
        parts.append(f"last={SQ.name(d[R.LAST])}")
    if d[R.COL_MAX : R.COL_MAX + 4].any():
        cols = []
        for t in range(4):
            v, holders = state.column(t)
            cols.append(R.TYPE_NAMES[t] + (f"{v}" + "".join(SEAT_LETTERS[s] for s in holders) if v else "-"))
        parts.append("marks=" + ",".join(cols))
    if d[R.OVER]:
        if d[R.TRUNCATED]:
            parts.append("over=limit")
        elif d[R.SUPER_TYPE] >= 0:
            parts.append(f"over=super:{int(d[R.WINNER])}:{R.TYPE_NAMES[d[R.SUPER_TYPE]]}{int(d[R.SUPER_VALUE])}")
        elif d[R.WINNER] >= 0:
            parts.append(f"over=win:{int(d[R.WINNER])}")
        else:
            parts.append("over=draw")
    return " ".join(parts)


_FIELDS = ("move", "turn", "limit", "last", "marks", "over")
_MARK = re.compile(r"^([OLIX])(?:-|([0-9]+)([wb]+))$")


def _parse_grid(data: np.ndarray, grid: str) -> None:
    for rank, row in SQ.ranks(grid, "grid"):
        f = 0
        for m in re.finditer(r"[0-9]+|.", row):
            tok = m.group()
            if tok[0] in squares.DIGITS:
                n = int(tok)
                if n < 1:
                    raise NotationError(f"rank {rank + 1}: an empty-cell count must be 1..{R.SIZE}, got {tok}")
                f += n
            elif tok == ".":
                f += 1
            elif tok in SEAT_LETTERS:
                if f < R.SIZE:
                    data[R.BOARD + rank * R.SIZE + f] = SEAT_LETTERS.index(tok)
                f += 1
            else:
                raise NotationError(
                    f"rank {rank + 1}: {tok!r} is not a cell (w = player_0, b = player_1, a number or '.' = empty)"
                )
            if f > R.SIZE:
                raise NotationError(f"rank {rank + 1} ({row!r}) is longer than {R.SIZE} cells")
        if f != R.SIZE:
            raise NotationError(f"rank {rank + 1} ({row!r}) has {f} cells, not {R.SIZE}")


def _parse_marks(data: np.ndarray, value: str) -> None:
    entries = value.split(",")
    if len(entries) != 4:
        raise NotationError(f"marks= lists the 4 columns O,L,I,X, got {value!r}")
    for t, entry in enumerate(entries):
        m = _MARK.match(entry)
        name = R.TYPE_NAMES[t]
        if not m or m.group(1) != name:
            raise NotationError(
                f"marks= entry {t + 1} must be {name}- or {name}<value><holders> (like {name}"
                f"{R.COLUMN_VALUES[t, 0]}wb), got {entry!r}"
            )
        if m.group(2) is None:
            continue
        v = squares.parse_int(m.group(2), f"the value of column {name}")
        if v not in R.COLUMN_VALUES[t].tolist():
            printed = ", ".join(str(x) for x in R.COLUMN_VALUES[t])
            raise NotationError(f"column {name} has no value {v} (its values are {printed})")
        holders = m.group(3)
        if len(set(holders)) != len(holders):
            raise NotationError(f"column {name}: holder listed twice in {entry!r}")
        data[R.COL_MAX + t] = v
        for ch in holders:
            data[R.COL_HOLD + 2 * t + SEAT_LETTERS.index(ch)] = 1


def _parse_over(data: np.ndarray, value: str) -> None:
    data[R.OVER] = 1
    if value == "limit":
        data[R.TRUNCATED] = 1
    elif value == "draw":
        pass
    elif value.startswith("win:"):
        data[R.WINNER] = squares.parse_int(value[4:], "winning seat", 0, 1)
    elif value.startswith("super:"):
        m = re.match(r"^super:([01]):([OLIX])([0-9]+)$", value)
        if not m:
            raise NotationError(f"over=super is super:<seat>:<type><value> (like super:0:L9), got {value!r}")
        t = R.TYPE_NAMES.index(m.group(2))
        v = squares.parse_int(m.group(3), "the value of the super pattern", 0, R.CELLS)
        if v <= R.COLUMN_VALUES[t, 3]:
            raise NotationError(f"{m.group(2)}-{v} is not a super pattern (it must exceed {R.COLUMN_VALUES[t, 3]})")
        data[R.WINNER] = int(m.group(1))
        data[R.SUPER_TYPE] = t
        data[R.SUPER_VALUE] = v
    else:
        raise NotationError(f"over= is super:<seat>:<type><value>, win:<seat>, draw or limit, got {value!r}")


def parse_position(game, text: str):
    """The :class:`boardgames.envs.olix.game.OlixState` of ``game`` (an OlixGame) written ``text``;
    :class:`NotationError` naming the problem when it is malformed or impossible."""
    grid, fields = squares.split_position(text, "an Olix", "grid", _FIELDS, ("move", "turn"))
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.init_state(data, game.max_turns)
    _parse_grid(data, grid)
    board = data[R.BOARD : R.BOARD + R.CELLS]
    for s in range(2):
        placed = int(np.sum(board == s))
        if placed > R.PAWNS:
            raise NotationError(f"player_{s} has {placed} pawns on the grid; each player has {R.PAWNS}")
        data[R.LEFT + s] = R.PAWNS - placed
    data[R.TO_MOVE] = squares.parse_int(fields["move"], "move (seat to act)", 0, 1)
    turn, limit = squares.parse_turn(fields, game.max_turns)
    data[R.TURN], data[R.MAX_TURNS] = turn, limit
    if "last" in fields:
        last = SQ.parse(fields["last"])
        if board[last] < 0:
            raise NotationError(f"last={fields['last']} names an empty cell")
        data[R.LAST] = last
    if "marks" in fields:
        _parse_marks(data, fields["marks"])
    if "over" in fields:
        _parse_over(data, fields["over"])
        if fields["over"].startswith("win:") or fields["over"] == "draw":
            counted = int(R.count_winner(data))
            if counted != data[R.WINNER]:
                result = "a draw" if counted < 0 else f"a win for player_{counted}"
                raise NotationError(f"over={fields['over']} contradicts the marks, which count as {result}")
    else:
        seat = int(data[R.TO_MOVE])
        if data[R.LEFT + seat] == 0:
            raise NotationError(f"player_{seat} is to move but has no pawn left to place")
        if not (board == -1).any():
            raise NotationError("the grid is full: the game is over (add an over= field)")
        squares.check_running_turn(turn, limit)
    placed = int(np.sum(board >= 0))
    if turn != placed:
        raise NotationError(f"turn={turn}, but the grid holds {placed} pawns: one placement is one turn")
    _check_result(data, fields.get("over"))
    return game.state_class(game, data)


def _best_patterns(data: np.ndarray) -> np.ndarray:
    """``best[seat, t]``: the largest value of a pattern of type t (O, L, I, X) of ``seat`` on the grid."""
    best = np.zeros((2, 4), dtype=np.int64)
    values = np.zeros(4, dtype=np.int64)
    for cell in range(R.CELLS):
        seat = int(data[R.BOARD + cell])
        if seat >= 0:
            R.pattern_values(data, cell, seat, values)
            best[seat] = np.maximum(best[seat], values)
    return best


def _check_result(data: np.ndarray, over: str | None) -> None:
    """NotationError when the grid contradicts the position's marks or result (``over``, None for a
    running game). Pawns never leave the grid (O1), so what was scored stays on it: a marker needs a
    pattern of its column's type by its holder on the grid, and ``over=super`` the winner's super
    pattern of that type and value (made by the last pawn, when ``last=`` names it). The count
    (``over=win``/``draw``) comes once every pawn is placed or the grid is full (O6), and then before
    the turn limit (``over=limit``). Set-up positions (the rules page's) may hold patterns nobody
    scored, so the values of the markers are not compared with the grid, nor a running game's
    patterns with the super-pattern thresholds."""
    best = _best_patterns(data)
    for t, name in enumerate(R.TYPE_NAMES):
        for s in range(2):
            if data[R.COL_HOLD + 2 * t + s] and not best[s, t]:
                raise NotationError(
                    f"marks=: player_{s} holds a marker on column {name} but has no {name} pattern on the grid "
                    "(pawns never leave it)"
                )
    if data[R.SUPER_TYPE] >= 0:
        w, t, v = int(data[R.WINNER]), int(data[R.SUPER_TYPE]), int(data[R.SUPER_VALUE])
        name = R.TYPE_NAMES[t]
        last = int(data[R.LAST])
        if last >= 0:
            values = np.zeros(4, dtype=np.int64)
            R.pattern_values(data, last, w, values)
            if data[R.BOARD + last] != w or values[t] != v:
                raise NotationError(
                    f"over={over}, but the last pawn ({SQ.name(last)}) is not in a {name}-{v} of player_{w}"
                )
        elif best[w, t] < v:
            found = f"{name}-{best[w, t]}" if best[w, t] else f"no {name}"
            raise NotationError(f"over={over}, but player_{w}'s largest {name} on the grid is {found}")
        return
    counted = (data[R.LEFT] == 0 and data[R.LEFT + 1] == 0) or bool((data[R.BOARD : R.BOARD + R.CELLS] >= 0).all())
    if over == "draw" or (over or "").startswith("win:"):
        if not counted:
            raise NotationError(f"over={over}: the count (O6) comes only once every pawn is placed or the grid is full")
    elif over == "limit":
        if counted:
            raise NotationError("over=limit, but every pawn is placed: the game ends by the count (O6)")
        squares.check_limit_ending(int(data[R.TURN]), int(data[R.MAX_TURNS]))
