"""Stable-Baselines3 and sb3-contrib: MaskablePPO with MaskableEvalCallback, on one game and on the batch.

What it shows: ``gymnasium.make("boardgames/<game>-v<N>")`` (one learning seat, random opponents) has the
``action_masks()`` method sb3-contrib's ``MaskablePPO`` and ``MaskableEvalCallback`` look for, so they
take it with no wrapper; ``boardgames.envs.vector.sb3.BatchedVecEnv`` is an SB3 ``VecEnv`` of N games
stepped by one compiled call, whose ``env_method("action_masks")`` answers MaskablePPO for every game at
once (and ``VecMonitor`` counts its episodes). A callback counts the illegal moves: the default
``illegal_action="lose"`` marks each one in ``info["illegal_action"]``.

What works: every game and player count (``--players`` for Dorix), SB3's ``check_env``, the Box
observation (float32 planes) with ``MlpPolicy`` or a ``CnnPolicy``-style extractor; Barc's simultaneous
turns (the opponent's order drawn from the same position). What it does not: one seat learns against
fixed opponents (self-play needs ``opponent=`` a callable or an opponent pool, as ``boardgames train``
does); plain SB3 algorithms (PPO, DQN) see no masks: use ``illegal_action="random"`` with them.

    python examples/ecosystem/sb3_maskable_ppo.py --game dorix --steps 1024

The last line is ``summary: {json}``: steps per second of the single env and of the batch, the eval
callback's best mean reward, the illegal moves (0: the masks are honoured) and the win rate of the
batch-trained model against random opponents.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import VecMonitor

from boardgames.envs.registration import env_id  # importing boardgames.envs registers the games with Gymnasium
from boardgames.envs.vector.sb3 import BatchedVecEnv


class CountIllegalMoves(BaseCallback):
    """Counts the steps whose info says ``illegal_action`` (a game forfeited by a move the mask forbade)."""

    illegal = 0

    def _on_step(self) -> bool:
        self.illegal += sum(bool(info.get("illegal_action")) for info in self.locals["infos"])
        return True


def run(game: str, players: int | None, steps: int, num_envs: int, eval_games: int, seed: int) -> dict:
    options = {"num_players": players} if players else {}
    # 1. one environment: MaskablePPO and its eval callback find env.action_masks() themselves
    env = Monitor(gymnasium.make(env_id(game), **options))
    eval_callback = MaskableEvalCallback(
        Monitor(gymnasium.make(env_id(game), **options)), n_eval_episodes=10, eval_freq=max(1, steps // 2), verbose=0
    )
    count = CountIllegalMoves()
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=4, seed=seed, device="cpu")
    start = time.perf_counter()
    model.learn(steps, callback=CallbackList([eval_callback, count]))
    single_rate = steps / (time.perf_counter() - start)

    # 2. the compiled batch as an SB3 VecEnv: N games per step, masks for all of them in one call
    venv = VecMonitor(BatchedVecEnv(game, num_envs=num_envs, game_options=options, seed=seed))
    batch_count = CountIllegalMoves()
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=256, n_epochs=4, seed=seed, device="cpu")
    start = time.perf_counter()
    model.learn(steps * 4, callback=batch_count)
    batch_rate = model.num_timesteps / (time.perf_counter() - start)

    rewards, _ = evaluate_policy(
        model, Monitor(gymnasium.make(env_id(game), **options)), n_eval_episodes=eval_games, return_episode_rewards=True
    )
    return {
        "client": "sb3-contrib MaskablePPO",
        "game": game,
        "players": players or 2,
        "steps": steps + model.num_timesteps,
        "steps_per_s_single_env": round(single_rate, 1),
        "steps_per_s_batched_vecenv": round(batch_rate, 1),
        "eval_best_mean_reward": float(eval_callback.best_mean_reward),  # -inf if the callback never evaluated
        "eval_last_mean_reward": float(eval_callback.last_mean_reward),
        "episodes": len(rewards),
        "mean_return": round(float(np.mean(rewards)), 3),
        "illegal_moves": count.illegal + batch_count.illegal,
        "win_rate_vs_random": round(float(np.mean(np.array(rewards) > 0)), 3),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="dorix")
    parser.add_argument("--players", type=int, default=None, help="Dorix: 2, 3 or 4")
    parser.add_argument("--steps", type=int, default=1024, help="single-env steps (the batch runs 4 times as many)")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--eval-games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    print("summary:", json.dumps(run(args.game, args.players, args.steps, args.num_envs, args.eval_games, args.seed)))
