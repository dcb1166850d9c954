"""RLlib sampling and training throughput with 1, 2... env runners (docs/scale-out.md quotes it).

    python -m boardgames.benchmarks.rllib_throughput --game dorix --players 2 --runners 1 2
    python -m boardgames.benchmarks.rllib_throughput --game barc --runners 1 2 --address auto   # on a cluster

For each env-runner count it builds the run's PPO algorithm (:func:`boardgames.training.rllib.config.build_config`)
and measures, after one warm-up iteration:

* whole training iterations (sampling, then the PPO update in the driver): env steps per second,
  and the iteration's seconds split into RLlib's sampling and learner-update timers;
* sampling alone: every env runner collects ``--sample-steps`` env steps at once
  (``EnvRunner.sample``), timed from the call to the last runner's answer: env steps per second of
  the group, the figure that grows with the runners.

Prints one table row per count and writes ``benchmarks/results/rllib_throughput.json``. A benchmark,
not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from boardgames.training.cli import add_game_arguments, game_options_of, positive_int
from boardgames.training.rllib.config import RLlibSettings, build_config


def measure(game: str, options: dict, runners: int, sample_steps: int, iterations: int, envs_per_runner: int) -> dict:
    """Sampling and training throughput of one env-runner count (see the module docstring)."""
    settings = RLlibSettings(env_runners=runners, envs_per_runner=envs_per_runner)
    algo = build_config(game, options, settings).build_algo()
    try:
        lifetime = "num_env_steps_sampled_lifetime"
        start = algo.train()["env_runners"][lifetime]  # warm-up: workers started, numba compiled, weights synced
        t0 = time.perf_counter()
        sampling = learning = 0.0
        for _ in range(iterations):
            result = algo.train()
            end = result["env_runners"][lifetime]
            sampling += result["timers"]["env_runner_sampling_timer"]
            learning += result["timers"]["learner_update_timer"]
        train_s = time.perf_counter() - t0

        def collect(runner):
            episodes = runner.sample(num_timesteps=sample_steps, random_actions=False)
            return sum(e.env_steps() for e in episodes)

        t0 = time.perf_counter()
        counts = algo.env_runner_group.foreach_env_runner(collect, local_env_runner=runners == 0)
        sample_s = time.perf_counter() - t0
        return {
            "runners": runners,
            "sampled": int(sum(counts)),
            "sample_s": round(sample_s, 2),
            "sample_steps_per_s": round(sum(counts) / sample_s),
            "train_iterations": iterations,
            "train_steps_per_s": round((end - start) / train_s),
            "iteration_s": round(train_s / iterations, 2),
            "of_which_sampling_s": round(sampling / iterations, 2),
            "of_which_learning_s": round(learning / iterations, 2),
        }
    finally:
        algo.stop()


def main(argv=None) -> None:
    import ray

    p = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.rllib_throughput", description=__doc__.split("\n\n")[0]
    )
    add_game_arguments(p)
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env-runner counts to measure")
    p.add_argument("--sample-steps", type=positive_int, default=4000, help="env steps each runner collects")
    p.add_argument("--iterations", type=positive_int, default=3, help="timed training iterations")
    p.add_argument("--envs-per-runner", type=positive_int, default=8)
    p.add_argument("--address", default=None, help="an existing Ray cluster ('auto' or HOST:PORT)")
    args = p.parse_args(argv)
    options = game_options_of(args)
    import torch

    torch.set_num_threads(1)  # the learner runs in this process: one thread, as boardgames.training.rllib.train
    if args.address:
        ray.init(address=args.address, logging_level="ERROR")
    else:
        ray.init(num_cpus=max(os.cpu_count() or 1, max(args.runners)), include_dashboard=False, logging_level="ERROR")
    rows = []
    try:
        print(f"{args.game} {options}: {os.cpu_count()} CPUs here, cluster CPUs {ray.cluster_resources().get('CPU')}")
        print(
            f"{'runners':>8} {'sampled':>9} {'sample s':>9} {'sample steps/s':>15} {'train steps/s':>14} "
            f"{'iteration s':>12} {'sampling s':>11} {'learning s':>11}"
        )
        for n in args.runners:
            row = measure(args.game, options, n, args.sample_steps, args.iterations, args.envs_per_runner)
            rows.append(row)
            print(
                f"{n:>8} {row['sampled']:>9,} {row['sample_s']:>9.1f} {row['sample_steps_per_s']:>15,} "
                f"{row['train_steps_per_s']:>14,} {row['iteration_s']:>12} {row['of_which_sampling_s']:>11} "
                f"{row['of_which_learning_s']:>11}",
                flush=True,
            )
    finally:
        ray.shutdown()
    out = Path("benchmarks/results/rllib_throughput.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"game": args.game, "options": options, "cpus": os.cpu_count(), "rows": rows}, indent=2))
    print(f"saved {out}")


if __name__ == "__main__":
    main()
