"""The malformed inputs of the fuzz campaign, and the well-formed variants that must be accepted.

Each generator takes a numpy ``Generator`` and returns ``(kind, value)``: ``kind`` names the family
(shown with a failure), ``value`` is the input itself.

* :func:`bad_action`: a value that is no legal action of a seat: out of range, negative, past 64 bits,
  a float (integer-valued or not, NaN), a bool, a string, None, a list, a numpy bool or float, a 0-d
  array of an illegal value, an in-range action the mask forbids (as int, numpy int, 0-d array);
* :func:`action_form`: a legal action in one of the forms that must be accepted like the int (numpy
  integer scalars, 0-d integer arrays);
* :func:`bad_seat`: a value that is no seat of the game;
* :func:`move_text`: a move string that is malformed or a mutation of a legal move's text;
* :func:`position_text`: a position that is garbage (or no string at all) or a mutation of a valid one.
"""

from __future__ import annotations

import numpy as np

_NON_ASCII_DIGITS = ["\u0663", "\u00b2", "\u2075", "\uff17", "\u09e8"]  # Arabic-Indic, superscripts, fullwidth, Bengali
_CHARS = list("0123456789abcdefghijklmnopqrstuvwxyzABCDEF-./=:,>| ") + _NON_ASCII_DIGITS + ["\t", "\n", "\u00e9"]
_BIG_NUMBERS = [
    "2147483648",
    "4294967301",
    "18446744073709551621",
    "9" * 30,
    "-1",
    "-2147483649",
    "+3",
    "0x10",
    "1_0",
    "1e3",
    " 7",
    "00000000000000000000001",
]


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def bad_action(rng: np.random.Generator, mask: np.ndarray) -> tuple[str, object]:
    """A malformed or illegal action for a seat whose legal mask is ``mask`` (at least one legal action)."""
    n = len(mask)
    legal = np.flatnonzero(mask)
    a = int(legal[int(rng.integers(len(legal)))])
    illegal = np.flatnonzero(~mask)
    k = int(rng.integers(18 if len(illegal) else 15))
    if k == 0:
        return "out of range", n + int(rng.integers(3 * n))
    if k == 1:
        return "negative", -1 - int(rng.integers(n))
    if k == 2:
        return "past 32/64 bits", _pick(rng, [2**31, 2**32 + a, 2**63, 2**64 + a, -(2**63) - 1, 10**30])
    if k == 3:
        return "integer-valued float", float(a)
    if k == 4:
        return "fractional float", a + 0.5
    if k == 5:
        return "nan or inf", _pick(rng, [float("nan"), float("inf"), -float("inf")])
    if k == 6:
        return "bool", bool(rng.integers(2))
    if k == 7:
        return "numpy bool", np.bool_(bool(rng.integers(2)))
    if k == 8:
        return "numpy float", _pick(rng, [np.float64(a), np.float32(a + 0.5)])
    if k == 9:
        return "string", _pick(rng, [str(a), "", "a1", f" {a} "])
    if k == 10:
        return "None", None
    if k == 11:
        return "list", _pick(rng, [[a], (a,), []])
    if k == 12:
        return "0-d array out of range", np.array(_pick(rng, [n, -1, n + 7]))
    if k == 13:
        return "0-d float array", np.array(float(a))
    if k == 14:
        return "numpy int out of range", _pick(rng, [np.int64(n), np.int64(-1), np.int32(-5), np.uint64(2**63)])
    i = int(illegal[int(rng.integers(len(illegal)))])
    if k == 15:
        return "illegal", i
    if k == 16:
        return "illegal numpy int", _pick(rng, [np.int64(i), np.int32(i), np.uint16(i) if i < 2**16 else np.int64(i)])
    return "illegal 0-d array", np.array(i)


def action_form(rng: np.random.Generator, a: int):
    """Legal action ``a`` in a form that must be accepted like the int: the int, a numpy
    integer scalar or a 0-d integer array."""
    k = int(rng.integers(6))
    if k == 0:
        return np.int64(a)
    if k == 1:
        return np.int32(a)
    if k == 2:
        return np.array(a)
    if k == 3 and a < 2**15:
        return np.array(a, dtype=np.int16)
    return int(a)


def bad_seat(rng: np.random.Generator, num_seats: int) -> tuple[str, object]:
    """A value that is not a seat of a ``num_seats``-seat game (None excluded: it means the seat to act)."""
    return "seat", _pick(
        rng,
        [
            -1,
            num_seats,
            num_seats + 3,
            2**40,
            float(0),
            1.0,
            True,
            False,
            "0",
            "player_0",
            np.float64(0),
            np.int64(num_seats),
            [0],
        ],
    )


