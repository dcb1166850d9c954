"""Reading game options given as text (``KEY=VALUE``), for every command line of the project
(:mod:`boardgames.training.cli` builds on it; ``boardgames replay`` uses it directly)."""

from __future__ import annotations

import ast


def parse_value(text: str):
    """``text`` as a Python literal when it is one, ``true``/``false`` as booleans, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return {"true": True, "false": False}.get(text.strip().lower(), text)


def parse_assignment(item: str, flag: str) -> tuple[str, object]:
    """``(key, value)`` from ``KEY=VALUE``; SystemExit naming ``flag`` when there is no ``=``."""
    key, eq, value = item.partition("=")
    if not eq or not key.strip():
        raise SystemExit(f"{flag} takes KEY=VALUE, got {item!r}")
    return key.strip(), parse_value(value)


def parse_options(items: list | None, players: int | None = None) -> dict:
    """The game options of ``--option KEY=VALUE`` items, plus ``num_players`` from ``--players``."""
    options = dict(parse_assignment(item, "--option") for item in items or [])
    if players is not None:
        options["num_players"] = players
    return options
