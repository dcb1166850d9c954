"""What every command line of the project shares: ``--game``, ``--players`` and ``--option KEY=VALUE``
for the game, whole-number flags, and one reading of their values (``--set SECTION.KEY=VALUE`` and the
checks of settings are :mod:`boardgames.training.settings`'s, re-exported here).

A value is read as a Python literal when it is one (``3``, ``1e-4``, ``True``, ``[64, 64]``,
``'text'``), ``true``/``false`` in any case as booleans, and as the plain string otherwise, so
``--option max_turns=100`` gives the int 100 and ``--set algo.net_arch=[128,128]`` a list, in every
command (train, evaluate, play, benchmarks; ``boardgames replay`` reads its options with the
same :mod:`boardgames.envs.core.options`, since ``envs`` never imports ``training``). The commands that run a
network share ``--torch-threads N`` too (:func:`add_torch_threads_argument`, :func:`apply_torch_threads`, from
:mod:`boardgames.training.torch_threads`).
"""

from __future__ import annotations

import argparse
from typing import Any

from boardgames.envs.core.options import parse_assignment, parse_options, parse_value
from boardgames.envs.registry import game_names
from boardgames.training.settings import SettingError, check_count, check_number, parse_sets
from boardgames.training.torch_threads import add_torch_threads_argument, apply_torch_threads

__all__ = [
    "SettingError",
    "add_game_arguments",
    "add_torch_threads_argument",
    "apply_torch_threads",
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


def add_game_arguments(parser: argparse.ArgumentParser, default: str | None = "dorix", choices: bool = True) -> None:
    """``--game``, ``--players`` and ``--option`` on ``parser`` (``default=None`` makes ``--game``
    required)."""
    kwargs: dict[str, Any] = {"choices": game_names()} if choices else {}
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
