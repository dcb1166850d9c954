"""The fuzz campaign's command line.

    python -m boardgames.benchmarks.fuzz [--turns 20000] [--api-turns N] [--games dorix olix-max_turns30 ..]
                              [--paths engine aec parallel gym batched vector] [--seed 0] [--rate 0.25]
                              [--jobs 1] [--chunk 20000] [--out fuzz.json [--resume]] [--no-progress]
    python -m boardgames.benchmarks.fuzz --replay <config> <path> <seed>     # one game again, failures printed
    python -m boardgames.benchmarks.fuzz --surfaces [--seconds 300] [--parts models runs server] [--seed 0] [--out
    f.json] [--kinds sb3 alphazero-names ...]
    python -m boardgames.benchmarks.fuzz --replay <part> <kind> <seed>       # one try of the surfaces campaign again

``--turns`` decisions per config through the engine path, ``--api-turns`` (default ``--turns`` / 10)
through each other path. The work is cut into chunks of ``--chunk`` turns, each with its own seed
(from ``--seed``, the config, the path and the chunk's index), spread over ``--jobs`` processes; with
``--out`` every finished chunk is written at once, and ``--resume`` runs only the chunks the file
lacks. Every fuzzed game has its own seed, printed with its failures: ``--replay`` plays it again.
Prints a table (turns, games, inputs tried, failures per config and path) and the failures kept;
the exit status is 1 when any check failed.

``--surfaces`` runs the other campaign, over model files, training run folders and the web server
(:mod:`boardgames.benchmarks.fuzz.surfaces`), bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
import zlib

import numpy as np

from boardgames.benchmarks.fuzz.apis import aec_path, gym_path, parallel_path
from boardgames.benchmarks.fuzz.batched import batched_path, vector_path
from boardgames.benchmarks.fuzz.engine import engine_game
from boardgames.benchmarks.fuzz.report import (
    CheckFailed,
    Config,
    Probe,
    Tally,
    configs,
    format_table,
    print_failures,
)


def engine_path(config):
    """The engine path (:mod:`boardgames.benchmarks.fuzz.engine`) as a ``play(probe, rng, rate)`` function."""
    game = config.make_game()
    return lambda probe, rng, rate: engine_game(probe, game, rng, rate)


PATHS = {
    "engine": engine_path,
    "aec": aec_path,
    "parallel": parallel_path,
    "gym": gym_path,
    "batched": batched_path,
    "vector": vector_path,
}


def applies(path: str, config: Config) -> bool:
    """Whether ``path`` exists for ``config`` (Parallel: only the games whose seats act at once)."""
    return path != "parallel" or config.make_game().info.acting_seats > 1


def play_one(play, tally: Tally, seed: int, rate: float, verbose: bool = False) -> None:
    """One fuzzed game of seed ``seed``; a failed check ends it, any other exception is a crash."""
    probe = Probe(tally, seed, verbose)
    tally.games += 1
    try:
        play(probe, np.random.default_rng(seed), rate)
    except CheckFailed:
        pass
    except Exception as e:  # noqa: BLE001 - the code under test crashed: a finding
        probe.crashed(e)


def run_chunk(label: str, path: str, index: int, turns: int, seed: int, rate: float) -> Tally:
    """Chunk ``index`` of config ``label`` through ``path``: games until ``turns`` turns are played."""
    config = {c.label: c for c in configs()}[label]
    tally = Tally(label, path)
    start = time.perf_counter()
    play = PATHS[path](config)
    rng = np.random.default_rng([seed, zlib.crc32(label.encode()), zlib.crc32(path.encode()), index])
    while tally.turns < turns and tally.games <= turns + 10:  # a game that plays no turn still ends the loop
        play_one(play, tally, int(rng.integers(2**31)), rate)
    tally.seconds = time.perf_counter() - start
    return tally


def _run_task(task: tuple) -> tuple:
    return task, run_chunk(*task)


def plan(selected: list[Config], paths: list[str], turns: int, api_turns: int, chunk: int, seed: int, rate: float):
    """The chunks to run, ``(label, path, index, turns, seed, rate)``, every config's first chunks first."""
    tasks = []
    for config in selected:
        for path in paths:
            if not applies(path, config):
                continue
            total = turns if path == "engine" else api_turns
            for index, start in enumerate(range(0, total, chunk)):
                tasks.append((start / total, (config.label, path, index, min(chunk, total - start), seed, rate)))
    # in order of the share of its config and path done before it: a run cut short covers all alike
    return [task for _, task in sorted(tasks, key=lambda t: t[0])]


