"""MaskablePPO frames per second with the batched SB3 VecEnv against SB3's DummyVecEnv of single
environments (same settings, random opponents, one torch thread)."""

from __future__ import annotations

import time
from typing import Any, cast

import numpy as np

# Large-batch PPO, the setting batched environments are for: 128 games, 4096 frames per rollout.
PPO_SETTINGS: dict[str, Any] = dict(
    n_steps=32, batch_size=2048, n_epochs=2, learning_rate=3e-4, policy_kwargs={"net_arch": [64, 64]}
)


def ppo_frames_per_second(
    game_name: str, frames: int, n_envs: int = 128, settings: dict | None = None, rounds: int = 1
) -> dict:
    """MaskablePPO frames/s with the batched VecEnv and with DummyVecEnv of single envs (same settings,
    random opponents, one torch thread); the clock runs over ``learn(frames)`` after a warm-up. Also
    ``rollout``: frames/s of acting alone (masked policy inference + environment steps, no gradient
    step), the part of training an environment can speed up."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    from boardgames.envs.adapters.single_agent import SingleAgentEnv
    from boardgames.envs.vector.sb3 import BatchedVecEnv

    settings = dict(settings or PPO_SETTINGS)
    torch.set_num_threads(1)
    result = {
        "n_envs": n_envs,
        "frames": frames,
        **{k: v for k, v in settings.items() if k != "policy_kwargs"},
        "net_arch": settings["policy_kwargs"]["net_arch"],
    }
    makers = {
        "batched": lambda: BatchedVecEnv(game_name, n_envs, seed=0),
        "dummy": lambda: DummyVecEnv([lambda: SingleAgentEnv(game_name) for _ in range(n_envs)]),
    }
    venvs = {name: make() for name, make in makers.items()}
    for venv in venvs.values():
        MaskablePPO("MlpPolicy", venv, seed=0, **settings).learn(n_envs * settings["n_steps"])  # warm-up
    for _ in range(rounds):  # alternating, the best of each kept (see main)
        for name, venv in venvs.items():
            model = MaskablePPO("MlpPolicy", venv, seed=0, **settings)
            start = time.perf_counter()
            model.learn(frames)
            result[name] = max(result.get(name, 0.0), model.num_timesteps / (time.perf_counter() - start))
            obs, steps = venv.reset(), max(1, frames // (4 * n_envs))
            start = time.perf_counter()
            for _ in range(steps):
                actions, _ = model.predict(cast(np.ndarray, obs), action_masks=get_action_masks(venv))
                obs, *_ = venv.step(actions)
            key = f"{name} rollout"
            result[key] = max(result.get(key, 0.0), steps * n_envs / (time.perf_counter() - start))
    result["ratio"] = result["batched"] / result["dummy"]
    result["rollout ratio"] = result["batched rollout"] / result["dummy rollout"]
    return result


def profile_learn(game_name: str = "dorix", frames: int = 8192, n_envs: int = 128, top: int = 12) -> dict:
    """Where ``MaskablePPO.learn(frames)`` spends its time with each VecEnv (cProfile, cumulative time
    of the parts of a rollout and of the gradient steps, one torch thread, after a warm-up)."""
    import cProfile
    import pstats

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from boardgames.envs.adapters.single_agent import SingleAgentEnv
    from boardgames.envs.vector.sb3 import BatchedVecEnv

    torch.set_num_threads(1)
    parts = {  # (parts of the file name, "|" between, and function name) in the profile -> what it is
        ("ppo_mask", "learn"): "learn() in all",
        ("ppo_mask", "collect_rollouts"): "rollout collection (sb3-contrib)",
        ("vec_env|vector/sb3", "step_wait"): "VecEnv step",
        ("maskable/utils", "get_action_masks"): "action masks",
        ("maskable/policies", "forward"): "policy forward in the rollout (masked distribution)",
        ("maskable/buffers", "add"): "rollout buffer add",
        ("buffers", "compute_returns_and_advantage"): "GAE",
        ("ppo_mask", "train"): "gradient steps (train)",
    }
    result: dict[str, Any] = {}
    for name, make in {
        "batched": lambda: BatchedVecEnv(game_name, n_envs, seed=0),
        "dummy": lambda: DummyVecEnv([lambda: SingleAgentEnv(game_name) for _ in range(n_envs)]),
    }.items():
        venv = make()
        model = MaskablePPO("MlpPolicy", venv, seed=0, **PPO_SETTINGS)
        model.learn(n_envs * PPO_SETTINGS["n_steps"])  # warm-up: compile, first allocations
        profiler = cProfile.Profile()
        profiler.enable()
        model.learn(frames)
        profiler.disable()
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # typeshed's Stats lacks its table
        seconds: dict[str, float] = {}
        for (file, _line, fn), (_cc, _nc, _tt, ct, _callers) in stats.items():
            for (where, function), label in parts.items():
                if fn == function and any(part in file for part in where.split("|")):
                    seconds[label] = max(seconds.get(label, 0.0), ct)
        result[name] = seconds
        total = seconds.get("learn() in all", 1e-9)
        print(f"{name}: {frames / total:,.0f} frames/s under the profiler")
        for label, t in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]:
            print(f"  {label:52s} {t:7.3f} s ({t / total:4.0%})")
    return result


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="MaskablePPO: frames/s or (--profile) where learn() goes")
    parser.add_argument("--game", default="dorix")
    parser.add_argument("--frames", type=int, default=8192)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profile_learn(args.game, args.frames)
    else:
        print(ppo_frames_per_second(args.game, args.frames, rounds=2))
