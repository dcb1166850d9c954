"""Square names shared by all boards: files are letters from the left, ranks numbers from the bottom
(a1 is bottom-left, seen from seat 0). Square index = (rank - 1) * width + file."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from boardgames.envs.core.errors import NotationError

INT32_MAX = 2**31 - 1
"""The largest value a field of a state array (int32) holds: the default upper bound of a notation number."""
DIGITS = "0123456789"
"""The only digits notation numbers are written with (``str.isdigit`` and ``int`` also take ``"²"`` or
``"٣"``, which notation refuses)."""


def is_number(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits 0-9 (nothing else: no sign, space, underscore or
    other script's digits)."""
    return bool(text) and all(ch in DIGITS for ch in text)


def square_name(index: int, width: int) -> str:
    """``index`` -> ``"b3"``-style name on a board ``width`` files wide."""
    rank, file = divmod(int(index), width)
    return f"{chr(ord('a') + file)}{rank + 1}"


def parse_square(text: str, width: int, height: int) -> int:
    """``"b3"``-style name -> square index; NotationError when it is not a square of the board."""
    t = text.strip().lower()
    if len(t) < 2 or not "a" <= t[0] <= "z" or not is_number(t[1:]):
        raise NotationError(f"{text!r} is not a square name (expected a letter and a number, like 'b3')")
    file = ord(t[0]) - ord("a")
    rank = int(t[1:]) - 1
    if not (0 <= file < width and 0 <= rank < height):
        last = f"{chr(ord('a') + width - 1)}{height}"
        raise NotationError(f"square {text!r} is off the board (a1..{last})")
    return rank * width + file


class BoardSquares:
    """The square names and indices of one board (``width`` files, ``height`` ranks, square by
    default): a game module keeps one, e.g. ``SQ = BoardSquares(9)``, and writes ``SQ.name(i)``."""

    __slots__ = ("width", "height")

    def __init__(self, width: int, height: int | None = None):
        self.width = int(width)
        self.height = self.width if height is None else int(height)

    def name(self, index: int) -> str:
        """Square index -> ``"b3"``-style name."""
        return square_name(index, self.width)

    def parse(self, text: str) -> int:
        """``"b3"``-style name -> square index; NotationError when it is not a square of the board."""
        return parse_square(text, self.width, self.height)

    def index(self, square: int | str) -> int:
        """A square given by index or by name -> its index (what the states' board accessors take)."""
        return self.parse(square) if isinstance(square, str) else int(square)

    def ranks(self, board: str, word: str = "board") -> list:
        """The rows of a board written top rank first, separated by ``/``, as ``(rank, row)`` pairs
        (rank 0 at the bottom); NotationError unless there are ``height`` of them."""
        rows = board.split("/")
        if len(rows) != self.height:
            raise NotationError(f"the {word} needs {self.height} ranks separated by '/', got {len(rows)} in {board!r}")
        return [(self.height - 1 - i, row) for i, row in enumerate(rows)]

    def stack_cells(self, board: str) -> list:
        """The squares of a stack board (ranks top first separated by ``/``, squares a.. separated by
        ``.``, each ``-`` or its pawns' seats from the bottom up) as ``(square, cell)`` pairs for the
        non-empty ones; NotationError when a rank has the wrong number of squares."""
        out = []
        for rank, row in self.ranks(board):
            cells = row.split(".")
            if len(cells) != self.width:
                raise NotationError(
                    f"rank {rank + 1} needs {self.width} squares separated by '.', got {len(cells)} in {row!r}"
                )
            out += [(rank * self.width + f, cell) for f, cell in enumerate(cells) if cell != "-"]
        return out

    def write_stacks(self, stack) -> str:
        """The stack board :meth:`stack_cells` reads, from ``stack(square)`` -> the seats of its pawns
        from the bottom up."""
        ranks = []
        for rank in range(self.height - 1, -1, -1):
            cells = (stack(rank * self.width + f) for f in range(self.width))
            ranks.append(".".join("".join(str(p) for p in pawns) if len(pawns) else "-" for pawns in cells))
        return "/".join(ranks)