def fuzz(
    selected=None,
    paths=None,
    turns: int = 20_000,
    api_turns: int | None = None,
    seed: int = 0,
    rate: float = 0.25,
    chunk: int = 20_000,
    jobs: int = 1,
    progress: bool = False,
    out: str | None = None,
    resume: bool = False,
) -> list[Tally]:
    """Run the campaign; the tallies per config and path (their ``examples`` hold the failures kept)."""
    selected = configs() if selected is None else selected
    paths = list(PATHS) if paths is None else paths
    api_turns = turns // 10 if api_turns is None else api_turns
    tasks = plan(selected, paths, turns, api_turns, chunk, seed, rate)
    done = _load(out) if resume and out and os.path.exists(out) else {}
    todo = [t for t in tasks if _key(t) not in done]
    bar = _Progress(sum(t[3] for t in tasks), sum(t[3] for t in tasks if _key(t) in done), progress)
    start = time.perf_counter()
    results = map(_run_task, todo) if jobs == 1 else _pool(jobs).imap_unordered(_run_task, todo)
    for task, tally in results:
        done[_key(task)] = tally
        bar.update(task[3], sum(t.failures for t in done.values()))
        if out:
            _save(
                out,
                done,
                dict(
                    seed=seed,
                    rate=rate,
                    chunk=chunk,
                    turns=turns,
                    api_turns=api_turns,
                    wall_seconds=time.perf_counter() - start,
                ),
            )
    bar.close()
    merged: dict = {}
    for task in tasks:
        tally = done[_key(task)]
        merged.setdefault((task[0], task[1]), Tally(task[0], task[1])).add(tally)
    return list(merged.values())


def _key(task: tuple) -> str:
    label, path, index, turns, seed, rate = task
    return f"{label}/{path}/{index}/{turns}/{seed}/{rate}"


def _pool(jobs: int):
    import multiprocessing

    return multiprocessing.get_context("spawn").Pool(jobs)


def _load(out: str) -> dict:
    with open(out) as f:
        data = json.load(f)
    return {k: Tally.from_dict(v) for k, v in data.get("chunks", {}).items()}


