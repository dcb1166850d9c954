"""Which environment version a saved model was trained on, and the check that refuses it on another.

A game whose rules change gets a new environment version (``boardgames/barc-v0`` -> ``barc-v1``, see
:attr:`boardgames.envs.core.game.Game.version`); a model trained on one version learned other dynamics, so every kind
of saved model (SB3 ``meta.json`` / ``run.json``, AlphaZero ``alphazero.json``, RLlib ``policy.pt`` and
``run.json``) records ``env_version`` beside its game and options, and loading it for a game of another
version raises :class:`ModelVersionError` naming both. Files written before versions were recorded have
none: every game was at version 0 then.
"""

from __future__ import annotations

from boardgames.envs.core.game import Game

VERSION_KEY = "env_version"
MAX_VERSION = 1000


class ModelVersionError(ValueError):
    """A model trained on one version of a game's environment, loaded for another version."""


def version_record(game: Game) -> dict:
    """What a saved model records of the environment version it is trained on."""
    return {VERSION_KEY: int(game.version)}


def model_version(meta: dict) -> int:
    """The environment version recorded in a model's metadata (0 when none was recorded);
    :class:`ModelVersionError` when what is recorded is not a version number."""
    from boardgames.envs.core.game import is_integer

    version = meta.get(VERSION_KEY, 0)
    if not is_integer(version) or not 0 <= version <= MAX_VERSION:
        shown = str(version)[:80]
        raise ModelVersionError(f"the model's {VERSION_KEY} is not a version number (0..{MAX_VERSION}): {shown!r}")
    return int(version)


def env_name(game_name: str, version: int) -> str:
    """The registry id of ``game_name`` at ``version`` (``boardgames/barc-v1``)."""
    from boardgames.envs.registration import env_id

    return env_id(game_name, version)


def model_game(game_name: str, options: dict, meta: dict) -> Game:
    """The game a model with metadata ``meta`` was trained on: ``game_name`` with ``options`` at the
    recorded version (an older version's module supplies its own defaults, e.g. barc_v0's start)."""
    from boardgames.envs.core.errors import GameOptionError
    from boardgames.envs.registry import ENV_MODULES, current_version, make_game

    if not isinstance(game_name, str) or game_name not in ENV_MODULES:
        raise ModelVersionError(f"the model names no game of this library: {str(game_name)[:80]!r}")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise ModelVersionError(f"the model's game options are not a table of options: {str(options)[:80]!r}")
    version = model_version(meta)
    name = game_name if version == current_version(game_name) else f"{game_name}-v{version}"
    try:
        return make_game(name, **options)
    except (GameOptionError, TypeError, ValueError, OverflowError) as e:
        raise ModelVersionError(f"the model's game {name} {str(options)[:80]} cannot be made: {e}") from None


def check_model_version(meta: dict, game: Game, model: str) -> None:
    """:class:`ModelVersionError` unless the model ``model`` (its metadata ``meta``) was trained on the
    version of ``game``'s environment."""
    trained, wanted = model_version(meta), int(game.version)
    if trained != wanted:
        name = game.info.name
        options = ", ".join(f"{k}={v!r}" for k, v in game.info.options.items())
        raise ModelVersionError(
            f"model {model} was trained on {env_name(name, trained)}, but this game is {env_name(name, wanted)} "
            f"({options}): the dynamics differ, so the model is refused; play it on {env_name(name, trained)} "
            f"or train one on {env_name(name, wanted)}"
        )
