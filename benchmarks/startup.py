"""Start-up times: how long a fresh process waits before the first moves, with the compile caches cold and
warm, and how long every command's ``--help`` takes.

    python -m boardgames.benchmarks.startup [--games dorix olix] [--skip-help] [--skip-games] [--out FILE.json]

For every game, two fresh processes share two new, empty cache folders (``NUMBA_CACHE_DIR``, where numba
caches the game's rules kernels and its engine, ``envs/<game>/engine.py``; ``BOARDGAMES_CACHE_DIR``, unused
by the library's games, whose engines are kept in the repository):
the first finds them empty (**cold**: everything compiles), the second finds what the first left (**warm**).
Each process times, in order:

* ``import``: importing the game's environment module and building the game;
* ``aec``: the PettingZoo AEC environment's first ``reset()`` and 20 steps (random legal actions);
* ``batch``: a :class:`boardgames.envs.vector.BatchedGames` of 256 games (serial loops) and one step;
* ``search``: one 64-simulation :class:`boardgames.envs.search.MCTS` search from the start position;

and the parent the whole process (``process``, Python's start included), and counts the lines on stderr
that say something compiles. Then ``--help`` of every command, as ``boardgames <command> --help`` and as
``python -m <module> --help`` (the best of three). Not a test: the figures depend on the machine and its
load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("dorix", "olix", "adix", "barc")
STAGES = ("import", "aec", "batch", "search")
COMMANDS = (
    "train",
    "evaluate",
    "play",
    "web",
    "leaderboard",
    "alphazero",
    "rllib",
    "replay",
    "demo",
    "bench",
)


def child(game: str) -> dict:
    """The stages of the module docstring in this process: seconds per stage."""
    import importlib

    times = {}
    start = time.perf_counter()
    import numpy as np

    from boardgames.envs.registry import ENV_MODULES, make_game

    module = importlib.import_module(ENV_MODULES[game])
    state = make_game(game).new_initial_state()
    times["import"] = time.perf_counter() - start

    start = time.perf_counter()
    env = module.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=1)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    times["aec"] = time.perf_counter() - start

    from boardgames.envs.vector import BatchedGames

    start = time.perf_counter()
    batch = BatchedGames(game, 256, seed=0, threads=False)
    batch.step(batch.random_actions())
    times["batch"] = time.perf_counter() - start

    from boardgames.envs.search import MCTS

    start = time.perf_counter()
    MCTS(state.game).run(state, 64, seed=0)
    times["search"] = time.perf_counter() - start
    return times


def _run_child(game: str, env: dict) -> dict:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "boardgames.benchmarks.startup", "--child", game],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{game}: the measuring process failed:\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = wall
    result["compile_lines"] = [line for line in done.stderr.splitlines() if "compil" in line]
    return result


def measure_game(game: str) -> dict:
    """``{"cold": {...}, "warm": {...}}`` for ``game``: two processes over fresh cache folders."""
    with tempfile.TemporaryDirectory(prefix="boardgames-startup-") as root:
        env = dict(os.environ)
        env["BOARDGAMES_CACHE_DIR"] = os.path.join(root, "boardgames")
        env["NUMBA_CACHE_DIR"] = os.path.join(root, "numba")
        return {"cold": _run_child(game, env), "warm": _run_child(game, env)}


def _time_command(argv: list, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - start)
        if done.returncode != 0:
            return float("nan")
    return best


def measure_help() -> dict:
    """Seconds of ``--help`` per command: ``{"command": {"boardgames": s, "module": s}}`` (nan: it failed)."""
    listed = subprocess.run(  # the command line's table, asked of it as a program (benchmarks sit below it)
        [sys.executable, "-c", "import json; from boardgames.cli import COMMANDS; print(json.dumps(COMMANDS))"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = json.loads(listed.stdout)
    out = {}
    for name in COMMANDS:
        module = modules[name][0].removesuffix(".__main__")
        out[name] = {
            "boardgames": _time_command([sys.executable, "-m", "boardgames.cli", name, "--help"]),
            "module": _time_command([sys.executable, "-m", module, "--help"]),
        }
    out["python -c pass"] = {"boardgames": _time_command([sys.executable, "-c", "pass"]), "module": float("nan")}
    return out


def _table(games: dict) -> str:
    lines = [
        "| game | engine | caches | import | AEC reset + 20 steps | batch 256 + step | search 64 "
        "| whole process | says it compiles |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for (game, mode), runs in games.items():
        for kind in ("cold", "warm"):
            r = runs[kind]
            cells = " | ".join(f"{r[stage]:.2f} s" for stage in STAGES)
            said = "yes" if r["compile_lines"] else "nothing"
            lines.append(f"| {game} | {mode} | {kind} | {cells} | {r['process']:.2f} s | {said} |")
    return "\n".join(lines)


def _help_table(helps: dict) -> str:
    lines = ["| command | `boardgames <command> --help` | `python -m <module> --help` |", "| --- | ---: | ---: |"]
    for name, t in helps.items():
        lines.append(f"| {name} | {t['boardgames']:.2f} s | {t['module']:.2f} s |")
    return "\n".join(lines)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--skip-help", action="store_true", help="do not time the commands' --help")
    parser.add_argument("--skip-games", action="store_true", help="do not time the games' first moves")
    parser.add_argument("--out", default=None, help="write the figures to this JSON file")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child)))
        return {}
    results: dict[str, dict] = {"games": {}, "help": {}}
    if not args.skip_games:
        mode = "engine kept"
        for game in args.games:
            runs = results["games"][(game, mode)] = measure_game(game)
            print(f"{game}: cold {runs['cold']['process']:.1f} s, warm {runs['warm']['process']:.1f} s")
        print(_table(results["games"]))
        results["games"] = {f"{game}, {mode}": runs for (game, mode), runs in results["games"].items()}
    if not args.skip_help:
        results["help"] = measure_help()
        print(_help_table(results["help"]))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
