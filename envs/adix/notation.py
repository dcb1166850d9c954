"""ADIX notation: positions and moves as text, written and read.

Position notation (one line, space-separated; see docs/rules/adix.md)::

    adix <board> move=<seat> turn=<n> quiet=<n> [limit=<n>] [rep=<seat>:<sq>:<movement>:<count>,..]
         [last=<from><to>] [over=win:<seat>:captain|team|stuck|draw|limit]

``<board>`` lists ranks 9 to 1 separated by ``/``; in a rank a number counts empty squares (``.`` is
one empty square too) and a cube is four letters: ``C`` (White captain), ``T`` (White teammate),
``c`` / ``t`` (Black's), then the weapons on its top, north and east faces (``r`` rock, ``p`` paper,
``s`` scissors, ``h`` shelter). ``Crps`` is a White captain with rock on top, paper facing north and
scissors facing east; ``thps`` a Black teammate under shelter. The start::

    adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/9/ThpsThpsThpsThpsThpsThpsThpsThpsThps/4Crps4
         move=0 turn=0 quiet=0

Moves (always in board coordinates, whoever plays): ``e2-e5`` displacement (``e2xe5`` when it
captures; either sign is read), ``e2L`` / ``e2R`` rotation left (counter-clockwise seen from above) /
right, ``e2~e3`` tilt onto the adjacent square e3.
"""

from __future__ import annotations

import re

import numpy as np

from boardgames.envs.adix import rules as R
from boardgames.envs.core.errors import IllegalActionError, NotationError
from boardgames.envs.core.squares import (
    DIGITS,
    BoardSquares,
    check_limit_ending,
    check_running_turn,
    parse_int,
    parse_turn,
    split_position,
)

SQ = BoardSquares(R.SIZE)
SEAT_NAMES = ("White", "Black")
WEAPON_NAMES = ("rock", "paper", "scissors", "shelter")
END_NAMES = {R.END_CAPTAIN: "captain", R.END_TEAM: "team", R.END_STUCK: "stuck"}


def cube_token(seat: int, kind: int, top: int, north: int, east: int) -> str:
    """The four-letter notation of a cube, e.g. ``Crps``."""
    letter = "C" if kind == R.CAPTAIN else "T"
    letter = letter if seat == 0 else letter.lower()
    return letter + "".join(R.WEAPON_LETTERS[w] for w in (top, north, east))


# ----- moves ------------------------------------------------------------------------------------

_MOVE_PAIR = re.compile(r"^([a-z][0-9]+)\s*([-x~])\s*([a-z][0-9]+)$")
_MOVE_ROT = re.compile(r"^([a-z][0-9]+)\s*([lr])$")


def abs_action_text(data: np.ndarray, abs_action: int) -> str:
    src, dst, movement = (int(v) for v in R.decode(abs_action))
    if movement == R.M_LEFT:
        return f"{SQ.name(src)}L"
    if movement == R.M_RIGHT:
        return f"{SQ.name(src)}R"
    if dst < 0:  # off the board: only for illegal actions
        k = abs_action % R.ACTIONS_PER_SQUARE
        what = f"tilt {R.MOVEMENT_NAMES[movement]}" if movement >= 0 else f"{R.DIR_NAMES[k // 8]}x{k % 8 + 1}"
        return f"{SQ.name(src)}({what}, off the board)"
    if movement >= 0:
        return f"{SQ.name(src)}~{SQ.name(dst)}"
    owners = R.owner_of(data, src), R.owner_of(data, dst)
    capture = owners[0] >= 0 and owners[1] >= 0 and owners[0] != owners[1]
    return f"{SQ.name(src)}{'x' if capture else '-'}{SQ.name(dst)}"


def parse_move(text: str) -> int:
    """Board-frame action of a move written ``e2-e5``, ``e2xe5``, ``e2L``, ``e2R`` or ``e2~e3``."""
    t = text.strip().lower()
    try:
        m = _MOVE_ROT.match(t)
        if m:
            src = SQ.parse(m.group(1))
            return src * R.ACTIONS_PER_SQUARE + (R.K_LEFT if m.group(2) == "l" else R.K_RIGHT)
        m = _MOVE_PAIR.match(t)
        if not m:
            raise IllegalActionError(
                f"cannot read move {text!r}: write e2-e5 (displacement), e2xe5 (capture), e2L / e2R (rotation) "
                "or e2~e3 (tilt)"
            )
        src, dst = SQ.parse(m.group(1)), SQ.parse(m.group(3))
    except NotationError as e:
        raise IllegalActionError(f"cannot read move {text!r}: {e}") from None
    dr = dst // R.SIZE - src // R.SIZE
    df = dst % R.SIZE - src % R.SIZE
    n = max(abs(dr), abs(df))
    if n == 0:
        raise IllegalActionError(f"move {text!r} starts and ends on the same square")
    if m.group(2) == "~":
        if abs(dr) + abs(df) != 1:
            raise IllegalActionError(f"tilt {text!r}: a cube tilts onto an orthogonally adjacent square only")
        t_index = [(1, 0), (0, 1), (-1, 0), (0, -1)].index((dr, df))
        return src * R.ACTIONS_PER_SQUARE + R.K_TILT + t_index
    if dr != 0 and df != 0 and abs(dr) != abs(df):
        raise IllegalActionError(f"move {text!r} is not along a rank, a file or a diagonal")
    d = [(int(R.DR[i]), int(R.DF[i])) for i in range(8)].index((int(np.sign(dr)), int(np.sign(df))))
    return src * R.ACTIONS_PER_SQUARE + d * 8 + n - 1


