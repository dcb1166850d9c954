"""The self-play opponent pool and the callback that feeds it snapshots of the learner.

Each episode asks the pool for the opponent policy (``pool.sample(rng)``): the random agent, the greedy
baseline or one of the earlier snapshots of the learner, with weights from the game's config. At team
games the learner's partner is ``pool.partner``, the latest snapshot of the learner (played
stochastically). Two environments play the pool:

* :class:`PoolOpponent`, what ``boardgames train`` learns on: the opponent object
  (:class:`boardgames.envs.vector.batch.BatchOpponent`) of a :class:`boardgames.envs.vector.batch.LearnerBatch`,
  which draws each game's opponent and partner when the game starts and plays the moves of all the games
  at once, grouped by agent (one network pass per snapshot, numpy draws for random);
* :class:`SelfPlayEnv`, one game (:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv`), for
  ``--subproc`` runs (one process per game) and games without compiled kernels.

Snapshots are copies of the learner's policy network taken every ``snapshot_every`` steps by
:class:`SnapshotCallback` and sent to the environments with ``env_method("add_snapshot", policy)`` (so a
subprocess vectorized env works too; a batch's opponent takes it once for all its games); the pool keeps
the latest ``max_snapshots``.
"""

from __future__ import annotations

import copy

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.agents import Agent, GreedyAgent, RandomAgent
from boardgames.training.sb3.agent import PolicyAgent, draw_rows


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
        if not kinds:  # only snapshots asked for, and none yet
            return self.random
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


class PoolOpponent:
    """The other seats of a :class:`boardgames.envs.vector.batch.LearnerBatch` played from ``pool`` as
    :class:`SelfPlayEnv` plays them (a :class:`boardgames.envs.vector.batch.BatchOpponent`): when a game
    (re)starts, its opponent for the episode is ``pool.sample(rng)`` and its learner's partner (team games)
    ``pool.partner.sample(rng)``, the latest snapshot then (random before the first one).

    The moves asked at once are grouped by the agent that plays them: the random agent draws one uniform
    legal action per row (numpy, from the batch's generator), a policy (the snapshots and models,
    :class:`boardgames.training.sb3.agent.PolicyAgent`) chooses for all its rows with one pass of its network
    on the observations the batch wrote, any other agent (greedy) acts on each game's position
    (``batch.state(row)``), its generator seeded from the batch's so that a seeded batch plays the same
    games (:func:`agent_actions`)."""

    def __init__(self, pool: OpponentPool):
        self.pool = pool
        self.opponents = np.empty(0, dtype=object)  # per game: the agent of its other teams this episode
        self.partners = np.empty(0, dtype=object)  # per game: the agent of its learner's partners
        self.teams = np.empty(0, dtype=np.int64)  # per seat: its team (set with the batch's first games)

    def add_snapshot(self, policy) -> None:
        """Add a snapshot of the learner's policy to the pool (what :class:`SnapshotCallback` calls)."""
        self.pool.add_snapshot(policy)

    def assign(self, batch, rows: np.ndarray, rng: np.random.Generator) -> None:
        """Draw the opponent and the partner of each game of ``rows``, which just (re)started."""
        if len(self.opponents) != batch.num_games:
            self.opponents = np.full(batch.num_games, self.pool.random, dtype=object)
            self.partners = self.opponents.copy()
            self.teams = np.asarray(batch.game.info.teams, dtype=np.int64)
        for i in rows:
            self.opponents[i] = self.pool.sample(rng)
            self.partners[i] = self.pool.partner.sample(rng)

    def actions(self, batch, rows, seats, obs, masks, rng: np.random.Generator) -> np.ndarray:
        """The action of seat ``seats[k]`` in game ``rows[k]``: its game's partner for the learner's team, its
        game's opponent for the others; each agent plays all of its rows at once (:func:`agent_actions`)."""
        agents = self.opponents[rows]
        partner = self.teams[seats] == self.teams[batch.learner[rows]]
        if partner.any():
            agents[partner] = self.partners[rows[partner]]
        groups: dict[int, list] = {}
        for k, agent in enumerate(agents):
            groups.setdefault(id(agent), []).append(k)
        if len(groups) == 1:  # one agent plays every row
            return agent_actions(agents[0], batch, rows, seats, obs, masks, rng)
        out = np.zeros(len(rows), dtype=np.int64)
        for group in groups.values():
            ks = np.asarray(group)
            out[ks] = agent_actions(agents[ks[0]], batch, rows[ks], seats[ks], obs[ks], masks[ks], rng)
        return out


def agent_actions(agent, batch, rows, seats, obs, masks, rng: np.random.Generator) -> np.ndarray:
    """``agent``'s actions for seat ``seats[k]`` of game ``rows[k]`` of ``batch`` (float32 ``obs`` and bool
    ``masks`` of those seats), in as few calls as the agent allows: uniform legal draws for the random
    agent, one ``act_observations(obs, masks, rng)`` call for a policy
    (:class:`boardgames.training.sb3.agent.PolicyAgent`), one ``act_batch(states, seats)`` call for an agent
    that acts on positions in batches (AlphaZero), else ``agent(state, seat)`` on each position; an
    :class:`boardgames.envs.agents.Agent` is reseeded from ``rng`` first."""
    if isinstance(agent, RandomAgent):
        return draw_rows(masks, rng)
    if hasattr(agent, "act_observations"):
        return np.asarray(agent.act_observations(obs, masks, rng), dtype=np.int64)
    if isinstance(agent, Agent):
        agent.seed(int(rng.integers(2**63)))
    states = [batch.state(int(r)) for r in rows]
    if hasattr(agent, "act_batch"):
        return np.asarray(agent.act_batch(states, [int(s) for s in seats]), dtype=np.int64)
    return np.array([agent(state, int(s)) for state, s in zip(states, seats)], dtype=np.int64)


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
    """Every ``every`` steps, copy the learner's policy into the opponent pools (``env_method("add_snapshot")``:
    once into each :class:`SelfPlayEnv` of a Dummy or Subproc VecEnv, once into the :class:`PoolOpponent` of
    a :class:`boardgames.envs.vector.sb3.BatchedVecEnv`)."""

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
        self.training_env.env_method("add_snapshot", policy)
