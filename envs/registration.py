"""Registers every game with PettingZoo's and Gymnasium's registries (done on ``import boardgames.envs``).

* PettingZoo (1.27 and later, whose env registry this is; with 1.24 to 1.26 the environment modules are
  imported directly): ``pettingzoo.make("aec", "boardgames/dorix-v0", num_players=3)``, and for the games whose
  seats act at once (:func:`boardgames.envs.registry.parallel_games`) also
  ``pettingzoo.make("parallel", "boardgames/barc-v1")``;
* Gymnasium (single-agent, the other seats played by opponents):
  ``gymnasium.make("boardgames/dorix-v0", num_players=3, opponent="greedy")`` (the game's options as
  keywords, as PettingZoo takes them, or ``game_options={"num_players": 3}``);
* Gymnasium vector: ``gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)`` builds the compiled
  batch :class:`boardgames.envs.vector.BatchedVectorEnv` (random opponents or a batch callback; the game's
  options as keywords too), autoreset ``NEXT_STEP`` as Gymnasium's own vector envs, so that its vector
  wrappers (``FlattenObservation``...) take it as it is; ``autoreset_mode=AutoresetMode.SAME_STEP`` (or
  ``"same_step"``; a keyword: Gymnasium refuses ``vector_kwargs`` for every vector entry point) for loops
  written the Stable-Baselines3 way. ``vectorization_mode="sync"`` or ``"async"`` vectorizes
  :class:`SingleAgentEnv` instead (``NEXT_STEP``, or ``vector_kwargs={"autoreset_mode": ...}``).

**Episode lengths** (``env.spec.max_episode_steps``): every environment that ``gymnasium.make`` or
``make_vec`` builds reports its game's turn limit (Dorix 200, Olix 92, ADIX 300, Barc 200, or the
``max_turns`` it was given), an upper bound on its episodes' steps, since every learner step plays at least
one turn; the game's own truncation ends the episode there. The registration itself leaves
``max_episode_steps`` None on purpose: with a number there, ``gymnasium.make`` would wrap every environment
in a ``TimeLimit`` of that many steps whatever ``max_turns`` it is given, and cut a longer game short
(Gymnasium reads the registered number before the environment is built, and no option can lift it but
``gymnasium.make(..., max_episode_steps=...)``); a shorter game would end by its own limit anyway.
``gymnasium.make(id, max_episode_steps=n)`` still adds Gymnasium's ``TimeLimit`` for a cut of one's own
(then reported). See :func:`with_turn_limit`.

A turn-based game has no Parallel form: ``pettingzoo.make("parallel", "boardgames/dorix-v0")`` raises
:class:`NoParallelFormError` naming the games that have one and pointing to ``"aec"`` (its Parallel entry
exists for that message alone, rather than PettingZoo's list of every registered environment).

Entry points are strings, but for the Parallel ones, which decide when asked (:func:`parallel_form`), so
that registering builds no game. Every version of a game is registered: ``boardgames/barc-v1`` (current) and
``boardgames/barc-v0`` (kept for older results, its module's defaults: the corners start).
"""

from __future__ import annotations

import functools
import importlib
from typing import NoReturn

import gymnasium

from boardgames.envs.adapters.env_common import with_turn_limit  # noqa: F401 (the spec rule; said above)
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registry import ENV_MODULES, current_version, env_modules, parallel_games

NAMESPACE = "boardgames"


class NoParallelFormError(GameOptionError):
    """A turn-based game asked for in PettingZoo's Parallel form, which only games whose seats act at once have."""


def refuse_parallel(env_id_: str, **_options) -> NoReturn:
    """The Parallel entry of a turn-based game: raises :class:`NoParallelFormError` saying what to ask for instead."""
    with_parallel = [env_id(name, version) for name in parallel_games() for version in env_modules(name)]
    raise NoParallelFormError(
        f"{env_id_} is turn-based: it has no Parallel form (PettingZoo's Parallel API is for games whose "
        f'players all act at once). Use pettingzoo.make("aec", "{env_id_}"). Games with a Parallel form: '
        f"{', '.join(with_parallel) or 'none'}."
    )


