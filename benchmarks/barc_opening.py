"""How deep each Barc start is free of forced victory (ruling B1, criterion 3), and what proving it costs.

    python -m boardgames.benchmarks.barc_opening [--starts alternating corners edges] [--turns 5] [--out FILE.json]

For each start and each depth from 1 to ``--turns``, the exhaustive search of :mod:`boardgames.envs.barc.forced` asks
whether South, then North, can force reaching victory within that many turns (every order of both sides,
stay included; each side sees the resolved turn before its next order). It stops at the first depth where
a side can, and prints the seconds each depth took (one core, compiled; the first depth includes the
compilation). Not a test: the unit tests prove turns 2 and 3 (tests/barc/test_barc_opening.py).
"""

from __future__ import annotations

import argparse
import json
import time


def main(argv: list | None = None) -> None:
    from boardgames.envs.barc import forced as F
    from boardgames.envs.barc import rules as R
    from boardgames.envs.registry import make_game

    parser = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.barc_opening", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--starts", nargs="+", default=list(R.START_NAMES), choices=R.START_NAMES)
    parser.add_argument("--turns", type=int, default=5, help="deepest depth searched (default 5)")
    parser.add_argument("--out", default=None, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    rows = []
    for start in args.starts:
        data = make_game("barc", start=start).new_initial_state().data
        for turns in range(1, args.turns + 1):
            t0 = time.perf_counter()
            forced = [bool(F.forces_victory(data, seat, turns)) for seat in (0, 1)]
            seconds = time.perf_counter() - t0
            rows.append(
                {
                    "start": start,
                    "turns": turns,
                    "south_forces": forced[0],
                    "north_forces": forced[1],
                    "seconds": round(seconds, 3),
                }
            )
            sides = ", ".join(n for n, f in zip(("South", "North"), forced) if f)
            verdict = f"forced victory: {sides}" if sides else "no forced victory"
            print(f"{start:12s} within {turns} turn(s): {verdict} ({seconds:.2f} s)", flush=True)
            if any(forced):
                break
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
