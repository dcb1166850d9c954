"""Random-play speed of every registered game and of its peers, measured side by side in one run.

    boardgames bench [--full] [--verbose] [--games dorix olix] [--all-options] [--seconds S] [--rounds R]
                     [--sizes 64 256 1024] [--thread-sizes 512 1024] [--threads K]
                     [--ppo-frames 8192 --ppo-envs 128 --ppo-net 64 64 --ppo-epochs 2 | --no-ppo]
                     [--out benchmarks/results/latest.json]

It prints, per game, one table: turns per second of uniformly random legal play through each of our
interfaces, beside the comparable peer figures and the ratio ours / peer; then MaskablePPO frames per
second, and the goals docs/performance.md states (met or not met). Progress goes to stderr, the summary
to stdout, every figure to ``--out`` (JSON); ``--verbose`` prints every figure too. The default run takes
about 3 minutes on a 2-core machine; ``--full`` measures every variant below (about 9 minutes there).

What is measured, for each game (its default options; every option set of its ``CONFORMANCE_OPTIONS``
with ``--all-options``):

* ``pettingzoo``: the PettingZoo API as a user's loop drives it (AEC: ``agent_iter`` / ``last`` /
  ``step``; the games with a Parallel environment: the Parallel API, one turn of every seat per ``step``);
* ``engine``: the raw engine in Python (``legal_actions`` + ``apply`` on the Game/State interface);
  ``clone_apply``: the same with ``clone()`` before every ``apply`` (what a Python tree search does);
* ``batched N``: :class:`boardgames.envs.vector.BatchedGames` of N games on one thread, one compiled call
  per step of all N, masks and observations refreshed (random actions from its compiled sampler), at each
  size of ``--sizes`` (default 64 256 1024; ``--full``: 1 64 256 1024); with ``--full`` also
  ``batched N no obs`` (masks only) and ``batched N uint8`` (``obs_dtype="uint8"``) at the largest size;
* ``batched N threaded``: the same on K threads (``--threads K``; default: numba's pool, every core;
  ``--threads 1``: none of these) at each size of ``--thread-sizes`` (default 512 1024; ``--full``: 256
  512 1024, and also ``batched N uint8 threaded``, with uint8 observations, and ``batched N uint8 packed
  threaded``, with packed masks too);
* ``compiled playouts``: the whole random game loop inside numba (the engine's own speed, nothing
  handed back to Python between turns).

The summary's ``batched, 1 thread`` row is the best serial size, ``batched, threads`` the best threaded
measurement (observations included). Peers: PettingZoo's ``connect_four_v3`` through the same AEC loop;
OpenSpiel's ``connect_four`` (raw ``legal_actions`` + ``apply_action``, and with observation tensor and
mask) and pgx's ``connect_four`` on the CPU (jitted ``step`` of a batch of the largest size; ``--full``:
every size) only where ``pyspiel`` / ``pgx`` are installed: optional extras of the benchmark, never
dependencies of the library. A peer that is not installed is compared through a reference figure for it on
the project's machine, marked as not measured in this run. Random choices in the Python loops use the same
cheap picker for our games and for the peers.

Then MaskablePPO frames per second (``--ppo-frames`` frames, default options of the first game):
:class:`boardgames.envs.vector.sb3.BatchedVecEnv` against SB3's ``DummyVecEnv`` of
:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv`, same hyperparameters, random opponents.

Each measurement runs ``--seconds`` per round over ``--rounds`` rounds of all measurements and keeps its
best round. Figures depend on the machine and its load: compare only numbers from the same run.
docs/performance.md has the figures of the last full run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from boardgames.benchmarks.loops import batched_turns, compiled_playouts, engine_turns, pettingzoo_turns, timed
from boardgames.benchmarks.ppo import PPO_SETTINGS, ppo_frames_per_second
from boardgames.benchmarks.summary import comparisons, long_lines, summary_lines

GOALS: list[dict] = []
"""The speed goals docs/performance.md states, each ``{"figure": a key of a game's row (or "ppo"), "peer":
the start of a peer's key, "at_least": the least ratio ours / peer}``; the summary says of each whether
this run met it. The page states none today, so the summary shows none."""

REFERENCE_FIGURES = {
    "openspiel connect_four raw": 560_000,
    "openspiel connect_four obs+mask": 130_000,
    "pgx connect_four cpu batch 1024": 2_200_000,
}
"""Reference figures of the peers on the project's 2-core machine (turns/s): used, and marked as not
measured in this run, only for the peers that are not installed."""

DEFAULT = {"seconds": 0.5, "rounds": 3, "sizes": [64, 256, 1024], "thread_sizes": [512, 1024]}
FULL = {"seconds": 1.0, "rounds": 3, "sizes": [1, 64, 256, 1024], "thread_sizes": [256, 512, 1024]}
"""The settings of the default run and of ``--full``; a flag given on the command line wins over both."""

THREADED_VARIANTS: dict[str, dict[str, Any]] = {
    "threaded": {},
    "uint8 threaded": {"obs_dtype": "uint8"},
    "uint8 packed threaded": {"obs_dtype": "uint8", "packed_masks": True},
}
"""The threaded batch variants of ``--full``, by the suffix of their key; the default run measures the
first alone (float32 observations and bool masks, what a user gets): each variant is compiled once per
process, which costs more than measuring it."""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="every size and variant (about 3 times as long)")
    parser.add_argument("--verbose", action="store_true", help="print every figure, not only the summary")
    parser.add_argument("--seconds", type=float, help="time per measurement and round (default 0.5; full 1)")
    parser.add_argument("--rounds", type=int, help="rounds over all measurements, the best kept (default 3)")
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: all registered)")
    parser.add_argument("--all-options", action="store_true", help="every option set of CONFORMANCE_OPTIONS")
    parser.add_argument("--sizes", nargs="*", type=int, help="batch sizes on one thread (default 64 256 1024)")
    parser.add_argument("--thread-sizes", nargs="*", type=int, help="batch sizes on threads (default 512 1024)")
    parser.add_argument(
        "--threads", type=int, default=0, help="threads of the threaded batches (default: numba's pool; 1: none)"
    )
    parser.add_argument("--ppo-frames", type=int, default=8192, help="MaskablePPO frames per measurement")
    parser.add_argument("--ppo-envs", type=int, default=128, help="MaskablePPO: number of games")
    parser.add_argument("--ppo-net", nargs="*", type=int, default=[64, 64], help="MaskablePPO: MLP layer sizes")
    parser.add_argument("--ppo-epochs", type=int, default=2, help="MaskablePPO: epochs per rollout")
    parser.add_argument("--no-ppo", action="store_true", help="skip the MaskablePPO measurement")
    parser.add_argument("--out", default="benchmarks/results/latest.json", help="where to write every figure")
    args = parser.parse_args(argv)
    for name, value in (FULL if args.full else DEFAULT).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    return args


class Progress:
    """Progress lines on stderr, each with the seconds since the run began (the summary keeps stdout)."""

    def __init__(self):
        self.start = time.perf_counter()

    def __call__(self, text: str) -> None:
        print(f"[{self.elapsed():5.0f} s] {text}", file=sys.stderr, flush=True)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def game_tasks(game, make_env, parallel: bool, args, threads: int) -> list:
    """(key, turns-playing function) of every measurement of one game."""
    big = max(args.sizes)
    tasks = [
        ("pettingzoo", pettingzoo_turns(make_env, 0, parallel=parallel)),
        ("engine", engine_turns(game, 0)),
        ("clone_apply", engine_turns(game, 0, clone=True)),
    ]
    tasks += [(f"batched {n}", batched_turns(game, n)) for n in args.sizes]
    if args.full:
        tasks += [
            (f"batched {big} no obs", batched_turns(game, big, observe=False)),
            (f"batched {big} uint8", batched_turns(game, big, obs_dtype="uint8")),
        ]
    tasks.append(("compiled playouts", compiled_playouts(game)))
    if threads > 1:
        variants = THREADED_VARIANTS if args.full else {"threaded": THREADED_VARIANTS["threaded"]}
        for n in args.thread_sizes:
            for suffix, options in variants.items():
                tasks.append((f"batched {n} {suffix}", batched_turns(game, n, threads=threads, **options)))
    return tasks


def best_of(row: dict, keys: list, name: str) -> None:
    """``row[name]``: the best of ``keys``' figures, and ``row[name + ' is']``: which one."""
    if keys:
        row[name + " is"] = max(keys, key=lambda key: row[key])
        row[name] = row[row[name + " is"]]


def _label(name: str, options: dict) -> str:
    return name + "".join(f" {k}={v}" for k, v in options.items())


def measure(args, progress) -> tuple[list, dict]:
    """The games' rows and the peers' figures: every measurement, best of ``args.rounds`` rounds."""
    from boardgames.benchmarks.peers import peer_tasks
    from boardgames.envs.registry import env_module, game_names, parallel_games
    from boardgames.envs.vector.threads import numba_threads

    threads = args.threads or numba_threads()
    rows, tasks = [], []  # tasks: (the row the figure goes to, its key, the function playing turns)
    for name in args.games or game_names():
        module = env_module(name)
        parallel = name in parallel_games()
        for options in module.CONFORMANCE_OPTIONS if args.all_options else [{}]:
            progress(f"preparing {_label(name, options)}")
            make = (
                (lambda m=module, o=options: m.parallel_env(**o))
                if parallel
                else (lambda m=module, o=options: m.env(**o))
            )
            row: dict[str, Any] = {"game": _label(name, options), "name": name, "options": options}
            rows.append(row)
            tasks += [
                (row, key, fn) for key, fn in game_tasks(module.make_game(**options), make, parallel, args, threads)
            ]
    peers: dict = {}
    pgx_sizes = args.sizes if args.full else [max(args.sizes)]
    tasks += [(peers, key, fn) for key, fn in peer_tasks(pgx_sizes, progress).items()]
    # Rounds over every measurement, keeping each one's best: the machine's load changes during a run,
    # and the best of several rounds is the figure least disturbed by it, for us and for the peers alike.
    for r in range(args.rounds):
        current = None
        for where, key, fn in tasks:
            if where.get("game", "peers") != current:
                current = where.get("game", "peers")
                progress(f"round {r + 1}/{args.rounds}: {current}")
            where[key] = max(where.get(key, 0.0), timed(fn, args.seconds))
    for row in rows:
        best_of(row, [f"batched {n}" for n in args.sizes], "batched best")
        best_of(row, [k for k in row if k.endswith("threaded")], "threads best")
        best_of(
            row, [k for k in row if k.startswith("batched") and "no obs" not in k and " best" not in k], "with obs best"
        )
    return rows, peers


def main(argv=None) -> dict:
    args = parse_args(argv)
    progress = Progress()
    load_before = os.getloadavg()
    rows, peers = measure(args, progress)
    ppo = None
    if not args.no_ppo:
        from boardgames.envs.registry import game_names

        ppo_game = (args.games or game_names())[0]
        progress(f"MaskablePPO on {ppo_game}")
        settings = {**PPO_SETTINGS, "n_epochs": args.ppo_epochs, "policy_kwargs": {"net_arch": args.ppo_net}}
        ppo = {
            "game": ppo_game,
            **ppo_frames_per_second(ppo_game, args.ppo_frames, args.ppo_envs, settings, args.rounds),
        }
    result = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load": os.getloadavg(),
        "full": args.full,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "sizes": args.sizes,
        "thread_sizes": args.thread_sizes,
        "games": rows,
        "peers": peers,
        "reference_figures": {k: v for k, v in REFERENCE_FIGURES.items() if k not in peers},
        "ppo": ppo,
        "goals": GOALS,
        "out": args.out,
    }
    result["ratios"] = comparisons(result)
    result["wall_seconds"] = progress.elapsed()
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    progress(f"written to {args.out}")
    lines = (long_lines(result) + [""] if args.verbose else []) + summary_lines(result)
    print("\n".join(lines), flush=True)
    return result


if __name__ == "__main__":
    main()
