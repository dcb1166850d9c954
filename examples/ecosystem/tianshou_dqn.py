"""Tianshou on our games: its multi-agent DQN, a learner against a random player, on the AEC environment.

What it shows: the way of Tianshou's PettingZoo tic-tac-toe example, on Dorix by default.
``tianshou.env.PettingZooEnv(dorix_v0.env())`` is the one line the integration needs; one
``DQN`` learns in one seat, ``MARLRandomDiscreteMaskedOffPolicyAlgorithm`` plays the others, both
through ``MultiAgentOffPolicyAlgorithm``, and ``Collector`` with its trainer does the rest. Then the
greedy learner plays a number of games against random from its seat.

What Tianshou supports and what it does not, on our games (Tianshou 2.0):

* AEC only: ``PettingZooEnv`` wraps an ``AECEnv`` (there is no Parallel wrapper). Barc, whose two
  seats order at once, runs through its AEC form ``barc_v1.env()`` (``--game barc``): each seat
  orders in turn without seeing the other's order, so the duel keeps its rules;
* Dict observations with an ``action_mask`` are what it expects: ``PettingZooEnv`` turns our
  ``{"observation", "action_mask"}`` into its ``{"agent_id", "obs", "mask"}``, DQN's greedy choice, its
  exploration and its target (the best legal action of the next observation) read the mask, and the
  random player reads it too. ``Net`` (an MLP)
  flattens our observation planes;
* every seat needs the same observation and action spaces (ours have them); 3 and 4-player Dorix run
  unchanged (``--players``), one algorithm per seat;
* rewards: a row of Tianshou's buffer holds one seat's move and every seat's reward from that step, so
  a seat learns of a loss on a later row (the winner's move). With the n-step horizon equal to the
  number of seats, a learner's target adds the rewards up to its next turn and bootstraps on its own
  next observation (the tic-tac-toe example's 3 on two seats would bootstrap on the opponent's);
* it needs ``torch.set_num_threads(1)`` on a small machine, or the small networks' updates crawl, and
  its replay buffer compiles numba functions (about 10 s) on first use in every process.

No move is ever illegal: the environment is made with ``illegal_action="raise"``, so one would stop
the run. Run: ``python examples/ecosystem/tianshou_dqn.py [--game dorix] [--steps N]``; the last line is
``summary: {json}``: moves per second of training, the games against random won, drawn and lost.
"""

from __future__ import annotations

import argparse
import json
import logging
import time

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from boardgames.envs.registry import env_module


def make_env(game: str, players: int) -> PettingZooEnv:
    """One of our games as a Tianshou multi-agent environment (the AEC form of every game)."""
    options = {"num_players": players} if game == "dorix" else {}
    return PettingZooEnv(env_module(game).env(illegal_action="raise", **options))


def train_and_play(
    game: str = "dorix", players: int = 2, seat: int = 0, steps: int = 3000, eval_games: int = 20, seed: int = 0
) -> dict:
    """Train a DQN in ``seat`` against random players for ``steps`` moves (every seat's moves
    counted), then play ``eval_games`` greedy games against them; returns the figures."""
    env = make_env(game, players)
    net = Net(
        state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n, hidden_sizes=[128, 128]
    )
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0)
    learner = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.9,
        n_step_return_horizon=len(env.agents),  # up to the learner's next turn (see the module docstring)
        target_update_freq=200,
    )
    algorithms = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    algorithms[seat] = learner
    marl = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)

    train_envs = DummyVectorEnv([lambda: make_env(game, players) for _ in range(4)])
    train_envs.seed(seed)
    training = Collector[CollectStats](
        marl, train_envs, VectorReplayBuffer(20_000, len(train_envs)), exploration_noise=True
    )
    start = time.perf_counter()
    marl.run_training(
        OffPolicyTrainerParams(
            training_collector=training,
            max_epochs=1,
            epoch_num_steps=steps,
            collection_step_num_env_steps=20,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            multi_agent_return_reduction=lambda returns: returns[:, seat],
            verbose=False,
            show_progress=False,
        )
    )
    train_seconds = time.perf_counter() - start

    test_envs = DummyVectorEnv([lambda: make_env(game, players) for _ in range(4)])
    test_envs.seed(seed + 1)
    stats = Collector[CollectStats](marl, test_envs).collect(n_episode=eval_games, reset_before_collect=True)
    results = np.sign(stats.returns[:, seat])  # each game's return of the learner's seat
    return {
        "game": game,
        "players": players,
        "steps": int(training.collect_step),
        "games": int(training.collect_episode),
        "steps_per_second": training.collect_step / train_seconds,
        "wins": int((results > 0).sum()),
        "draws": int((results == 0).sum()),
        "losses": int((results < 0).sum()),
        "illegal_moves": 0,
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dorix", help="dorix, olix, adix or barc (its AEC form)")
    parser.add_argument("--players", type=int, default=2, help="dorix: 2, 3 or 4 players")
    parser.add_argument("--seat", type=int, default=0, help="the learner's seat")
    parser.add_argument("--steps", type=int, default=3000, help="moves to train (every seat's)")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)  # its note on multi-agent return arrays
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # the random players draw from numpy's global generator
    torch.set_num_threads(1)
    r = train_and_play(args.game, args.players, args.seat, args.steps, args.eval_games, args.seed)
    print(
        f"tianshou dqn {r['game']} ({r['players']}p, seat {args.seat}): {r['steps']} moves in {r['games']} games"
        f" at {r['steps_per_second']:.0f} moves/s; vs random {r['wins']} won, {r['draws']} drawn, {r['losses']} lost;"
        f" illegal moves {r['illegal_moves']}"
    )
    print("summary:", json.dumps(r))
    return r


if __name__ == "__main__":
    main()
