"""Throughput of the batched self-play step against the batch size, per game, as a PNG plot.

    python -m boardgames.benchmarks.plot_batch [--sizes 1 4 16 64 256 1024 4096] [--games olix adix]
        [--seconds 0.5] [--rounds 3] [--threaded] [--out docs/images/batch_throughput.png]

For every game: turns/s of :class:`boardgames.envs.vector.BatchedGames` with random legal actions, with float32
observations (the default), with uint8 observations (``obs_dtype="uint8"``), with uint8 observations and
packed masks (``packed_masks=True``) and without observations, at each batch size; OpenSpiel's raw
``connect_four`` (``legal_actions`` + ``apply_action``, no observation) as a line where it is installed,
and with ``--threaded`` pgx's ``connect_four`` on the CPU (XLA on every core) at each batch size from 16.
By default every loop runs on one core and the time is this process's CPU time (``timed(cpu=True)``): on a
shared machine the wall clock would also count the time other jobs hold it. With ``--threaded`` the
batches take their default ``threads=True`` (one thread up to one chunk of 64 games, else the cores torch
leaves free) and the time is the wall clock (``--out`` then names another file, e.g.
``docs/images/batch_throughput_threads.png``). Rounds alternate over every measurement and the best of
each is kept. The figures are also printed and written next to the PNG as JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from boardgames.benchmarks.loops import batched_turns, timed
from boardgames.envs.registry import game_names, make_game

VARIANTS: dict[str, dict[str, Any]] = {
    "float32 obs": dict(),
    "uint8 obs": dict(obs_dtype="uint8"),
    "uint8 obs, packed masks": dict(obs_dtype="uint8", packed_masks=True),
    "no obs": dict(observe=False),
}


PGX = "pgx connect_four (CPU)"


def measure(games, sizes, seconds: float, rounds: int, threaded: bool = False) -> dict:
    """``{game: {variant: {size: turns/s}}}`` and, where installed, ``{"openspiel raw": turns/s}``; the
    batches serial and timed in CPU time, or ``threaded`` (``threads=True``) and timed by the wall clock,
    with ``{PGX: {size: turns/s}}`` where pgx is installed (XLA uses every core: only the wall clock compares)."""
    tasks: list = []
    for name in games:
        game = make_game(name)
        for variant, options in VARIANTS.items():
            for size in sizes:
                tasks.append(
                    (
                        (name, variant, size),
                        batched_turns(game, size, threads=threaded, **options),
                    )
                )
    try:
        from boardgames.benchmarks.peers import openspiel_turns

        tasks.append((("openspiel raw", None, None), openspiel_turns(False, 0)))
    except ImportError:
        pass
    if threaded:
        try:
            import pgx  # noqa: F401

            from boardgames.benchmarks.peers import pgx_turns

            tasks += [((PGX, "peer", size), pgx_turns(size)) for size in sizes if size >= 16]
        except ImportError:
            pass
    best: dict = {}
    for _ in range(rounds):
        for key, fn in tasks:
            try:
                rate = timed(fn, seconds, cpu=not threaded)
            except ImportError:  # OpenSpiel not installed
                continue
            best[key] = max(best.get(key, 0.0), rate)
    result: dict = {}
    for (name, variant, size), rate in best.items():
        if variant is None:
            result[name] = rate
        elif variant == "peer":
            result.setdefault(name, {})[size] = rate
        else:
            result.setdefault(name, {}).setdefault(variant, {})[size] = rate
    return result


def plot(result: dict, out: Path, threaded: bool = False) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [g for g in result if isinstance(result[g], dict) and g != PGX]
    fig, axes = plt.subplots(1, len(games), figsize=(4.2 * len(games), 3.8), sharey=True, squeeze=False)
    for ax, name in zip(axes[0], games):
        for variant, rates in result[name].items():
            sizes = sorted(rates)
            ax.plot(sizes, [rates[s] / 1e6 for s in sizes], marker="o", label=variant)
        if PGX in result:
            sizes = sorted(result[PGX])
            ax.plot(sizes, [result[PGX][s] / 1e6 for s in sizes], color="black", linestyle=":", label=PGX)
        if "openspiel raw" in result:
            ax.axhline(result["openspiel raw"] / 1e6, color="grey", linestyle="--", label="OpenSpiel connect_four raw")
        ax.set_xscale("log", base=2)
        ax.set_title(name)
        ax.set_xlabel("batch size (games)")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("M turns/s (threads=True, wall clock)" if threaded else "M turns/s (one core, CPU time)")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 4, 16, 64, 256, 1024, 4096])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threaded", action="store_true", help="threads=True, wall clock (default: serial, CPU time)")
    parser.add_argument("--out", default="docs/images/batch_throughput.png")
    args = parser.parse_args(argv)
    result = measure(args.games or game_names(), args.sizes, args.seconds, args.rounds, args.threaded)
    for name, variants in result.items():
        if not isinstance(variants, dict):
            print(f"{name}: {variants:,.0f} turns/s")
            continue
        if name == PGX:
            print(f"{name}: " + "  ".join(f"{s}: {r:,.0f}" for s, r in sorted(variants.items())))
            continue
        for variant, rates in variants.items():
            print(f"{name:8s} {variant:24s} " + "  ".join(f"{s}: {r:,.0f}" for s, r in sorted(rates.items())))
    out = Path(args.out)
    plot(result, out, args.threaded)
    out.with_suffix(".json").write_text(json.dumps({k: v for k, v in result.items()}, indent=1) + "\n")
    print(f"wrote {out}")
    return result


if __name__ == "__main__":
    main()
