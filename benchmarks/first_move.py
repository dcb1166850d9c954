"""How long a player waits for a shipped model's first moves: each model in a fresh process, as
``boardgames play`` starts it.

    python -m boardgames.benchmarks.first_move [--models models/dorix_2p_az ...] [--no-warm-up]
                                               [--torch-threads N] [--prime] [--out FILE.json]

Per model (by default ``models/dorix_2p_az``, ``models/olix_az``, ``models/adix_az`` and the PPO model
``models/dorix_2p``), one fresh Python process times, in order:

* ``import``: importing the agent kinds and the game registry;
* ``load``: ``make_agent(model)`` (the network read from disk);
* ``ready``: the warm-up ``boardgames play`` and ``boardgames web`` do before the game
  (:func:`boardgames.play.moves.warm_up`: the search compiled, the network called once);
  skipped with ``--no-warm-up``, whose first move then pays for it, as every first move did before;
* ``first``, ``second``: the agent's move from the start position, then its move in the position after
  that one (the other seat's, played by the same agent);

and the torch threads the moves ran with (the rule of :mod:`boardgames.training.torch_threads`: 1 unless
``--torch-threads`` or the environment says; ``--torch-threads 0`` leaves torch's own default, a thread per
core, to show what the rule saves). The numba cache is used as it is on disk: run once with ``--prime``
(a throwaway process per model first) after a fresh install or an edit of the kernels, so that the figures
are those of a warm cache. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

MODELS = ("models/dorix_2p_az", "models/olix_az", "models/adix_az", "models/dorix_2p")
STAGES = ("import", "load", "ready", "first", "second")


def child(spec: str, warm: bool, threads: int | None) -> dict:
    """The stages of the module docstring for the model ``spec``, in this process: seconds per stage."""
    times = {}
    start = time.perf_counter()
    from boardgames.play.moves import warm_up
    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.storage.model_version import model_game

    times["import"] = time.perf_counter() - start
    if threads == 0:  # torch's own default: the helper finds the threads set and keeps them
        import torch

        from boardgames.training.torch_threads import use_torch_threads

        use_torch_threads(torch.get_num_threads())
    elif threads is not None:
        from boardgames.training.torch_threads import use_torch_threads

        use_torch_threads(threads)
    start = time.perf_counter()
    agent = make_agent(spec)
    game = getattr(agent, "game", None)
    if game is None:  # an SB3 model: its game is in its metadata
        from boardgames.training.sb3.agent import model_metadata

        path = getattr(agent, "path", None)
        assert path is not None, f"{spec}: an agent of a model file has its path"
        meta = model_metadata(path)
        game = model_game(meta["game"], meta.get("game_options", {}), meta)
    times["load"] = time.perf_counter() - start
    state = game.new_initial_state()
    if warm:
        start = time.perf_counter()
        warm_up(agent, state)
        times["ready"] = time.perf_counter() - start
    for stage in ("first", "second"):
        seat = int(state.current_seats()[0])
        start = time.perf_counter()
        action = agent(state.clone(), seat)
        times[stage] = time.perf_counter() - start
        state.apply_actions({seat: int(action)})
    import torch

    times["torch_threads"] = torch.get_num_threads()
    return times


def measure(spec: str, warm: bool, threads: int | None) -> dict:
    """:func:`child` in a fresh process; ``process``: the whole process, Python's start included."""
    command = [sys.executable, "-m", "boardgames.benchmarks.first_move", "--child", spec]
    command += [] if warm else ["--no-warm-up"]
    command += [] if threads is None else ["--torch-threads", str(threads)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{spec}: the measuring process failed:\n{done.stderr[-2000:]}")
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "process": elapsed}


def table(rows: dict) -> str:
    """The figures as a table: seconds per stage, one model a line."""
    head = f"{'model':<22}" + "".join(f"{s:>9}" for s in (*STAGES, "process")) + "  threads"
    lines = [head, "-" * len(head)]
    for spec, r in rows.items():
        cells = "".join(f"{r[s]:>8.2f}s" if s in r else f"{'-':>9}" for s in (*STAGES, "process"))
        lines.append(f"{spec:<22}{cells}  {r['torch_threads']:>7}")
    return "\n".join(lines)


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.first_move",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--models", nargs="+", default=list(MODELS), help="model specs (default: %(default)s)")
    p.add_argument("--no-warm-up", action="store_true", help="no warm-up before the first move")
    p.add_argument(
        "--torch-threads", type=int, default=None, help="torch threads (default: the library's rule; 0: torch's)"
    )
    p.add_argument("--prime", action="store_true", help="a throwaway process per model first (fills the cache)")
    p.add_argument("--out", default=None, help="also write the figures to this JSON file")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, not args.no_warm_up, args.torch_threads)))
        return
    if args.prime:
        for spec in args.models:
            measure(spec, True, args.torch_threads)
    rows = {}
    for spec in args.models:
        rows[spec] = measure(spec, not args.no_warm_up, args.torch_threads)
        print(f"{spec}: {json.dumps({k: round(v, 2) for k, v in rows[spec].items()})}", file=sys.stderr, flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"first moves of the shipped models, a fresh process each (load average {load:.1f}, {os.cpu_count()} CPUs)")
    print(table(rows))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"load": load, "cpus": os.cpu_count(), "models": rows}, f, indent=1)


if __name__ == "__main__":
    main()
