"""What every command line of the project shares: ``--game``, ``--players`` and ``--option KEY=VALUE``
for the game, ``--set SECTION.KEY=VALUE`` for settings, and one reading of their values.

A value is read as a Python literal when it is one (``3``, ``1e-4``, ``True``, ``[64, 64]``,
``'text'``), ``true``/``false`` in any case as booleans, and as the plain string otherwise, so
``--option max_turns=100`` gives the int 100 and ``--set algo.net_arch=[128,128]`` a list, in every
command (train, evaluate, play, benchmarks; ``boardgames replay`` reads its options with the
same :mod:`boardgames.envs.core.options`, since ``envs`` never imports ``training``).
"""

from __future__ import annotations

import argparse
import math

from boardgames.envs.core.options import parse_assignment, parse_options, parse_value
from boardgames.envs.registry import game_names

__all__ = [
    "SettingError",
    "add_game_arguments",
    "check_count",
    "check_number",
    "game_options_of",
    "parse_assignment",
    "parse_options",
    "parse_sets",
    "non_negative_int",
    "parse_value",
    "positive_int",
]


class SettingError(ValueError):
    """A command-line value or a setting that cannot be used (a step count below 1, a missing checkpoint,
    a network change on ``--resume``...). The commands print its message after their usage line and exit
    with status 2, like argparse does for a malformed flag."""


def check_count(name: str, value, low: int, high: int) -> int:
    """``value`` when it is a whole number in ``low..high``; else :class:`SettingError` naming the setting
    ``name`` and its range (``train.n_envs must be a whole number >= 1, got 0 (range 1..1024)``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SettingError(f"{name} must be a whole number >= {low}, got {value!r} (range {low}..{high})")
    if value > high:
        raise SettingError(f"{name} must be a whole number <= {high}, got {value!r} (range {low}..{high})")
    return value


def check_number(name: str, value, low: float, high: float, low_open: bool = False) -> float:
    """``value`` when it is a finite number in ``[low, high]`` (``(low, high]`` with ``low_open``); else
    :class:`SettingError` naming the setting ``name`` and its range."""
    span = f"{'(' if low_open else '['}{low:g}, {high:g}]"
    ok = (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and math.isfinite(value))
    if not ok or value < low or (low_open and value == low) or value > high:
        raise SettingError(f"{name} must be a number in {span}, got {value!r}")
    return value


def _count(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse ``type`` for a count that must be at least 1 (``--steps``, ``--games``)."""
    return _count(text, 1)


def non_negative_int(text: str) -> int:
    """argparse ``type`` for a count where 0 means none (``--pretrain-games 0``: no pretraining)."""
    return _count(text, 0)


def parse_sets(items: list | None) -> list[tuple[str, str, object]]:
    """``(section, key, value)`` of each ``--set SECTION.KEY=VALUE`` item."""
    out = []
    for item in items or []:
        dotted, value = parse_assignment(item, "--set")
        section, dot, key = dotted.partition(".")
        if not dot or not section or not key:
            raise SystemExit(f"--set takes section.key=value, got {item!r}")
        out.append((section, key, value))
    return out


def add_game_arguments(parser: argparse.ArgumentParser, default: str | None = "dorix", choices: bool = True) -> None:
    """``--game``, ``--players`` and ``--option`` on ``parser`` (``default=None`` makes ``--game``
    required)."""
    kwargs = {"choices": game_names()} if choices else {}
    if default is None:
        parser.add_argument("--game", required=True, **kwargs, help="registered game name")
    else:
        parser.add_argument("--game", default=default, **kwargs, help=f"registered game name (default {default})")
    parser.add_argument("--players", type=int, default=None, help="player count (games with a num_players option)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="another game option, e.g. max_turns=100"
    )


def game_options_of(args: argparse.Namespace) -> dict:
    """The game options given by :func:`add_game_arguments`'s flags."""
    return parse_options(args.option, args.players)