def run_length_board(size: int, token: Callable[[int], str | None]) -> str:
    """A square board of ``size`` files in notation: its ranks from the top down, separated by ``/``; each
    square is ``token(index)``, and a run of empty squares (``token`` None) is written as its length."""
    ranks = []
    for rank in range(size - 1, -1, -1):
        cells = [token(rank * size + file) for file in range(size)]
        runs = [(empty, list(run)) for empty, run in itertools.groupby(cells, key=lambda cell: cell is None)]
        ranks.append("".join(str(len(run)) if empty else "".join(cell or "" for cell in run) for empty, run in runs))
    return "/".join(ranks)


def split_position(text, label: str, board_word: str, fields: tuple, required: tuple) -> tuple[str, dict]:
    """Split a position ``"<game> <board> key=value .."`` into its board token and its fields.

    ``label`` names the game in messages (``"an ADIX"``), ``board_word`` its board token (``"board"``,
    ``"grid"``); ``fields`` are the keys allowed, ``required`` those that must be there. The first
    word must be the game's name (the last word of ``label``, any case). NotationError names what is
    wrong: not a string, a wrong first word, an unknown or repeated field, a missing one."""
    name = label.split()[-1].lower()
    if not isinstance(text, str):
        raise NotationError(f"{label} position is a string, got {type(text).__name__}")
    tokens = text.split()
    if len(tokens) < 2 or tokens[0].lower() != name:
        raise NotationError(f"{label} position starts with '{name} <{board_word}>', got {text[:60]!r}")
    values = {}
    for tok in tokens[2:]:
        key, eq, value = tok.partition("=")
        if not eq or key not in fields:
            raise NotationError(f"unknown field {tok!r} (fields: " + " ".join(k + "=" for k in fields) + ")")
        if key in values:
            raise NotationError(f"field {key}= given twice")
        values[key] = value
    for key in required:
        if key not in values:
            raise NotationError(f"the position lacks its {key}= field")
    return tokens[1], values


def parse_int(text: str, what: str, low: int = 0, high: int = INT32_MAX) -> int:
    """The integer written ``text`` (ASCII digits, a leading ``-`` allowed so that a negative value is
    refused as out of range), in ``low..high`` (default: any value the int32 state array holds);
    NotationError naming the field ``what`` otherwise. Every number of every game's notation is read
    with it."""
    body = text[1:] if text.startswith("-") else text
    if not is_number(body):
        raise NotationError(f"{what} must be an integer written with the digits 0-9, got {text!r}")
    if len(body.lstrip("0")) > len(str(INT32_MAX)):  # no need to read a number of a thousand digits
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(body)} digits)"
        raise NotationError(f"{what} must be in {low}..{high}, got {shown}")
    value = int(text)
    if not low <= value <= high:
        raise NotationError(f"{what} must be in {low}..{high}, got {value}")
    return value


def parse_turn(fields: dict, max_turns: int) -> tuple[int, int]:
    """``(turn, limit)`` from a position's ``turn=`` and optional ``limit=`` fields (the game's
    ``max_turns`` when there is no ``limit=``): a limit in 1..:data:`INT32_MAX`, a turn in 0..limit
    (a game ends when its turn count reaches the limit, so no position lies beyond it)."""
    limit = parse_int(fields["limit"], "limit", 1) if "limit" in fields else int(max_turns)
    turn = parse_int(fields["turn"], "turn", 0)
    if turn > limit:
        raise NotationError(f"turn={turn} is past the turn limit {limit}: a game ends when its turn count reaches it")
    return turn, limit


def check_running_turn(turn: int, limit: int) -> None:
    """NotationError unless a running game (no ``over=`` field) at ``turn`` is before the turn limit."""
    if turn >= limit:
        raise NotationError(
            f"turn={turn} reaches the turn limit {limit}: the game is over (add over=limit, or a larger limit=)"
        )


def check_limit_ending(turn: int, limit: int) -> None:
    """NotationError unless a game ended by the turn limit (``over=limit``) is at the limit."""
    if turn != limit:
        raise NotationError(f"over=limit before the turn limit (turn={turn}, limit {limit})")
