"""The settings of a training run, shared by every family (SB3, AlphaZero, RLlib): reading
``training/configs/<game>.toml``, the ``--config FILE`` and ``--set SECTION.KEY=VALUE`` given on top of it,
and the checks that name a setting and its range when a value cannot be used.

A game's config file holds one section per concern (``[train]``, ``[opponents]``, ``[algo]``, ``[pretrain]``
for the SB3 trainer, ``[alphazero]`` for AlphaZero) and ``[override."KEY=VALUE".<section>]`` tables that
apply when the game option ``KEY`` has that value (``[override."num_players=4".algo]``); games without a file
of their own use ``default.toml``. :func:`load_config` merges, in order: the game's file, its overrides for
the run's game options, ``--config FILE``, then the ``--set`` items.
"""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser as the tomli package (the train extra installs it)
    import tomli as tomllib

from boardgames.envs.core.options import parse_assignment

__all__ = [
    "CONFIG_DIR",
    "SettingError",
    "check_count",
    "check_number",
    "config_section",
    "explicit_settings",
    "load_config",
    "merge_settings",
    "parse_sets",
]

CONFIG_DIR = Path(__file__).resolve().parent / "configs"
"""The per-game config files (``<game>.toml``, ``default.toml``)."""


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


def parse_sets(items: list | None) -> list[tuple[str, str, object]]:
    """``(section, key, value)`` of each ``--set SECTION.KEY=VALUE`` item (the value read as
    :func:`boardgames.envs.core.options.parse_value` reads it)."""
    out = []
    for item in items or []:
        dotted, value = parse_assignment(item, "--set")
        section, dot, key = dotted.partition(".")
        if not dot or not section or not key:
            raise SystemExit(f"--set takes section.key=value, got {item!r}")
        out.append((section, key, value))
    return out


def merge_settings(base: dict, extra: dict) -> dict:
    """A copy of ``base`` with ``extra`` merged in, table by table (a value of ``extra`` replaces
    ``base``'s; tables present in both are merged the same way)."""
    out = copy.deepcopy(base)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge_settings(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def explicit_settings(config_file: str | None = None, sets: list | None = None) -> dict:
    """The settings given for this run only: ``config_file`` then the ``section.key=value`` of ``sets``."""
    cfg = {}
    if config_file:
        with open(config_file, "rb") as f:
            cfg = tomllib.load(f)
    for section, key, value in parse_sets(sets):
        cfg.setdefault(section, {})[key] = value
    return cfg


def load_config(game: str, game_options: dict, config_file: str | None = None, sets: list | None = None) -> dict:
    """The settings of a run: the game's config file, its overrides for ``game_options``, ``config_file``
    and the ``section.key=value`` strings of ``sets``, in that order (the SB3 trainer's sections ``train``,
    ``opponents`` and ``algo`` always present)."""
    path = CONFIG_DIR / f"{game}.toml"
    if not path.exists():
        path = CONFIG_DIR / "default.toml"
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    overrides = cfg.pop("override", {})
    for cond, extra in overrides.items():
        key, _, value = cond.partition("=")
        if key in game_options and str(game_options[key]) == value:
            cfg = merge_settings(cfg, extra)
    cfg = merge_settings(cfg, explicit_settings(config_file, sets))
    for section in ("train", "opponents", "algo"):
        cfg.setdefault(section, {})
    return cfg


def config_section(game: str, game_options: dict, section: str) -> dict:
    """One section of the game's settings (:func:`load_config` without a config file or ``--set``): a
    family's own table, such as ``[alphazero]``; empty when the file has none."""
    return dict(load_config(game, game_options).get(section, {}))
