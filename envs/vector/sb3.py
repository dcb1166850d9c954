"""A Stable-Baselines3 ``VecEnv`` over :class:`boardgames.envs.vector.batch.LearnerBatch`, with ``action_masks()``
for sb3-contrib's MaskablePPO (needs the ``train`` extra: stable-baselines3).

    from sb3_contrib import MaskablePPO
    from boardgames.envs.vector.sb3 import BatchedVecEnv
    venv = BatchedVecEnv("dorix", num_envs=64, opponent="random")
    MaskablePPO("MlpPolicy", venv).learn(100_000)

SB3's conventions: an ended game restarts inside the step, ``infos[i]["terminal_observation"]`` holds
its last observation and ``infos[i]["TimeLimit.truncated"]`` marks a turn-limit ending. Rewards as in
:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv` (+1/-1/0 on the learner's last action of a game).
Episode returns and lengths for SB3's logs (``ep_rew_mean``) come from wrapping it in SB3's ``VecMonitor``.

``env_method(name, ...)`` calls ``action_masks`` per game, and any other method on the batch's opponent
object (a :class:`boardgames.envs.vector.batch.BatchOpponent`, which plays every game): once, whatever
``indices``, so that ``env_method("add_snapshot", policy)`` (what
:class:`boardgames.training.sb3.selfplay.SnapshotCallback` calls) adds one snapshot to the pool of
:class:`boardgames.training.sb3.selfplay.PoolOpponent`.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from boardgames.envs.vector.batch import LearnerBatch, is_batch_opponent, obs_space


class BatchedVecEnv(VecEnv):
    """SB3 vector environment of ``num_envs`` games of ``game`` (see :class:`LearnerBatch` for
    ``game_options``, ``opponent`` and ``learner_seat``)."""

    def __init__(self, game="dorix", num_envs: int = 64, **options):
        """``options``: the keywords of :class:`LearnerBatch` (``game_options``, ``opponent``,
        ``learner_seat``, ``seed``, ``illegal_action``, ``threads``, ``obs_dtype``). ``threads`` defaults to
        ``"auto"``: the games of a step spread over threads only where they help (never while torch uses
        more than one thread, only on idle cores, only while timing shows them faster:
        :mod:`boardgames.envs.vector.threads`); ``threads=False`` for the serial loops, an int for that many."""
        self.batch = LearnerBatch(game, num_envs, **options)
        b = self.batch
        self.render_mode = None
        super().__init__(b.num_games, obs_space(b), spaces.Discrete(b.num_actions))
        self._actions: np.ndarray | None = None

    # ----- the VecEnv API ------------------------------------------------------------------------
    def reset(self):
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        if seed is not None:
            self.batch.seed(seed)
        self._reset_seeds()
        return self.batch.reset().copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        b = self.batch
        b.step(self._actions)
        dones = b.terminated | b.truncated
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = b.final_obs[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(b.truncated[i])
        for i in np.flatnonzero(b.forfeited):  # lost by an illegal action (illegal_action="lose")
            infos[i]["illegal_action"] = True
        return b.obs.copy(), b.rewards.copy(), dones, infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, bool ``(num_envs, num_actions)``."""
        return self.batch.masks.copy()

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks`` of each game of ``indices``, or a method of the opponent object, called once (it
        plays every game) and its result given for each of ``indices`` (see the module docstring)."""
        if method_name == "action_masks":  # what sb3-contrib's get_action_masks() calls
            return list(self.batch.masks[self._get_indices(indices)])
        method = self._opponent_method(method_name)
        if method is None:
            raise AttributeError(f"BatchedVecEnv has no per-game method {method_name!r}")
        result = method(*method_args, **method_kwargs)
        return [result for _ in self._get_indices(indices)]

    def _opponent_method(self, name: str):
        """The public method ``name`` of the batch's opponent object, or None (no such method, or no object)."""
        opponent = self.batch.opponent
        if name.startswith("_") or not is_batch_opponent(opponent):
            return None
        method = getattr(opponent, name, None)
        return method if callable(method) else None

    def get_attr(self, attr_name: str, indices=None) -> list:
        if attr_name == "learner_seat":
            return list(self.batch.learner[self._get_indices(indices)])
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def has_attr(self, attr_name: str) -> bool:
        return (
            attr_name in ("action_masks", "learner_seat")
            or hasattr(self, attr_name)
            or self._opponent_method(attr_name) is not None
        )

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        pass

    def _get_indices(self, indices):
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