def _save(out: str, done: dict, settings: dict) -> None:
    """Write every finished chunk (for ``--resume``) and the totals per config and path."""
    merged: dict = {}
    for tally in done.values():
        merged.setdefault((tally.config, tally.path), Tally(tally.config, tally.path)).add(tally)
    data = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        **settings,
        "tallies": [t.to_dict() for t in merged.values()],
        "chunks": {k: t.to_dict() for k, t in done.items()},
    }
    with open(out + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(out + ".tmp", out)


class _Progress:
    """A tqdm bar of turns (a plain line every few seconds where tqdm is missing); silent when off."""

    def __init__(self, total: int, initial: int, on: bool):
        self.on, self.total, self.count, self.last = on, total, initial, 0.0
        self.bar = None
        if on:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=initial, unit="turn", unit_scale=True, desc="fuzz")
            except ImportError:
                pass

    def update(self, n: int, failures: int) -> None:
        self.count += n
        if self.bar is not None:
            self.bar.update(n)
            self.bar.set_postfix(failures=failures)
        elif self.on and (time.monotonic() - self.last > 5 or self.count >= self.total):
            self.last = time.monotonic()
            print(f"fuzz: {self.count:,}/{self.total:,} turns, {failures} failures", flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _select(names: list[str] | None) -> list[Config]:
    if not names:
        return configs()
    chosen = [c for c in configs() if c.label in names or c.name in names]
    unknown = [n for n in names if not any(n in (c.label, c.name) for c in configs())]
    if unknown:
        raise SystemExit(f"unknown game or config {unknown}; configs: {' '.join(c.label for c in configs())}")
    return chosen


def replay(label: str, path: str, seed: int, rate: float) -> int:
    """Play the fuzzed game of seed ``seed`` again, printing each failure; the number of failures (a part
    of the surfaces campaign as ``label``: that try again, :func:`boardgames.benchmarks.fuzz.surfaces.replay`)."""
    from boardgames.benchmarks.fuzz.surfaces import PARTS as SURFACE_PARTS

    if label in SURFACE_PARTS:
        from boardgames.benchmarks.fuzz.surfaces import replay as replay_surface

        return replay_surface(label, path, seed)
    config = {c.label: c for c in configs()}.get(label) or _select([label])[0]
    tally = Tally(config.label, path)
    play_one(PATHS[path](config), tally, seed, rate, verbose=True)
    print(
        f"{config.label} / {path} / seed {seed}: {tally.turns} turns, {tally.inputs} inputs, {tally.failures} failures"
    )
    return tally.failures


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m boardgames.benchmarks.fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=20_000, help="turns per config through the engine")
    p.add_argument("--api-turns", type=int, default=None, help="turns per config through each API (default turns/10)")
    p.add_argument("--games", nargs="*", help="game names or config labels (default: all)")
    p.add_argument("--paths", nargs="*", choices=list(PATHS), help="paths to fuzz (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rate", type=float, default=0.25, help="chance of a malformed input per turn")
    p.add_argument("--jobs", type=int, default=1, help="processes")
    p.add_argument("--chunk", type=int, default=20_000, help="turns per chunk (unit of work, of --resume)")
    p.add_argument("--out", help="JSON file for the figures (written after every chunk)")
    p.add_argument("--resume", action="store_true", help="run only the chunks --out lacks")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--replay", nargs=3, metavar=("CONFIG", "PATH", "SEED"), help="play one fuzzed game again")
    p.add_argument("--surfaces", action="store_true", help="fuzz model files, run folders and the web server")
    p.add_argument("--seconds", type=float, default=300.0, help="--surfaces: the campaign's time bound")
    p.add_argument("--parts", nargs="*", choices=["models", "runs", "server"], help="--surfaces: the parts to run")
    p.add_argument(
        "--kinds",
        nargs="*",
        help="--surfaces: only these kinds of model and run-folder tries (sb3 alphazero rllib alphazero-names ...)",
    )
    args = p.parse_args(argv)
    for name, value in (("--turns", args.turns), ("--chunk", args.chunk), ("--jobs", args.jobs)):
        if value < 1:
            p.error(f"{name} must be a positive integer, got {value}")
    if args.api_turns is not None and args.api_turns < 0:
        p.error(f"--api-turns must be 0 or more, got {args.api_turns}")
    if not 0.0 <= args.rate <= 1.0:
        p.error(f"--rate must be in [0, 1], got {args.rate}")
    if args.surfaces and not args.replay:
        if args.seconds <= 0:
            p.error(f"--seconds must be positive, got {args.seconds}")
        from boardgames.benchmarks.fuzz.surfaces import main as surfaces_main

        return surfaces_main(args)
    if args.replay:
        label, path, seed = args.replay
        if label in ("models", "runs", "server"):
            return 1 if replay(label, path, int(seed), args.rate) else 0
        if path not in PATHS:
            p.error(f"unknown path {path!r}; paths: {' '.join(PATHS)}")
        return 1 if replay(label, path, int(seed), args.rate) else 0
    start = time.perf_counter()
    tallies = fuzz(
        _select(args.games),
        args.paths,
        args.turns,
        args.api_turns,
        args.seed,
        args.rate,
        args.chunk,
        args.jobs,
        not args.no_progress,
        args.out,
        args.resume,
    )
    print(format_table(tallies))
    print(f"wall time {time.perf_counter() - start:.0f} s (seed {args.seed}, rate {args.rate})")
    return print_failures(tallies)
