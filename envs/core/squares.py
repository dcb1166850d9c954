"""Square names shared by all boards: files are letters from the left, ranks numbers from the bottom
(a1 is bottom-left, seen from seat 0). Square index = (rank - 1) * width + file."""

from __future__ import annotations

from envs.core.errors import NotationError


def square_name(index: int, width: int) -> str:
    """``index`` -> ``"b3"``-style name on a board ``width`` files wide."""
    rank, file = divmod(int(index), width)
    return f"{chr(ord('a') + file)}{rank + 1}"


def parse_square(text: str, width: int, height: int) -> int:
    """``"b3"``-style name -> square index; NotationError when it is not a square of the board."""
    t = text.strip().lower()
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise NotationError(f"{text!r} is not a square name (expected a letter and a number, like 'b3')")
    file = ord(t[0]) - ord("a")
    rank = int(t[1:]) - 1
    if not (0 <= file < width and 0 <= rank < height):
        last = f"{chr(ord('a') + width - 1)}{height}"
        raise NotationError(f"square {text!r} is off the board (a1..{last})")
    return rank * width + file


def parse_int(text: str, what: str, low: int | None = None, high: int | None = None) -> int:
    """Parse an integer field of a notation string with a message naming the field."""
    try:
        value = int(text)
    except ValueError:
        raise NotationError(f"{what} must be an integer, got {text!r}") from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise NotationError(f"{what} must be in {low}..{high}, got {value}")
    return value
