"""A warm start for AlphaZero: the network first learns from games of a teacher agent.

Self-play from a random network has to discover everything through the search; on a 2-core CPU and a
large board (Olix's 11x11, ADIX's 9x9 with 5,670 actions) that takes longer than a session. With
``alphazero.teacher`` set (any agent spec, e.g. ``sample:models/olix``, the PPO model drawing its
moves), a fresh run first plays ``teacher_games`` games of the teacher against itself and records every
decision as a sample in the replay buffer's form:

* the deciding seat's observation;
* the policy target: the teacher's distribution over its legal actions when the agent can tell it
  (``explain(state, seat)``: the PPO models, the AlphaZero agents), else the action it played;
* the value target: the game's returns in that seat's frame (0 for every seat in a game cut at its turn
  limit), exactly as self-play writes them.

The network then takes ``teacher_steps`` gradient steps on those samples before self-play starts; the
samples stay in the buffer, so the first self-play iterations learn from both. This is the supervised
start of AlphaGo (a policy learnt from play it can imitate) followed by AlphaZero's own improvement.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from boardgames.envs.agents.play import play_game
from boardgames.envs.core.game import Game
from boardgames.training.alphazero.evaluator import relative_values


@dataclass
class TeacherSamples:
    """Samples from the teacher's games, in the replay buffer's form (see the module docstring)."""

    obs: np.ndarray  # (N, H, W, C) float32
    policies: np.ndarray  # (N, num_actions) float32, summing to 1
    values: np.ndarray  # (N, seats) float32 in the observer's frame
    games: int
    seconds: float


def teacher_policy(agent, state, seat: int, action: int, num_actions: int) -> np.ndarray:
    """The policy target of one decision: the agent's own distribution (``explain``) when it has one
    that puts weight on legal actions only, else a one-hot on the ``action`` it played."""
    target = np.zeros(num_actions, dtype=np.float32)
    shares = agent.explain(state, seat) if hasattr(agent, "explain") else {}
    legal = state.legal_mask(seat)
    if shares and all(legal[a] for a in shares) and sum(shares.values()) > 0:
        for a, p in shares.items():
            target[a] = p
        target /= target.sum()
    else:
        target[action] = 1.0
    return target


def play_teacher_games(game: Game, spec: str, games: int, seed: int = 0) -> TeacherSamples:
    """``games`` games of the agent ``spec`` in every seat, recorded as samples."""
    from boardgames.training.agent_kinds import make_agent

    started = time.perf_counter()
    agent = make_agent(spec, game, seed=seed)
    info = game.info
    obs: list = []
    policies, values = [], []
    decisions: list = []  # (sample index, seat) of the game being played

    def record(state, actions: dict) -> None:
        for seat, action in actions.items():
            decisions.append((len(obs), seat))
            obs.append(state.observation(seat).astype(np.float32))
            policies.append(teacher_policy(agent, state, seat, int(action), info.num_actions))
            values.append(np.zeros(info.num_seats, dtype=np.float32))

    for _ in range(int(games)):
        decisions.clear()
        final = play_game(game, lambda seat: agent, on_decision=record)
        if not final.is_truncated():
            returns = np.asarray(final.returns(), dtype=np.float32)
            for i, seat in decisions:
                values[i] = relative_values(returns, seat)
    if not obs:
        raise ValueError(f"the teacher {spec!r} played no decisions in {games} games")
    return TeacherSamples(
        np.stack(obs), np.stack(policies), np.stack(values), int(games), time.perf_counter() - started
    )
