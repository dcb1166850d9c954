"""This checkout's batched step against another checkout's, in CPU time: the before/after of a refactor on a
busy machine.

    python -m boardgames.benchmarks.checkout_ab --against DIR [--games dorix barc] [--pairs 3] [--rounds 5]
                                                [--seconds 0.4] [--uint8] [--packed] [--size N]

``DIR`` is another checkout of the library (``git worktree add /tmp/before <commit>``; its dependencies are
this environment's). Each side runs in a fresh process of this Python, in turn, ``--pairs`` times: a
:class:`boardgames.envs.vector.BatchedGames` of each game (the size of ``boardgames bench``'s best serial
batch: Dorix 256, Olix 64, ADIX 64, Barc 1024; ``--size N``: N games each), serial, stepped with its own
random legal actions, observed (float32, or uint8 with ``--uint8``), with bool masks (packed with
``--packed``: with ``--uint8 --size 1024``, each thread's loop of the bench's best variant), best of
``--rounds`` rounds of ``--seconds`` of process time (:mod:`boardgames.benchmarks.ab`). Process time, not
wall time: a process waiting for the core while other jobs run is not charged, so two runs minutes apart on a
loaded machine agree to a few percent where wall-time figures differ by half. It prints each side's median
over the pairs and the ratio this / other. Each side compiles what it lacks first (not timed)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SIZES = {"dorix": 256, "olix": 64, "adix": 64, "barc": 1024}
"""Batch size per game: the best serial size of ``boardgames bench`` on the project's machine."""


def child(games: list, rounds: int, seconds: float, obs_dtype: str, size: int = 0, packed: bool = False) -> dict:
    """In the measuring process: ``{game: best turns per CPU second}`` (``size`` 0: :data:`SIZES`)."""
    from boardgames.benchmarks.ab import best_rates
    from boardgames.benchmarks.loops import batch_stepper
    from boardgames.envs.vector import BatchedGames

    steppers = {}
    for game in games:
        batch = BatchedGames(game, size or SIZES[game], seed=0, threads=False, obs_dtype=obs_dtype, packed_masks=packed)
        steppers[game] = batch_stepper(batch, warmups=2)
    return best_rates(steppers, rounds, seconds)


def package_view(checkout: Path, into: Path) -> Path:
    """A folder holding ``boardgames`` as ``checkout`` lays it out (links to its files: its pyproject.toml's
    package-dir), to put first on the path of a process that should import that checkout's library."""
    from boardgames.layout import lay_out

    return lay_out(checkout, into)


def run_side(path_first: Path | None, settings: dict) -> dict:
    """One measuring process, importing the library from ``path_first`` (None: this checkout's, as this
    process does), run from ``path_first`` so that no folder of the current one shadows it."""
    env = dict(os.environ, OMP_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    if path_first is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path_first), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    # this file as a script: the other checkout may not have this module
    command = [sys.executable, __file__, "--child", json.dumps(settings)]
    cwd = path_first if path_first is not None else Path(__file__).resolve().parents[1]
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"a measuring process failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout of the library")
    parser.add_argument("--games", nargs="+", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.4)
    parser.add_argument("--uint8", action="store_true", help="uint8 observations (float32 by default)")
    parser.add_argument("--packed", action="store_true", help="packed masks (bool by default)")
    parser.add_argument("--size", type=int, default=0, help="games per batch (default: each game's in SIZES)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        settings = json.loads(args.child)
        dtype = "uint8" if settings["uint8"] else "float32"
        shape = settings.get("size", 0), settings.get("packed", False)
        print(json.dumps(child(settings["games"], settings["rounds"], settings["seconds"], dtype, *shape)))
        return {}
    if args.against is None:
        parser.error("--against DIR is required")
    settings = {"games": args.games, "rounds": args.rounds, "seconds": args.seconds, "uint8": args.uint8}
    settings.update(size=args.size, packed=args.packed)
    figures: dict = {"this": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="boardgames-ab-") as root:
        other = package_view(args.against.resolve(), Path(root))
        for pair in range(args.pairs):
            figures["other"].append(run_side(other, settings))
            figures["this"].append(run_side(None, settings))
            print(f"pair {pair + 1}/{args.pairs} done", file=sys.stderr, flush=True)
    print("| game | this checkout | other | ratio |\n| --- | ---: | ---: | ---: |")
    medians = {}
    for game in args.games:
        mine = statistics.median(run[game] for run in figures["this"])
        theirs = statistics.median(run[game] for run in figures["other"])
        medians[game] = {"this": mine, "other": theirs}
        print(f"| {game} | {mine:,.0f} | {theirs:,.0f} | {mine / theirs:.3f} |")
    return medians


if __name__ == "__main__":
    main()
