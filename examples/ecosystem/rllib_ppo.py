"""Ray RLlib on our games: PPO self-play with RLlib's action-masking RLModule, for a few iterations.

What it shows: the few lines a user writes around the library's RLlib environment,
:class:`boardgames.training.rllib.env.BoardGameMultiAgentEnv` (``.environment(BoardGameMultiAgentEnv,
env_config={"game": "dorix"})`` is the one line the integration needs). Every seat maps to one
module, ``shared``, RLlib's ``ActionMaskingTorchRLModule`` (PPO's actor-critic MLP whose illegal
actions' logits are masked), so the game is played against itself; sampling runs in the driver (no
env runner processes). Then the module's greedy choice plays seat 0 and seat 1 in turn against a
uniform random legal player. ``boardgames rllib`` (``boardgames.training.rllib``) is the full trainer
(league of snapshots, env runners, checkpoints, evaluation).

What RLlib supports and what it does not, on our games (Ray 2.60, new API stack):

* it pins ``gymnasium==1.2.2``, so it runs in a venv of its own (``make test-rllib``: ``.venv-rllib``);
* Dict observations: the action-masking module wants ``{"observations", "action_mask"}`` (float), not
  PettingZoo's ``{"observation", "action_mask"}`` (int8 mask): ``BoardGameMultiAgentEnv`` gives that
  layout, flat, where RLlib's own ``PettingZooEnv`` wrapper would not;
* turn-based games: only the agent to act is in each observation dict, and at the end every agent
  gets its last observation and reward (RLlib's convention), so one module per seat or one shared
  module both work; Barc's seats act in the same step (``--game barc``); 3 and 4-player Dorix run
  unchanged (``--players``), the partners of a team sharing its reward;
* RLlib's environment pre-check steps unmasked random actions: the env's default
  ``illegal_action="lose"`` lets it pass (``make test-rllib`` runs it on every game); this recipe
  uses ``"raise"``, so that an illegal move would stop it, and skips the pre-check;
* with sampling and learning in the driver, torch's default threads make the small networks crawl on
  a small shared machine: one thread (``torch.set_num_threads(1)``) took Barc from 27 to 540 env
  steps/s on 2 cores.

Run: ``python examples/ecosystem/rllib_ppo.py [--game dorix] [--iterations N]`` (in ``.venv-rllib``); the last
line is ``summary: {json}``: env steps per second of training, the games against random won, drawn and lost.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from boardgames.training.rllib.env import BoardGameMultiAgentEnv


def build(env_config: dict, batch: int, seed: int):
    """The PPO algorithm: one shared masked module for every seat, sampling in the driver."""
    config = (
        PPOConfig()
        # the pre-check steps unmasked random actions, which illegal_action="raise" refuses
        .environment(BoardGameMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=4)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [64, 64]}
                    )
                }
            )
        )
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 128), num_epochs=2, lr=3e-4)
        .debugging(seed=seed, log_level="ERROR")
    )
    return config.build_algo()


def greedy(module, obs: dict) -> int:
    """The module's most preferred action (its logits are already masked) for one observation."""
    batch = {Columns.OBS: {key: torch.as_tensor(value)[None] for key, value in obs.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(logits[0].argmax())


def play_against_random(module, env_config: dict, games: int, seed: int) -> np.ndarray:
    """The module in seat ``g % seats`` of game ``g`` against random legal players: each game's
    result for the module's seat (+1, 0, -1)."""
    env = BoardGameMultiAgentEnv(env_config)
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        learner = env.possible_agents[g % len(env.possible_agents)]
        obs, _ = env.reset(seed=10_000 + g)
        while True:
            actions = {
                agent: greedy(module, o) if agent == learner else int(rng.choice(np.flatnonzero(o["action_mask"])))
                for agent, o in obs.items()
            }
            obs, rewards, terminations, truncations, _ = env.step(actions)
            if terminations["__all__"] or truncations["__all__"]:
                results.append(np.sign(rewards[learner]))
                break
    return np.array(results)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dorix", help="dorix, olix, adix or barc")
    parser.add_argument("--players", type=int, default=2, help="dorix: 2, 3 or 4 players")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    options = {"num_players": args.players} if args.game == "dorix" else {}
    env_config = {"game": args.game, "options": options, "illegal_action": "raise"}

    torch.set_num_threads(1)  # small networks: one thread is the fastest on a shared CPU
    ray.init(ignore_reinit_error=True, include_dashboard=False, logging_level="ERROR")
    algo = build(env_config, args.batch, args.seed)
    try:
        start = time.perf_counter()
        for _ in range(args.iterations):
            result = algo.train()
        seconds = time.perf_counter() - start
        steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
        results = play_against_random(algo.get_module("shared"), env_config, args.eval_games, args.seed)
    finally:
        algo.stop()
    figures = {
        "game": args.game,
        "players": args.players if args.game == "dorix" else 2,
        "iterations": args.iterations,
        "steps": int(steps),
        "steps_per_second": steps / seconds,
        "wins": int((results > 0).sum()),
        "draws": int((results == 0).sum()),
        "losses": int((results < 0).sum()),
        "illegal_moves": 0,
    }
    print(
        f"rllib ppo {args.game}: {args.iterations} iterations, {figures['steps']} env steps at"
        f" {figures['steps_per_second']:.0f} steps/s; vs random {figures['wins']} won, {figures['draws']} drawn,"
        f" {figures['losses']} lost; illegal moves 0"
    )
    print("summary:", json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
