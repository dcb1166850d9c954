"""Registers every game with PettingZoo's and Gymnasium's registries (done on ``import boardgames.envs``).

* PettingZoo: ``pettingzoo.make("aec", "boardgames/dorix-v0", num_players=3)``, and for the games whose
  seats act at once (:func:`boardgames.envs.registry.parallel_games`) also
  ``pettingzoo.make("parallel", "boardgames/barc-v1")``;
* Gymnasium (single-agent, the other seats played by opponents):
  ``gymnasium.make("boardgames/dorix-v0", game_options={"num_players": 3}, opponent="greedy")``;
* Gymnasium vector: ``gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)`` builds the compiled
  batch :class:`boardgames.envs.vector.BatchedVectorEnv` (random opponents or a batch callback, autoreset in the
  same step); ``vectorization_mode="sync"`` or ``"async"`` vectorizes :class:`SingleAgentEnv` instead.

Entry points are strings; which games get a Parallel entry is read from their GameInfo. Every version of a
game is registered: ``boardgames/barc-v1`` (current) and ``boardgames/barc-v0`` (kept for older results, its
module's defaults: the corners start).
"""

from __future__ import annotations

import gymnasium

from boardgames.envs.registry import ENV_MODULES, current_version, env_modules, parallel_games

NAMESPACE = "boardgames"


def env_id(name: str, version: int | None = None) -> str:
    """Registry id of game ``name`` at ``version`` (None: its current one), the same in PettingZoo and Gymnasium."""
    return f"{NAMESPACE}/{name}-v{current_version(name) if version is None else version}"


def register_all() -> None:
    """Register every game in ``boardgames.envs.registry`` once."""
    from pettingzoo.env_registry.registration import aec_registry, register  # PettingZoo >= 1.27

    for name in ENV_MODULES:
        for version, module in env_modules(name).items():
            eid = env_id(name, version)
            if eid not in aec_registry:
                register("aec", eid, entry_point=f"{module}:env")
                if name in parallel_games():
                    register("parallel", eid, entry_point=f"{module}:parallel_env")
            if eid not in gymnasium.registry:
                # an older version: its module's defaults (make_game("barc-v0"))
                kwargs = {"game": name if version == current_version(name) else f"{name}-v{version}"}
                gymnasium.register(
                    id=eid,
                    entry_point="boardgames.envs.adapters.single_agent:SingleAgentEnv",
                    vector_entry_point="boardgames.envs.vector.gym_vector:BatchedVectorEnv",
                    kwargs=kwargs,
                )
