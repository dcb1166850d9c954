"""Reading game options given as text (``KEY=VALUE``), for every command line of the project
(:mod:`boardgames.training.cli` builds on it; ``boardgames replay`` uses it directly)."""

from __future__ import annotations

import ast

MAX_VALUE_CHARS = 1000
"""The longest value a ``KEY=VALUE`` item may have (no option or setting needs more; a longer literal could
make Python's parser spend unbounded memory)."""


def parse_value(text: str):
    """``text`` as a Python literal when it is one, ``true``/``false`` as booleans, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):  # the last two: nested too deep to parse
        return {"true": True, "false": False}.get(text.strip().lower(), text)


def parse_assignment(item: str, flag: str) -> tuple[str, object]:
    """``(key, value)`` from ``KEY=VALUE``; SystemExit naming ``flag`` when there is no ``=``."""
    key, eq, value = item.partition("=")
    if not eq or not key.strip():
        raise SystemExit(f"{flag} takes KEY=VALUE, got {item[:80]!r}")
    if len(value) > MAX_VALUE_CHARS:
        raise SystemExit(
            f"{flag} {key.strip()[:40]}=...: the value has {len(value)} characters, more than {MAX_VALUE_CHARS}"
        )
    return key.strip(), parse_value(value)


def parse_options(items: list | None, players: int | None = None) -> dict:
    """The game options of ``--option KEY=VALUE`` items, plus ``num_players`` from ``--players``."""
    options = dict(parse_assignment(item, "--option") for item in items or [])
    if players is not None:
        options["num_players"] = players
    return options