def parallel_form(module: str, env_id_: str, **options):
    """The Parallel entry of every game: the module's ``parallel_env`` for a game whose seats act at once,
    :func:`refuse_parallel` for a turn-based one. Deciding when asked, not when registering, keeps
    ``import boardgames.envs`` from building every game (and so a command's ``--help`` quick)."""
    parallel_env = getattr(importlib.import_module(module), "parallel_env", None)
    if parallel_env is None:
        refuse_parallel(env_id_)
    return parallel_env(**options)


def batched_vector_env(
    game: str = "dorix",
    num_envs: int = 64,
    game_options: dict | None = None,
    max_episode_steps: int | None = None,
    **keywords,
):
    """The vector entry point: :class:`boardgames.envs.vector.BatchedVectorEnv`, the game's options taken as
    keywords too (``gymnasium.make_vec("boardgames/dorix-v0", num_envs=8, num_players=3)``), and its own
    (``autoreset_mode="same_step"``, ``opponent``, ``threads``...). ``max_episode_steps`` (which
    ``make_vec`` passes on to a vector entry point when asked for it, or when a spec carries it): the batch
    ends its games at their turn limit, so a number at or above it changes nothing and a smaller one is
    refused (GameOptionError: give ``max_turns`` instead)."""
    from boardgames.envs.adapters.single_agent import merge_game_options
    from boardgames.envs.registry import game_option_names
    from boardgames.envs.vector import BatchedVectorEnv

    known = game_option_names(game)
    options = {k: keywords.pop(k) for k in list(keywords) if k in known}
    if options:
        game_options = merge_game_options(game, game_options, options)
    envs = BatchedVectorEnv(game, num_envs, game_options=game_options, **keywords)
    limit = envs.batch.game.info.max_turns
    if max_episode_steps is not None and not (isinstance(max_episode_steps, int) and max_episode_steps >= limit):
        raise GameOptionError(
            f"max_episode_steps={max_episode_steps!r}: the compiled batch ends its games at their turn limit "
            f"({limit}, an upper bound on their learner steps) and cannot cut them sooner; give max_turns=<n> "
            'for shorter games, or vectorization_mode="sync" for Gymnasium\'s TimeLimit on each game'
        )
    return envs


def env_id(name: str, version: int | None = None) -> str:
    """Registry id of game ``name`` at ``version`` (None: its current one), the same in PettingZoo and Gymnasium."""
    return f"{NAMESPACE}/{name}-v{current_version(name) if version is None else version}"


def pettingzoo_registry():
    """PettingZoo's ``(aec_registry, register)`` (its env registry, PettingZoo 1.27 and later), or None with
    an older PettingZoo (1.24 to 1.26), which has no registry: there the games are imported as modules
    (``from boardgames.envs import dorix_v0``), as PettingZoo's own were, and everything else works alike."""
    try:
        from pettingzoo.env_registry.registration import aec_registry, register
    except ImportError:
        return None
    return aec_registry, register


def register_all() -> None:
    """Register every game in ``boardgames.envs.registry`` once (with PettingZoo where it has a registry)."""
    registry = pettingzoo_registry()
    for name in ENV_MODULES:
        for version, module in env_modules(name).items():
            eid = env_id(name, version)
            if registry is not None and eid not in registry[0]:
                register = registry[1]
                register("aec", eid, entry_point=f"{module}:env")
                register("parallel", eid, entry_point=functools.partial(parallel_form, module, eid))
            if eid not in gymnasium.registry:
                # an older version: its module's defaults (make_game("barc-v0"))
                kwargs = {"game": name if version == current_version(name) else f"{name}-v{version}"}
                gymnasium.register(
                    id=eid,
                    entry_point="boardgames.envs.adapters.single_agent:SingleAgentEnv",
                    vector_entry_point="boardgames.envs.registration:batched_vector_env",
                    kwargs=kwargs,
                )