def why_illegal(data: np.ndarray, seat: int, abs_action: int) -> str:
    """A sentence saying why the board-frame ``abs_action`` is illegal for ``seat``."""
    src, dst, movement = (int(v) for v in R.decode(abs_action))
    owner, kind, top, _, _ = (int(v) for v in R.cube_fields(data, src))
    if owner < 0:
        return f"{SQ.name(src)} is empty"
    if owner != seat:
        return f"the cube on {SQ.name(src)} is {SEAT_NAMES[owner]}'s, and {SEAT_NAMES[seat]} is to move"
    if movement < 0 or movement <= R.M_RIGHT:
        if top == R.SHELTER:
            return f"the cube on {SQ.name(src)} is under shelter: it can only tilt (A6)"
    if movement >= 0 and not R.movement_allowed(data, seat, src, movement):
        return f"the cube on {SQ.name(src)} made this movement on its last two turns: a third is refused (A9)"
    if movement >= R.M_TILT_N:
        if dst < 0:
            return "the cube would tilt off the board"
        return f"a cube tilts only onto an empty square, and {SQ.name(dst)} is occupied (A8)"
    if movement >= 0:
        return "this rotation is not allowed"
    if dst < 0:
        return "the destination is off the board"
    k = abs_action % R.ACTIONS_PER_SQUARE
    d, n = k // 8, k % 8 + 1
    if not R.weapon_moves_along(top, d):
        lines = {R.PAPER: "orthogonally", R.SCISSORS: "diagonally"}[top]
        return f"the cube on {SQ.name(src)} shows {WEAPON_NAMES[top]}, which moves {lines} only (A5)"
    if kind == R.CAPTAIN and n > 1:
        return "a captain moves one square only (A5)"
    r, f = src // R.SIZE, src % R.SIZE
    for i in range(1, n):
        mid = (r + int(R.DR[d]) * i) * R.SIZE + f + int(R.DF[d]) * i
        if R.owner_of(data, mid) >= 0:
            return f"{SQ.name(mid)} is in the way: no jumping (A5)"
    occupant = int(R.owner_of(data, dst))
    if occupant == seat:
        return f"{SQ.name(dst)} holds your own cube"
    victim = int(R.top_of(data, dst))
    if victim == R.SHELTER:
        return f"the cube on {SQ.name(dst)} is under shelter and cannot be captured (8-5)"
    return f"{WEAPON_NAMES[top]} does not beat {WEAPON_NAMES[victim]} (rock > scissors > paper > rock)"


# ----- position notation ------------------------------------------------------------------------


def write_position(state) -> str:
    """The notation of an :class:`boardgames.envs.adix.game.AdixState` (what ``state.to_text()`` returns)."""
    d = state.data
    ranks = []
    for r in range(R.SIZE - 1, -1, -1):
        out, empty = "", 0
        for f in range(R.SIZE):
            tok = state.token(r * R.SIZE + f)
            if tok == ".":
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += tok
        if empty:
            out += str(empty)
        ranks.append(out)
    parts = ["adix", "/".join(ranks), f"move={int(d[R.TO_MOVE])}", f"turn={int(d[R.TURN])}", f"quiet={int(d[R.QUIET])}"]
    if int(d[R.MAX_TURNS]) != state.game.max_turns:
        parts.append(f"limit={int(d[R.MAX_TURNS])}")
    reps = []
    for s in range(2):
        rep = state.repetition(s)
        if rep:
            reps.append(f"{s}:{rep[0]}:{rep[1]}:{rep[2]}")
    if reps:
        parts.append("rep=" + ",".join(reps))
    if d[R.LAST_FROM] >= 0:
        parts.append(f"last={SQ.name(d[R.LAST_FROM])}{SQ.name(d[R.LAST_TO])}")
    if d[R.OVER]:
        reason = int(d[R.REASON])
        if reason == R.END_LIMIT:
            parts.append("over=limit")
        elif reason == R.END_QUIET:
            parts.append("over=draw")
        else:
            parts.append(f"over=win:{int(d[R.WINNER])}:{END_NAMES[reason]}")
    return " ".join(parts)


