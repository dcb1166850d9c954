"""A Gymnasium ``VectorEnv`` over :class:`boardgames.envs.vector.batch.LearnerBatch`: N games, one learning seat
each, the other seats played inside the batch, all stepped by compiled calls.

    from boardgames.envs.vector import BatchedVectorEnv
    envs = BatchedVectorEnv("dorix", num_envs=256, opponent="random")
    # or: gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)  (after ``import boardgames.envs``)
    obs, infos = envs.reset(seed=0)
    masks = envs.action_masks()                      # bool (N, num_actions), also infos["action_mask"]
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Rewards follow :class:`boardgames.envs.adapters.single_agent.SingleAgentEnv`: +1/-1/0 on the learner's last
action of a game, ``truncated`` at the turn limit. ``infos["learner_seat"]`` gives the learning seat of the
game each observation shows. Every mask handed out has at least one action marked, so a sampler that draws
from ``infos["action_mask"]`` never draws from nothing.

Autoreset (``autoreset_mode``, reported per instance in ``metadata["autoreset_mode"]``), either of
Gymnasium's two modes (https://farama.org/Vector-Autoreset-Mode):

* ``NEXT_STEP`` (the default, as in Gymnasium's own vector envs, and the mode its vector wrappers
  ``FlattenObservation``, ``NormalizeObservation``, ``TransformObservation``... require)::

      envs = gymnasium.make_vec("boardgames/dorix-v0", num_envs=256)

  The step that ends a game returns its final observation, reward and terminated/truncated, with every
  action marked in its mask (the next step plays none of them) and the ended game's learner seat. The
  next step ignores that game's action and returns the new game's first observation and mask, reward 0,
  terminated and truncated False. No ``final_obs`` in the infos. The games themselves are those of
  ``SAME_STEP`` with the same seed: a game that sits out its restart step draws no random numbers.
* ``SAME_STEP`` (for loops written the Stable-Baselines3 way, with no restart step), the one keyword::

      envs = gymnasium.make_vec("boardgames/dorix-v0", num_envs=256, autoreset_mode=AutoresetMode.SAME_STEP)

  An ended game restarts inside the step that ended it; ``obs`` and the mask already show the new game,
  the last observation of the ended one is in ``infos["final_obs"]`` (``(N, *shape)``, valid where
  ``infos["_final_obs"]``). Gymnasium's vector observation wrappers refuse this mode ("Expected
  autoreset_mode to be NEXT_STEP or DISABLED"); ``RecordEpisodeStatistics`` and ``NormalizeReward`` take
  both.

(Gymnasium's ``make_vec`` refuses ``vector_kwargs`` for every vector entry point such as this one, before
calling it, hence the keyword; ``vector_kwargs={"autoreset_mode": ...}`` is for ``vectorization_mode="sync"``
/ ``"async"``.) ``DISABLED`` (resetting ended games yourself) is not offered: the batch restarts its games
itself.

``env.spec.max_episode_steps`` (once made by ``gymnasium.make_vec``) is the games' turn limit, an upper bound
on the learner steps of a game that the batch enforces itself (see :mod:`boardgames.envs.registration`).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from boardgames.envs.vector.batch import LearnerBatch, obs_space

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
"""The autoreset modes :class:`BatchedVectorEnv` offers."""


def check_autoreset_mode(mode) -> AutoresetMode:
    """``mode`` as an :class:`gymnasium.vector.AutoresetMode`: the enum itself, its value (``"NextStep"``,
    ``"SameStep"``) or its name in either case (``"NEXT_STEP"``, ``"next_step"``). ValueError naming the
    allowed values for anything else, ``DISABLED`` included."""
    found = mode if isinstance(mode, AutoresetMode) else None
    if isinstance(mode, str):
        spellings = {key.lower(): m for m in AutoresetMode for key in (m.name, m.value)}
        found = spellings.get(mode.lower())
    if found not in AUTORESET_MODES:
        allowed = " or ".join(f"AutoresetMode.{m.name} ({m.name.lower()!r}, {m.value!r})" for m in AUTORESET_MODES)
        why = " (the batch restarts ended games itself)" if found is AutoresetMode.DISABLED else ""
        raise ValueError(f"autoreset_mode is {allowed}, got {mode!r}{why}")
    return found


class BatchedVectorEnv(VectorEnv):
    """Gymnasium vector environment of ``num_envs`` games of ``game`` (see :class:`LearnerBatch` for
    ``game_options``, ``opponent`` and ``learner_seat``), autoreset in ``autoreset_mode`` (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game="dorix", num_envs: int = 64, autoreset_mode=AutoresetMode.NEXT_STEP, **options):
        """``autoreset_mode``: ``AutoresetMode.NEXT_STEP`` (the default) or ``AutoresetMode.SAME_STEP`` (or
        their strings, see :func:`check_autoreset_mode`). ``options``: the keywords of :class:`LearnerBatch`
        (``game_options``, ``opponent``, ``learner_seat``, ``seed``, ``illegal_action``, ``threads``,
        ``obs_dtype``, ``packed_masks``). ``threads`` defaults to ``"auto"``: the games of a step spread
        over threads only where they help (never while torch uses more than one thread, only on idle cores,
        only while timing shows them faster: :mod:`boardgames.envs.vector.threads`); ``threads=False`` for
        the serial loops, an int for that many."""
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.batch = LearnerBatch(game, num_envs, **options)
        b = self.batch
        self.num_envs = b.num_games
        self.single_observation_space = obs_space(b)
        self.single_action_space = spaces.Discrete(b.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._next_step = self.autoreset_mode is AutoresetMode.NEXT_STEP
        # NEXT_STEP: the games that ended at the last step (the batch has restarted them already; this
        # env shows their end first and hands out the new game at the next step)
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        every = np.ones(b.num_actions, dtype=np.bool_)
        self._every_action = np.packbits(every, bitorder="little") if b.packed_masks else every

    @property
    def spec(self):
        """What ``gymnasium.make_vec`` set (None otherwise), its ``max_episode_steps`` the games' turn limit,
        an upper bound on a game's learner steps, enforced by the batch itself
        (:func:`boardgames.envs.adapters.env_common.with_turn_limit`)."""
        from boardgames.envs.adapters.env_common import with_turn_limit

        spec = self.__dict__.get("_made_spec")
        return None if spec is None else with_turn_limit(spec, self.batch.game.info.max_turns)

    @spec.setter
    def spec(self, spec) -> None:
        self.__dict__["_made_spec"] = spec

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.batch.seed(seed)
            self.action_space.seed(seed)
        obs = self.batch.reset()
        self._ended[:] = False
        return obs.copy(), self._infos(False)

    def step(self, actions):
        b = self.batch
        if self._next_step:
            return self._step_next(actions)
        b.step(actions)
        return b.obs.copy(), b.rewards.copy(), b.terminated.copy(), b.truncated.copy(), self._infos(True)

    def _step_next(self, actions):
        """A ``NEXT_STEP`` step: the games that ended at the last step sit it out (the batch restarted them
        then; their new first observation is handed out now), those that end now show their last
        observation, every action marked in their mask, and their learner seat."""
        b = self.batch
        seats = b.learner.copy()
        b.step(actions, skip=self._ended)
        ended = b.restarted  # ended at this step, already restarted inside the batch
        obs, masks, learner = b.obs.copy(), b.masks.copy(), b.learner.copy()
        if ended.any():
            obs[ended] = b.final_obs[ended]
            masks[ended] = self._every_action
            learner[ended] = seats[ended]
        self._ended[:] = ended
        infos = {"action_mask": masks, "learner_seat": learner}
        self._add_forfeits(infos)
        return obs, b.rewards.copy(), b.terminated.copy(), b.truncated.copy(), infos

    def _infos(self, after_step: bool) -> dict:
        b = self.batch
        infos = {"action_mask": b.masks.copy(), "learner_seat": b.learner.copy()}
        if after_step and b.restarted.any():
            infos["final_obs"] = b.final_obs.copy()
            infos["_final_obs"] = b.restarted.copy()
        if after_step:
            self._add_forfeits(infos)
        return infos

    def _add_forfeits(self, infos: dict) -> None:
        """``infos["illegal_action"]``: the games lost by an illegal action (``illegal_action="lose"``)."""
        b = self.batch
        if b.forfeited.any():
            infos["illegal_action"] = b.forfeited.copy()
            infos["_illegal_action"] = b.forfeited.copy()

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, bool ``(num_envs, num_actions)`` (packed with ``packed_masks=True``):
        ``infos["action_mask"]`` of the last step; in ``NEXT_STEP`` mode every action of a game that has
        just ended (its next step restarts it, whatever the action)."""
        masks = self.batch.masks.copy()
        if self._ended.any():
            masks[self._ended] = self._every_action
        return masks

    def close_extras(self, **kwargs):
        pass
