"""The self-play opponent pool and the callback that feeds it snapshots of the learner.

Each episode of :class:`boardgames.envs.adapters.single_agent.SingleAgentEnv` asks its pool for the opponent
policy (``pool.sample(rng)``): the random agent, the greedy baseline or one of the earlier snapshots
of the learner, with weights from the game's config. At team games the learner's partner is
``pool.partner``, the latest snapshot of the learner (played stochastically).

Snapshots are copies of the learner's policy network taken every ``snapshot_every`` steps by
:class:`SnapshotCallback` and sent to every environment with ``env_method`` (so a subprocess
vectorized env works too); the pool keeps the latest ``max_snapshots``.
"""

from __future__ import annotations

import copy

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.agents import GreedyAgent, RandomAgent
from boardgames.training.sb3.agent import PolicyAgent


class OpponentPool:
    """Random, greedy and learner snapshots, drawn with the given weights."""

    def __init__(self, game, weights: dict | None = None, max_snapshots: int = 5):
        self.weights = {"random": 1.0, "greedy": 1.0, "snapshot": 1.0, **(weights or {})}
        self.max_snapshots = int(max_snapshots)
        self.random = RandomAgent()
        self.greedy = GreedyAgent(game)
        self.snapshots: list[PolicyAgent] = []
        self.partner = _LatestSnapshot(self)

    def add_snapshot(self, policy) -> None:
        self.snapshots.append(PolicyAgent(policy, deterministic=False, name=f"snapshot{len(self.snapshots)}"))
        self.snapshots = self.snapshots[-self.max_snapshots :]

    def sample(self, rng: np.random.Generator):
        kinds = [k for k in ("random", "greedy", "snapshot") if self.weights.get(k, 0) > 0]
        if not self.snapshots and "snapshot" in kinds:
            kinds.remove("snapshot")
        if not kinds:
            kinds = ["random"]
        w = np.array([self.weights[k] for k in kinds], dtype=float)
        kind = kinds[int(rng.choice(len(kinds), p=w / w.sum()))]
        if kind == "snapshot":
            return self.snapshots[int(rng.integers(len(self.snapshots)))]
        return self.random if kind == "random" else self.greedy


class _LatestSnapshot:
    """The partner at team games: the latest learner snapshot (random before the first one)."""

    def __init__(self, pool: OpponentPool):
        self.pool = pool

    def sample(self, rng):
        return self.pool.snapshots[-1] if self.pool.snapshots else self.pool.random


class SelfPlayEnv(SingleAgentEnv):
    """:class:`SingleAgentEnv` whose opponents come from an :class:`OpponentPool` and whose partners
    (team games) are the latest learner snapshot; ``add_snapshot`` is called through ``env_method``."""

    def __init__(
        self,
        game: str,
        game_options: dict | None = None,
        weights: dict | None = None,
        max_snapshots: int = 5,
        learner_seat: int | None = None,
        illegal_action: str = "raise",
    ):
        super().__init__(
            game=game,
            game_options=game_options,
            opponent="random",
            learner_seat=learner_seat,
            illegal_action=illegal_action,
        )
        self.pool = OpponentPool(self.game, weights, max_snapshots)
        self.set_opponent(self.pool)
        self.set_partner(self.pool.partner)

    def add_snapshot(self, policy) -> None:
        self.pool.add_snapshot(policy)


class SnapshotCallback(BaseCallback):
    """Every ``every`` steps, copy the learner's policy into every environment's opponent pool."""

    def __init__(self, every: int):
        super().__init__()
        self.every = int(every)
        self.last = 0

    def _on_training_start(self) -> None:
        self._snapshot()

    def _on_step(self) -> bool:
        if self.num_timesteps - self.last >= self.every:
            self._snapshot()
        return True

    def _snapshot(self) -> None:
        self.last = self.num_timesteps
        policy = copy.deepcopy(self.model.policy).to("cpu")
        policy.set_training_mode(False)
        for i in range(self.training_env.num_envs):
            self.training_env.env_method("add_snapshot", policy, indices=[i])