_FIELDS = ("move", "turn", "quiet", "limit", "rep", "last", "over")
_TOKEN = re.compile(r"[0-9]+|[CTct][rpsh]{3}|.")


def _parse_board(data: np.ndarray, board: str) -> None:
    for rank, row in SQ.ranks(board):
        f = 0
        for m in _TOKEN.finditer(row):
            tok = m.group()
            if tok[0] in DIGITS:
                if int(tok) < 1:
                    raise NotationError(f"rank {rank + 1}: an empty-square count must be 1..9, got {tok}")
                f += int(tok)
            elif tok == ".":
                f += 1
            elif len(tok) == 4:
                if f < R.SIZE:
                    seat = 0 if tok[0].isupper() else 1
                    kind = R.CAPTAIN if tok[0] in "Cc" else R.TEAMMATE
                    top, north, east = (R.WEAPON_LETTERS.index(ch) for ch in tok[1:])
                    sq = rank * R.SIZE + f
                    if not R.valid_orientation(kind, top, north, east):
                        why = (
                            "a captain has no shelter face"
                            if kind == R.CAPTAIN and R.SHELTER in (top, north, east)
                            else "its top, north and east faces must come from three different opposite pairs "
                            "(rock/shelter, paper/paper, scissors/scissors for a teammate)"
                        )
                        raise NotationError(f"{SQ.name(sq)}: {tok!r} is not a possible cube: {why}")
                    R.put_cube(data, sq, seat, kind, top, north, east)
                f += 1
            else:
                raise NotationError(
                    f"rank {rank + 1}: cannot read {row[m.start() : m.start() + 4]!r} (a cube is C/T/c/t followed by "
                    "its top, north and east weapons among r, p, s, h, like Crps; a number or '.' = empty)"
                )
            if f > R.SIZE:
                raise NotationError(f"rank {rank + 1} ({row!r}) is longer than {R.SIZE} squares")
        if f != R.SIZE:
            raise NotationError(f"rank {rank + 1} ({row!r}) has {f} squares, not {R.SIZE}")


def _parse_rep(data: np.ndarray, value: str) -> None:
    seen = set()
    for entry in value.split(","):
        m = re.match(r"^([01]):([a-z][0-9]+):([LRNESW]):([12])$", entry)
        if not m:
            raise NotationError(
                f"rep= entry {entry!r} must be <seat>:<square>:<movement L/R/N/E/S/W>:<count 1-2>, like 0:e4:L:2"
            )
        s = int(m.group(1))
        if s in seen:
            raise NotationError(f"rep= gives seat {s} twice")
        seen.add(s)
        sq = SQ.parse(m.group(2))
        if R.owner_of(data, sq) != s:
            raise NotationError(f"rep= names {m.group(2)} for {SEAT_NAMES[s]}, but no cube of theirs stands there")
        movement = R.MOVEMENT_NAMES.index(m.group(3))
        if movement <= R.M_RIGHT and R.top_of(data, sq) == R.SHELTER:
            raise NotationError(f"rep= says the sheltered cube on {m.group(2)} rotated, which it cannot do")
        data[R.REP_SQ + s] = sq
        data[R.REP_MOVE + s] = movement
        data[R.REP_COUNT + s] = int(m.group(4))


def _parse_over(data: np.ndarray, value: str) -> None:
    data[R.OVER] = 1
    if value == "limit":
        data[R.TRUNCATED] = 1
        data[R.REASON] = R.END_LIMIT
        return
    if value == "draw":
        data[R.REASON] = R.END_QUIET
        return
    m = re.match(r"^win:([01]):(captain|team|stuck)$", value)
    if not m:
        raise NotationError(f"over= is win:<seat>:captain|team|stuck, draw or limit, got {value!r}")
    winner = int(m.group(1))
    loser = 1 - winner
    reason = {v: k for k, v in END_NAMES.items()}[m.group(2)]
    data[R.WINNER] = winner
    data[R.REASON] = reason
    if reason == R.END_CAPTAIN and R.count_pieces(data, loser, R.CAPTAIN):
        raise NotationError(f"over={value}: {SEAT_NAMES[loser]}'s captain is still on the board")
    if reason == R.END_TEAM and R.count_pieces(data, loser, R.TEAMMATE):
        raise NotationError(f"over={value}: {SEAT_NAMES[loser]} still has teammates on the board")


