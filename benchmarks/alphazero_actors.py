"""AlphaZero self-play in Ray actors: throughput with 0 (one process), 1, 2, 4... actors (docs/scale-out.md
quotes it).

    .venv-rllib/bin/python -m boardgames.benchmarks.alphazero_actors --game dorix --players 2 --cluster 2
    .venv-rllib/bin/python -m boardgames.benchmarks.alphazero_actors --game olix --actors 8 16 --address auto
    python -m boardgames.benchmarks.alphazero_actors --game dorix --players 2 --actors 0 --set alphazero.device=cuda

For each actor count it builds the run of ``boardgames alphazero`` (the game's ``[alphazero]`` settings, then
``--set``), starts the actors (:mod:`boardgames.training.alphazero.actors`; 0: self-play in this process),
plays ``--warmup`` iterations untimed (actors started, kernels compiled or loaded, the first games under
way) and then times ``--iterations`` iterations of :meth:`~boardgames.training.alphazero.train.AlphaZeroRun.iterate`
(self-play, learning, the weights put in the object store; no checkpoints, no strength measurements):

* self-play decisions/s: the decisions of those iterations' games over their wall time (what the run makes),
  and over the time the actors took for them (from the ask to the last answer: their rate while playing);
* learner samples/s: the samples the learner received per second of wall time;
* the learner's step rate: gradient steps per second of learning, and the samples they read per second;
* the weight broadcast: the bytes of one ``ray.put`` of the weights and its mean time.

``--cluster N`` measures N actors once more on a local two-node Ray cluster (``ray.cluster_utils.Cluster``,
one CPU per node: real raylets and object stores, on this machine's cores). ``--address`` measures on an
existing cluster instead of a local Ray; ``--actors 0`` alone needs no Ray (the learner and the leaf evaluation
on ``alphazero.device``: the figures of a GPU against the CPU). Prints a row per count and writes
``benchmarks/results/alphazero_actors.json``. A benchmark, not a test: the figures depend on the machine and
its load (the load average is printed with them).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from boardgames.training.alphazero.actors import start_actors
from boardgames.training.alphazero.train import AlphaZeroRun, load_settings
from boardgames.training.cli import add_game_arguments, game_options_of, positive_int
from boardgames.training.settings import parse_sets

DEFAULT_SETS = ["alphazero.games_per_iteration=32", "alphazero.parallel=32", "alphazero.eval_every=0"]


def measure(game: str, options: dict, sets: dict, actors: int, warmup: int, iterations: int, where: str) -> dict:
    """The figures of one actor count (see the module docstring)."""
    settings = load_settings(game, options, sets | {"iterations": warmup + iterations})
    with tempfile.TemporaryDirectory() as folder:
        run = AlphaZeroRun(game, options, settings, folder, seed=0)
        if actors:
            _wait_for_cpus(actors)
            run.use_actors(start_actors(run, actors))
        try:
            started = time.perf_counter()
            for _ in range(warmup):
                run.iterate()
            warm_s = time.perf_counter() - started
            rows: list[dict] = []
            puts: list[float] = []
            started = time.perf_counter()
            for _ in range(iterations):
                rows.append(run.iterate())
                if run.actors is not None:
                    puts.append(run.actors.publish_s)
            wall = time.perf_counter() - started
            nodes = run.actors.describe()["nodes"] if run.actors is not None else 1
            weights_bytes = run.actors.weights_bytes if run.actors is not None else 0
            device = str(run.device)
        finally:
            if run.actors is not None:
                run.actors.close()
    decisions = sum(r["decisions"] for r in rows)
    learn_s = sum(r["learn_s"] for r in rows)
    steps = settings.train_steps * iterations
    return {
        "where": where,
        "actors": actors,
        "nodes": nodes,
        "learner_device": device,
        "warmup_s": round(warm_s, 1),
        "iterations": iterations,
        "iteration_s": round(wall / iterations, 2),
        "games": sum(r["games"] for r in rows),
        "decisions": decisions,
        "decisions_per_s": round(decisions / wall, 1),
        "actor_decisions_per_s": round(decisions / max(sum(r["selfplay_s"] for r in rows), 1e-9), 1),
        "learner_samples_per_s": round(sum(r["samples"] for r in rows) / wall, 1),
        "learn_s_per_iteration": round(learn_s / iterations, 2),
        "learner_steps_per_s": round(steps / max(learn_s, 1e-9), 1),
        "learner_batch_samples_per_s": round(steps * settings.batch_size / max(learn_s, 1e-9)),
        "weights_bytes": weights_bytes,
        "put_ms": round(1000 * sum(puts) / len(puts), 2) if puts else None,
    }


def _wait_for_cpus(count: int, seconds: float = 30.0) -> None:
    """Wait (up to ``seconds``) until ``count`` CPUs are free: the actors of the count before give theirs back
    a moment after they are killed."""
    import ray

    deadline = time.perf_counter() + seconds
    while ray.available_resources().get("CPU", 0) < count and time.perf_counter() < deadline:
        time.sleep(0.2)


def _print_row(row: dict) -> None:
    put = f"{row['weights_bytes'] / 1024:.0f} KiB, {row['put_ms']} ms" if row["put_ms"] is not None else "-"
    print(
        f"{row['where'] + ', ' + row['learner_device']:<20} {row['actors']:>6} {row['iteration_s']:>11} "
        f"{row['decisions_per_s']:>12} "
        f"{row['actor_decisions_per_s']:>16} {row['learner_samples_per_s']:>15} {row['learner_steps_per_s']:>14} "
        f"{row['learn_s_per_iteration']:>10}  {put}",
        flush=True,
    )


def main(argv=None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.alphazero_actors", description=__doc__.split("\n\n")[0]
    )
    add_game_arguments(p)
    p.add_argument("--actors", type=int, nargs="+", default=[0, 1, 2, 4], help="actor counts (0: one process)")
    p.add_argument("--cluster", type=int, default=0, help="also this many actors on a local two-node cluster")
    p.add_argument("--warmup", type=positive_int, default=1, help="untimed iterations first")
    p.add_argument("--iterations", type=positive_int, default=2, help="timed iterations")
    p.add_argument("--address", default=None, help="an existing Ray cluster ('auto' or HOST:PORT)")
    p.add_argument("--set", action="append", default=[], metavar="alphazero.KEY=VALUE", help="a setting")
    args = p.parse_args(argv)
    options = game_options_of(args)
    sets = {key: value for _, key, value in parse_sets([*DEFAULT_SETS, *args.set])}
    import torch

    torch.set_num_threads(1)  # the learner's threads, as the command's default
    started = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{args.game} {options}, {os.cpu_count()} CPUs here, load average {load:.1f}; settings "
        f"{json.dumps(load_settings(args.game, options, sets).as_dict())}"
    )
    print(
        f"{'where, learner on':<20} {'actors':>6} {'iteration s':>11} {'decisions/s':>12} {'actors playing/s':>16} "
        f"{'new samples/s':>15} {'learn steps/s':>14} {'learn s/it':>10}  weights put"
    )
    rows = []
    ray: Any = None  # imported only for actors: one process alone (--actors 0) runs without Ray, e.g. on a GPU
    if any(args.actors) or args.cluster or args.address:
        ray = importlib.import_module("ray")

        if args.address:
            ray.init(address=args.address, logging_level="ERROR")
        else:
            ray.init(num_cpus=max(os.cpu_count() or 1, *args.actors), include_dashboard=False, logging_level="ERROR")
    where = "cluster" if args.address else "this machine"
    try:
        for n in args.actors:
            rows.append(measure(args.game, options, sets, n, args.warmup, args.iterations, where))
            _print_row(rows[-1])
    finally:
        if ray is not None:
            ray.shutdown()
    if args.cluster:
        from ray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        try:
            cluster.add_node(num_cpus=1)
            cluster.wait_for_nodes()
            ray.init(address=cluster.address, logging_level="ERROR")
            rows.append(measure(args.game, options, sets, args.cluster, args.warmup, args.iterations, "two-node local"))
            _print_row(rows[-1])
        finally:
            ray.shutdown()
            cluster.shutdown()
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{time.perf_counter() - started:.0f} s in all; load average {load:.1f} before, {load_after:.1f} after")
    out = Path("benchmarks/results/alphazero_actors.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "game": args.game,
                "options": options,
                "cpus": os.cpu_count(),
                "load_average": [round(load, 1), round(load_after, 1)],
                "settings": sets,
                "rows": rows,
            },
            indent=2,
        )
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
