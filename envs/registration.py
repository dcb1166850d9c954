"""Registers every game with PettingZoo's and Gymnasium's registries (done on ``import envs``).

* PettingZoo: ``pettingzoo.make("aec", "boardgames/dorix-v0", num_players=3)``, and for the games whose
  seats act at once (:func:`envs.registry.parallel_games`) also ``pettingzoo.make("parallel", "boardgames/barc-v0")``;
* Gymnasium (single-agent, the other seats played by opponents):
  ``gymnasium.make("boardgames/dorix-v0", game_options={"num_players": 3}, opponent="greedy")``;
* Gymnasium vector: ``gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)`` builds the compiled
  batch :class:`envs.vector.BatchedVectorEnv` (random opponents or a batch callback, autoreset in the
  same step); ``vectorization_mode="sync"`` or ``"async"`` vectorizes :class:`SingleAgentEnv` instead.

Entry points are strings; which games get a Parallel entry is read from their GameInfo.
"""

from __future__ import annotations

import gymnasium

from envs.registry import ENV_MODULES, parallel_games

NAMESPACE = "boardgames"


def env_id(name: str) -> str:
    """Registry id of game ``name`` (the same in PettingZoo and Gymnasium)."""
    return f"{NAMESPACE}/{name}-v0"


def register_all() -> None:
    """Register every game in ``envs.registry`` once."""
    from pettingzoo.env_registry.registration import aec_registry, register  # PettingZoo >= 1.27

    for name, module in ENV_MODULES.items():
        eid = env_id(name)
        if eid not in aec_registry:
            register("aec", eid, entry_point=f"{module}:env")
            if name in parallel_games():
                register("parallel", eid, entry_point=f"{module}:parallel_env")
        if eid not in gymnasium.registry:
            gymnasium.register(
                id=eid,
                entry_point="envs.core.single_agent:SingleAgentEnv",
                vector_entry_point="envs.vector.gym_vector:BatchedVectorEnv",
                kwargs={"game": name},
            )