def move_text(rng: np.random.Generator, legal_text: str) -> tuple[str, object]:
    """A move string for ``text_to_action``: garbage, no string at all, or ``legal_text`` mutated."""
    k = int(rng.integers(4))
    if k == 0:
        return "not a string", _pick(rng, [None, 3, 3.5, b"a1", ["a1"], True])
    if k == 1:
        return "garbage move", _pick(
            rng,
            [
                "",
                " ",
                "-",
                ">",
                "a",
                "z9",
                "a0",
                "a1-",
                "-a1",
                "a1-b2-c3",
                ">>a1",
                "stay?",
                "a" * 200,
                "1a",
                "a\u0663",
                "a\u00b2",
                "A\u00b9",
                "|",
                "a1 | b2 | c3",
            ],
        )
    if k == 2:
        return "random move", "".join(_pick(rng, _CHARS) for _ in range(int(rng.integers(1, 9))))
    return "mutated move", _mutate(rng, legal_text, 1)


def position_text(rng: np.random.Generator, valid: str) -> tuple[str, object]:
    """A position for ``Game.from_text``: garbage, no string at all, or the valid position ``valid``
    mutated (a mutation may still be a valid position)."""
    k = int(rng.integers(8))
    if k == 0:
        return "not a string", _pick(rng, [None, 42, valid.encode(), [valid], {"position": valid}])
    if k == 1:
        name = valid.split()[0]
        return "garbage position", _pick(
            rng,
            [
                "",
                " ",
                "nonsense",
                name,
                name + " ",
                valid + " extra=1",
                "x" * 5000,
                valid + " " + valid.split()[-1],
                valid.upper(),
                valid.replace(" ", "  "),
                valid.replace(" ", "\t"),
            ],
        )
    return "mutated position", _mutate(rng, valid, int(rng.integers(1, 4)))


_ASCII_DIGITS = frozenset("0123456789")


def _mutate(rng: np.random.Generator, text: str, times: int) -> str:
    """``text`` with ``times`` random edits: a character deleted, inserted or replaced, a number made
    huge, negative or non-ASCII, a token dropped, doubled or swapped, a field's value moved to another."""
    for _ in range(times):
        tokens = text.split(" ")
        k = int(rng.integers(9))
        if k <= 2 and text:
            i = int(rng.integers(len(text)))
            c = _pick(rng, _CHARS)
            text = text[:i] + text[i + 1 :] if k == 0 else text[:i] + c + text[i + (k == 2) :]
        elif k == 3 or k == 4:  # a digit run replaced
            # ASCII digits only: an earlier edit may have put a superscript or another script's digit
            # in the text, which str.isdigit() accepts but int() does not
            digits = _ASCII_DIGITS
            runs = [i for i, ch in enumerate(text) if ch in digits and (i == 0 or text[i - 1] not in digits)]
            if runs:
                i = _pick(rng, runs)
                j = i
                while j < len(text) and text[j] in _ASCII_DIGITS:
                    j += 1
                new = _pick(rng, _BIG_NUMBERS) if k == 3 else str(int(text[i:j]) + int(rng.integers(-3, 4)))
                text = text[:i] + new + text[j:]
        elif k == 5 and len(tokens) > 1:
            del tokens[int(rng.integers(1, len(tokens)))]
            text = " ".join(tokens)
        elif k == 6:
            i = int(rng.integers(len(tokens)))
            tokens.insert(i, tokens[i])
            text = " ".join(tokens)
        elif k == 7 and len(tokens) > 2:
            i, j = rng.integers(len(tokens), size=2)
            tokens[i], tokens[j] = tokens[j], tokens[i]
            text = " ".join(tokens)
        elif k == 8:  # a field that a finished or another position has
            extra = _pick(
                rng,
                [
                    "over=draw",
                    "over=limit",
                    "over=win:0",
                    "over=win:1",
                    "turn=0",
                    "turn=99999",
                    "limit=1",
                    "limit=3",
                    "move=1",
                    "last=a1",
                    "last=a1-b2",
                    "over=super:0:L9",
                ],
            )
            key = extra.partition("=")[0] + "="
            kept = [t for t in tokens if not t.startswith(key)] if rng.integers(2) else tokens
            text = " ".join(kept + [extra])
    return text
