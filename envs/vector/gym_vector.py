"""A Gymnasium ``VectorEnv`` over :class:`boardgames.envs.vector.batch.LearnerBatch`: N games, one learning seat
each, the other seats played inside the batch, all stepped by compiled calls.

    from boardgames.envs.vector import BatchedVectorEnv
    envs = BatchedVectorEnv("dorix", num_envs=256, opponent="random")
    # or: gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)  (after ``import envs``)
    obs, infos = envs.reset(seed=0)
    masks = envs.action_masks()                      # bool (N, num_actions), also infos["action_mask"]
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Autoreset is ``SAME_STEP`` (``metadata["autoreset_mode"]``): an ended game restarts inside the step
that ended it; ``obs`` already shows the new game, the last observation of the ended one is in
``infos["final_obs"]`` (float32 ``(N, *shape)``, valid where ``infos["_final_obs"]``). Rewards follow
:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv`: +1/-1/0 on the learner's last action of a game,
``truncated`` at the turn limit. ``infos["learner_seat"]`` gives each game's learning seat.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from boardgames.envs.vector.batch import LearnerBatch, obs_space


class BatchedVectorEnv(VectorEnv):
    """Gymnasium vector environment of ``num_envs`` games of ``game`` (see :class:`LearnerBatch` for
    ``game_options``, ``opponent`` and ``learner_seat``)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game="dorix", num_envs: int = 64, **options):
        """``options``: the keywords of :class:`LearnerBatch` (``game_options``, ``opponent``,
        ``learner_seat``, ``seed``, ``illegal_action``, ``threads``, ``obs_dtype``). ``threads`` defaults to
        ``"auto"``: the games of a step spread over threads only where they help (never while torch uses
        more than one thread, only on idle cores, only while timing shows them faster:
        :mod:`boardgames.envs.vector.threads`); ``threads=False`` for the serial loops, an int for that many."""
        self.batch = LearnerBatch(game, num_envs, **options)
        b = self.batch
        self.num_envs = b.num_games
        self.single_observation_space = obs_space(b)
        self.single_action_space = spaces.Discrete(b.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.batch.seed(seed)
            self.action_space.seed(seed)
        obs = self.batch.reset()
        return obs.copy(), self._infos(False)

    def step(self, actions):
        b = self.batch
        b.step(actions)
        return b.obs.copy(), b.rewards.copy(), b.terminated.copy(), b.truncated.copy(), self._infos(True)

    def _infos(self, after_step: bool) -> dict:
        b = self.batch
        infos = {"action_mask": b.masks.copy(), "learner_seat": b.learner.copy()}
        if after_step and b.restarted.any():
            infos["final_obs"] = b.final_obs.copy()
            infos["_final_obs"] = b.restarted.copy()
        if after_step and b.forfeited.any():  # games lost by an illegal action (illegal_action="lose")
            infos["illegal_action"] = b.forfeited.copy()
            infos["_illegal_action"] = b.forfeited.copy()
        return infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, bool ``(num_envs, num_actions)``."""
        return self.batch.masks.copy()

    def close_extras(self, **kwargs):
        pass
