"""The list of games in the library: name -> environment module.

Each module ``envs.<name>_v<N>`` (the game's current version)
provides ``make_game(**options) -> Game`` (the rules engine alone),
``raw_env(**options)`` and ``env(**options)`` (PettingZoo AEC), and for the games whose seats act at
once (``GameInfo.acting_seats`` > 1, see :func:`parallel_games`) ``parallel_env(**options)`` (PettingZoo
Parallel). Shared tests, training, evaluation and benchmarks
iterate over this registry, so a new game is added here once.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from functools import cache
from types import ModuleType

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import State
from boardgames.envs.core.kernel_state import KernelGame

ENV_MODULES = {
    "dorix": "boardgames.envs.dorix_v0",
    "olix": "boardgames.envs.olix_v0",
    "adix": "boardgames.envs.adix_v0",
    "barc": "boardgames.envs.barc_v1",
}
"""Each game's current environment module (the newest version: ``make_game("barc")`` is ``barc_v1``'s)."""

OLDER_VERSIONS = {"barc": {0: "boardgames.envs.barc_v0"}}
"""Environment modules replaced by a newer version, kept importable and registered for reproducing older
results: game -> {version: module}."""


def current_version(name: str) -> int:
    """The version number of game ``name``'s current environment module (``barc_v1`` -> 1)."""
    return int(ENV_MODULES[name].rpartition("_v")[2])


def env_modules(name: str) -> dict[int, str]:
    """Every registered version of game ``name``: version -> module name, the current one last."""
    return {**OLDER_VERSIONS.get(name, {}), current_version(name): ENV_MODULES[name]}


def game_names() -> list[str]:
    """Names of every registered game."""
    return list(ENV_MODULES)


def env_module(name: str) -> ModuleType:
    """The environment module of game ``name`` (e.g. ``boardgames.envs.dorix_v0``): its current version, or the version
    a ``-v<N>`` suffix names (``"barc-v0"``, as in the registry id ``boardgames/barc-v0``)."""
    game, dash, version = name.rpartition("-v")
    if dash and game in ENV_MODULES and version.isdigit():
        modules = env_modules(game)
        if int(version) not in modules:
            known = ", ".join(f"{game}-v{v}" for v in modules)
            raise GameOptionError(f"{game} has no version {version}; its versions: {known}")
        return importlib.import_module(modules[int(version)])
    if name not in ENV_MODULES:
        raise GameOptionError(f"unknown game {name!r}; known games: {', '.join(ENV_MODULES)}")
    return importlib.import_module(ENV_MODULES[name])


def game_option_names(name: str) -> list[str]:
    """The options game ``name`` takes (the parameters of its module's ``make_game``)."""
    return list(inspect.signature(env_module(name).make_game).parameters)


def make_game(name: str, **options) -> KernelGame:
    """The rules engine of game ``name`` with ``options`` (e.g. ``num_players=3`` for Dorix); ``name`` may
    name an older version (``"barc-v0"``: its module's defaults). GameOptionError for an option the game
    does not have."""
    known = game_option_names(name)
    unknown = [k for k in options if k not in known]
    if unknown:
        raise GameOptionError(f"{name} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(known)}")
    return env_module(name).make_game(**options)


@cache
def _acts_at_once(name: str) -> bool:
    return make_game(name).info.acting_seats > 1


def parallel_games() -> frozenset[str]:
    """The games with a PettingZoo Parallel environment: those whose seats act at once, as their
    :class:`~boardgames.envs.core.game.GameInfo` says (with their default options)."""
    return frozenset(name for name in ENV_MODULES if _acts_at_once(name))


@cache
def _heuristic(name: str) -> Callable[[State, int], float]:
    return make_game(name).heuristic


class _Heuristics(Mapping):
    """Game name -> the game's position score for the greedy agent, ``heuristic(state, seat) -> float``
    (higher is better for ``seat``): what each game's class names (``<Game>.heuristic``, from
    ``envs/<game>/heuristic.py``), for every registered game, read from the game on first use."""

    def __getitem__(self, name: str) -> Callable[[State, int], float]:
        if name not in ENV_MODULES:
            raise KeyError(name)
        return _heuristic(name)

    def __iter__(self):
        return iter(ENV_MODULES)

    def __len__(self) -> int:
        return len(ENV_MODULES)


HEURISTICS: Mapping[str, Callable[[State, int], float]] = _Heuristics()
"""Every registered game's heuristic by name (``HEURISTICS["dorix"]`` is ``DorixGame.heuristic``)."""


def __getattr__(attr: str):
    if attr == "SIMULTANEOUS_GAMES":  # the former constant, now derived from GameInfo
        return set(parallel_games())
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