def _check_ending(data: np.ndarray, over: str) -> None:
    """NotationError when the board contradicts how ``over`` says the game ended. The rules end a game
    after a move in this order (A4, A10, A11): a capture of the last captain or teammate, then 30 quiet
    turns, then the next player unable to move, then the turn limit; so every ending but a capture
    leaves both teams whole (a captain and a teammate each), a capture leaves the winner's team whole,
    a win by ``stuck`` leaves the loser without a legal action (which a whole team, its captain never
    under shelter, always has: no position reaches it, as the rules page notes), a draw comes at
    quiet=30 and the limit ending at the limit with quiet under 30 and the next player able to move."""
    reason = int(data[R.REASON])
    whole = [bool(R.count_pieces(data, s, R.CAPTAIN) and R.count_pieces(data, s, R.TEAMMATE)) for s in range(2)]
    winner = int(data[R.WINNER])
    for s in range(2):
        if not whole[s] and (reason not in (R.END_CAPTAIN, R.END_TEAM) or s == winner):
            raise NotationError(f"over={over}, but {SEAT_NAMES[s]} has lost its captain or every teammate")
    if reason == R.END_LIMIT:
        if data[R.QUIET] >= R.QUIET_DRAW:
            raise NotationError(f"over=limit, but quiet={R.QUIET_DRAW} ended the game in a draw first (A11)")
        check_limit_ending(int(data[R.TURN]), int(data[R.MAX_TURNS]))
        if not R.has_legal_action(data, int(data[R.TO_MOVE])):
            raise NotationError(f"over=limit, but {SEAT_NAMES[int(data[R.TO_MOVE])]} is stuck: the game was won (A4)")
    elif reason == R.END_STUCK:
        if data[R.QUIET] >= R.QUIET_DRAW:
            raise NotationError(f"over={over}, but quiet={R.QUIET_DRAW} ended the game in a draw first (A11)")
        if R.has_legal_action(data, 1 - winner):
            raise NotationError(f"over={over}, but {SEAT_NAMES[1 - winner]} has a legal action (A4)")


def parse_position(game, text: str):
    """The :class:`boardgames.envs.adix.game.AdixState` of ``game`` (an AdixGame) written ``text``;
    :class:`NotationError` naming the problem when it is malformed or impossible."""
    return game.state_class(game, read_position(game.max_turns, text))


def read_position(max_turns: int, text: str) -> np.ndarray:
    """The state array of a position in notation, for a game whose turn limit is ``max_turns``;
    :class:`NotationError` naming the problem when it is malformed or impossible."""
    board, fields = split_position(text, "an ADIX", "board", _FIELDS, ("move", "turn", "quiet"))
    data = np.zeros(R.STATE_SIZE, dtype=np.int32)
    R.clear_state(data, max_turns)
    _parse_board(data, board)
    for s in range(2):
        captains = R.count_pieces(data, s, R.CAPTAIN)
        mates = R.count_pieces(data, s, R.TEAMMATE)
        if captains > 1:
            raise NotationError(f"{SEAT_NAMES[s]} has {captains} captains on the board; a team has one")
        if mates > R.TEAMMATES:
            raise NotationError(f"{SEAT_NAMES[s]} has {mates} teammates on the board; a team has {R.TEAMMATES}")
    data[R.TO_MOVE] = parse_int(fields["move"], "move (seat to act)", 0, 1)
    turn, limit = parse_turn(fields, max_turns)
    data[R.TURN], data[R.MAX_TURNS] = turn, limit
    data[R.QUIET] = parse_int(fields["quiet"], "quiet (turns without a displacement)", 0, R.QUIET_DRAW)
    if "rep" in fields:
        _parse_rep(data, fields["rep"])
    if "last" in fields:
        m = re.match(r"^([a-z][0-9]+)([a-z][0-9]+)$", fields["last"])
        if not m:
            raise NotationError(f"last= is two squares like e2e5, got {fields['last']!r}")
        data[R.LAST_FROM] = SQ.parse(m.group(1))
        data[R.LAST_TO] = SQ.parse(m.group(2))
    if "over" in fields:
        _parse_over(data, fields["over"])
        if fields["over"] == "draw" and data[R.QUIET] < R.QUIET_DRAW:
            raise NotationError(f"over=draw needs quiet={R.QUIET_DRAW} (A11), got quiet={int(data[R.QUIET])}")
        _check_ending(data, fields["over"])
    else:
        for s in range(2):
            if not R.count_pieces(data, s, R.CAPTAIN):
                raise NotationError(f"{SEAT_NAMES[s]} has no captain: the game is over (add an over= field)")
            if not R.count_pieces(data, s, R.TEAMMATE):
                raise NotationError(f"{SEAT_NAMES[s]} has no teammate: the game is over (add an over= field)")
        if data[R.QUIET] >= R.QUIET_DRAW:
            raise NotationError(f"quiet={R.QUIET_DRAW} is a draw (A11): the game is over (add over=draw)")
        check_running_turn(turn, limit)
        seat = int(data[R.TO_MOVE])
        if not R.has_legal_action(data, seat):
            raise NotationError(f"{SEAT_NAMES[seat]} is to move but has no legal action: the game is over (A4)")
    return data
