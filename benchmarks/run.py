"""Random-play speed of every registered game and of its peers, measured side by side in one run.

    boardgames bench [--seconds 1] [--rounds 3] [--games dorix olix] [--all-options] [--sizes 1 64 1024]
                             [--ppo-frames 8192 --ppo-envs 128 --ppo-net 64 64 --ppo-epochs 2 | --no-ppo]
                             [--out benchmarks/results/latest.json]

For each game (its default options; every option set of its ``CONFORMANCE_OPTIONS`` with
``--all-options``) it prints turns per second of uniformly random legal play through

* (a) ``pettingzoo``: the PettingZoo API as a user's loop drives it (AEC: ``agent_iter`` / ``last`` /
  ``step``; the games with a Parallel environment: the Parallel API, one turn of every seat per ``step``);
* (b) ``engine``: the raw engine in Python (``legal_actions`` + ``apply`` on the Game/State interface);
* (c) ``batched N``: :class:`boardgames.envs.vector.BatchedGames` at each batch size N, one compiled call per step
  of all N games, masks and observations refreshed (random actions drawn by its compiled sampler);
  ``batched N no obs``: the same without observations; ``batched N uint8``: with uint8 observations
  (``obs_dtype="uint8"``, which the games' observe kernels write directly); these on one thread. And
  ``batched N threaded``: the same spread over K threads (``--threads K``; default: every core numba has,
  the batches' own default ``threads=True`` when torch is not imported; ``--threads 1``: none of these) and
  ``batched N uint8 threaded``: with uint8 observations on K threads, and ``batched N uint8 packed
  threaded``: with packed masks too (``packed_masks=True``, eight actions to a byte), at every size of
  ``--sizes`` and ``--thread-sizes`` (default 512) above one chunk of 64 rows; ``compiled playouts``: the
  whole random game loop inside numba (the engine's own speed, nothing handed back to Python between turns);
* (d) ``clone_apply``: ``clone()`` before every ``apply`` (what MCTS does).

Peers: PettingZoo's ``connect_four_v3`` through the same AEC loop; OpenSpiel's ``connect_four`` (raw
``legal_actions`` + ``apply_action``, and with observation tensor and mask) and pgx's
``connect_four`` on the CPU (jitted ``step`` of a batch) only where ``pyspiel`` / ``pgx`` are
installed: they are optional extras of the benchmark, never dependencies of the library. Random
choices in the Python loops use the same cheap picker for our games and for the peers.

Then MaskablePPO frames per second (``--ppo-frames`` frames, default options of the first game):
:class:`boardgames.envs.vector.sb3.BatchedVecEnv` against SB3's ``DummyVecEnv`` of
:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv`, same hyperparameters, random opponents.

Every figure and every ratio to a peer is printed and written to ``--out`` (JSON), and, per game, the
best batched figure *with observations* (float32 or uint8, serial or threaded, at any measured size)
against pgx's ``connect_four`` at the largest size (goal >= 1x) and OpenSpiel raw (goal >= 2x). A peer that
is not installed is compared through a reference figure for it on the project's machine, labelled as not
measured in this run. Figures depend on the machine and its load: compare only numbers from the same run.
docs/performance.md has the figures of the last run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import numba

from boardgames.benchmarks.loops import batched_turns, compiled_playouts, engine_turns, pettingzoo_turns, timed
from boardgames.benchmarks.peers import peer_tasks
from boardgames.benchmarks.ppo import PPO_SETTINGS, ppo_frames_per_second
from boardgames.envs.registry import env_module, game_names, parallel_games

# The project's speed goals: ratios to peers measured in the same run.
TARGETS = {
    "pettingzoo_vs_connect_four": {"dorix": 5.0, "barc": 5.0, "olix": 3.0, "adix": 3.0},
    "batched_vs_openspiel_raw": {"dorix": 4.0, "barc": 4.0, "olix": 1.0, "adix": 1.0},
    "ppo_batched_vs_dummy": 2.0,
}
# Goals of the batched step with observations (the best column) against pgx at the largest batch and OpenSpiel raw.
WITH_OBS_TARGETS = {"pgx connect_four cpu batch {big}": 1.0, "openspiel connect_four raw": 2.0}


# Reference figures of the peers on the project's 2-core machine (turns/s); printed, with our ratio to
# them, only for the peers that are not installed, and labelled as not measured in this run.
REFERENCE_FIGURES = {
    "openspiel connect_four raw": 560_000,
    "openspiel connect_four obs+mask": 130_000,
    "pgx connect_four cpu batch 1024": 2_200_000,
}


# ----- main ---------------------------------------------------------------------------------------------
def _threaded_sizes(sizes: list, extra: list) -> list:
    """The batch sizes measured on threads: the largest of ``sizes`` and every size of
    ``sizes`` + ``extra`` with more than one chunk of rows (:data:`boardgames.envs.vector.loops.CHUNK`: smaller
    batches run on one thread), ascending. Smaller batches keep their output arrays in the cache."""
    from boardgames.envs.vector.loops import CHUNK

    return sorted({max(sizes)} | {n for n in list(sizes) + list(extra) if n > CHUNK})


def _label(name: str, options: dict) -> str:
    return name + "".join(f" {k}={v}" for k, v in options.items())


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all measurements (the best is kept)")
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: all registered)")
    parser.add_argument("--all-options", action="store_true", help="every option set of CONFORMANCE_OPTIONS")
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 64, 256, 1024], help="batch sizes")
    parser.add_argument("--ppo-frames", type=int, default=8192, help="MaskablePPO frames per measurement")
    parser.add_argument("--ppo-envs", type=int, default=128, help="MaskablePPO: number of games")
    parser.add_argument("--ppo-net", nargs="*", type=int, default=[64, 64], help="MaskablePPO: MLP layer sizes")
    parser.add_argument("--ppo-epochs", type=int, default=2, help="MaskablePPO: epochs per rollout")
    parser.add_argument("--no-ppo", action="store_true", help="skip the MaskablePPO measurement")
    parser.add_argument(
        "--threads",
        nargs="?",
        type=int,
        const=0,
        default=0,
        help="the batched step on K threads too (default: numba's pool; 1: not), float32 and uint8 observations, "
        "at every size of --sizes and --thread-sizes above 64 games (one chunk per thread task)",
    )
    parser.add_argument(
        "--thread-sizes",
        nargs="*",
        type=int,
        default=[512],
        help="batch sizes measured on threads only, besides those of --sizes",
    )
    parser.add_argument("--out", default="benchmarks/results/latest.json", help="where to write the figures")
    args = parser.parse_args(argv)
    log = lambda text: print(text, flush=True)  # noqa: E731
    rows, tasks = [], []  # tasks: (where the figure goes, its key, the function playing turns)
    for name in args.games or game_names():
        module = env_module(name)
        for options in module.CONFORMANCE_OPTIONS if args.all_options else [{}]:
            game = module.make_game(**options)
            parallel = name in parallel_games()
            make = (
                (lambda m=module, o=options: m.parallel_env(**o))
                if parallel
                else (lambda m=module, o=options: m.env(**o))
            )
            row = {"game": _label(name, options), "name": name, "options": options}
            rows.append(row)
            tasks += [
                (row, "pettingzoo", pettingzoo_turns(make, 0, parallel=parallel)),
                (row, "engine", engine_turns(game, 0)),
                (row, "clone_apply", engine_turns(game, 0, clone=True)),
            ]
            tasks += [(row, f"batched {n}", batched_turns(game, n)) for n in args.sizes]
            tasks += [
                (row, f"batched {max(args.sizes)} no obs", batched_turns(game, max(args.sizes), observe=False)),
                (row, f"batched {max(args.sizes)} uint8", batched_turns(game, max(args.sizes), obs_dtype="uint8")),
                (row, "compiled playouts", compiled_playouts(game)),
            ]
            count = args.threads or numba.config.NUMBA_NUM_THREADS
            if count > 1:
                for n in _threaded_sizes(args.sizes, args.thread_sizes):
                    tasks.append((row, f"batched {n} threaded", batched_turns(game, n, threads=count)))
                    tasks.append(
                        (row, f"batched {n} uint8 threaded", batched_turns(game, n, threads=count, obs_dtype="uint8"))
                    )
                    packed = batched_turns(game, n, threads=count, obs_dtype="uint8", packed_masks=True)
                    tasks.append((row, f"batched {n} uint8 packed threaded", packed))
    peers = {}
    tasks += [(peers, key, fn) for key, fn in peer_tasks(args.sizes, log).items()]
    # Rounds over every measurement, keeping each one's best: the machine's load changes during a run,
    # and the best of several rounds is the figure least disturbed by it, for us and for the peers alike.
    for r in range(args.rounds):
        for where, key, fn in tasks:
            where[key] = max(where.get(key, 0.0), timed(fn, args.seconds))
        log(f"round {r + 1}/{args.rounds} done")
    big = max(args.sizes)
    for row in rows:
        row["batched best"] = max(row[f"batched {n}"] for n in args.sizes)
        with_obs = [k for k in row if k.startswith("batched") and "no obs" not in k and k != "batched best"]
        row["with obs best"] = max(row[k] for k in with_obs)
        row["with obs best is"] = max(with_obs, key=row.get)
        log(
            f"{row['game']:28s} "
            + "  ".join(f"{k} {v:,.0f}" for k, v in row.items() if isinstance(v, float))
            + "  turns/s"
        )
    for key, value in peers.items():
        log(f"{'peer: ' + key:44s} {value:>13,.0f} turns/s")
    ratios = []
    for row in rows:
        for peer, value in peers.items():
            ours = row["pettingzoo"] if peer.startswith("pettingzoo") else row["batched best"]
            what = "PettingZoo API" if peer.startswith("pettingzoo") else "batched (best size)"
            ratios.append({"game": row["game"], "ours": what, "peer": peer, "ratio": ours / value})
            log(f"{row['game']:28s} {what:20s} {ours / value:7.2f}x  {peer}")
    with_obs_targets = []
    for row in rows:
        for template, target in WITH_OBS_TARGETS.items():
            peer = template.format(big=big)
            if peer not in peers:
                continue
            ratio = row["with obs best"] / peers[peer]
            with_obs_targets.append({"game": row["game"], "peer": peer, "ratio": ratio, "target": target})
            log(
                f"{row['game']:28s} with observations, best ({row['with obs best is']}) {row['with obs best']:,.0f}: "
                f"{ratio:5.2f}x {peer} (goal >= {target:g}x: {'met' if ratio >= target else 'not met'})"
            )
    for peer, value in REFERENCE_FIGURES.items():
        if peer in peers:
            continue
        for row in rows:
            ratio = row["batched best"] / value
            ratios.append(
                {
                    "game": row["game"],
                    "ours": "batched (best size)",
                    "peer": peer,
                    "ratio": ratio,
                    "reference": "reference figure, not measured in this run",
                }
            )
            log(
                f"{row['game']:28s} {'batched (best size)':20s} {ratio:7.2f}x  {peer} = {value:,} "
                "(reference figure for the project's machine, not measured in this run)"
            )
    ppo = None
    if not args.no_ppo:
        ppo_game = (args.games or game_names())[0]
        settings = {**PPO_SETTINGS, "n_epochs": args.ppo_epochs, "policy_kwargs": {"net_arch": args.ppo_net}}
        ppo = ppo_frames_per_second(ppo_game, args.ppo_frames, args.ppo_envs, settings, args.rounds)
        log(
            f"MaskablePPO {ppo_game}: batched VecEnv {ppo['batched']:,.0f} frames/s, DummyVecEnv of SingleAgentEnv "
            f"{ppo['dummy']:,.0f} frames/s: {ppo['ratio']:.2f}x; acting alone (no gradient step) "
            f"{ppo['batched rollout']:,.0f} vs {ppo['dummy rollout']:,.0f} frames/s: {ppo['rollout ratio']:.2f}x "
            f"({ppo['n_envs']} envs, n_steps {ppo['n_steps']}, "
            f"batch {ppo['batch_size']}, {ppo['n_epochs']} epochs, MLP {ppo['net_arch']})"
        )
    result = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "games": rows,
        "peers": peers,
        "ratios": ratios,
        "with_obs_targets": with_obs_targets,
        "ppo": ppo,
        "targets": TARGETS,
    }
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    log(f"written to {args.out}")
    return result


if __name__ == "__main__":
    main()
