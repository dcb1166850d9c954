"""A/B of the batched random pick: the whole-mask scan (:func:`boardgames.envs.compiled.sampling.sample_actions`, what
:meth:`BatchedGames.random_actions` did before the lists of legal actions) against the lists written by
the step (the games' ``legal_mask_listed`` / :func:`boardgames.envs.compiled.sampling.pick_listed`), single thread, CPU
time:

    python -m boardgames.benchmarks.pick_ab [GAMES=adix,barc] [SIZES=256,1024] [ROUNDS=5] [SECONDS=0.4] [OBS=uint8|none]

:class:`boardgames.envs.vector.BatchedGames` turns/s, ``step(random_actions())``, observations of ``OBS`` (uint8,
float32 or none). The variants alternate, each round ``SECONDS`` of ``time.process_time``; the best round of each
is printed as a markdown table. Both variants play the same games (same draws)."""

from __future__ import annotations

import sys

from boardgames.benchmarks.ab import best_rates
from boardgames.benchmarks.loops import batch_stepper
from boardgames.envs.vector import BatchedGames

VARIANTS = ["whole-mask scan", "lists"]


def _stepper(game: str, size: int, variant: str, obs: str):
    dtype = "uint8" if obs == "none" else obs
    b = BatchedGames(game, size, seed=0, observe=obs != "none", obs_dtype=dtype, threads=False)
    if variant == "whole-mask scan":

        def random_actions():
            b._sample(b.masks.reshape(-1, b.masks.shape[-1]), b.rng, b._actions.reshape(-1))
            return b._actions

        object.__setattr__(b, "random_actions", random_actions)  # the lists are then never asked for, nor written
    return batch_stepper(b, warmups=2)


def main(argv=None) -> dict:
    args = list(sys.argv[1:] if argv is None else argv) + [None] * 5
    games = (args[0] or "adix,barc").split(",")
    sizes = [int(n) for n in (args[1] or "256,1024").split(",")]
    rounds, seconds, obs = int(args[2] or 5), float(args[3] or 0.4), args[4] or "uint8"
    fns = {(g, n, v): _stepper(g, n, v, obs) for g in games for n in sizes for v in VARIANTS}
    best = best_rates(fns, rounds, seconds)
    print(f"| game | batch (obs {obs}) | " + " | ".join(VARIANTS) + " | gain |")
    print("| --- | ---: |" + " ---: |" * (len(VARIANTS) + 1))
    for g in games:
        for n in sizes:
            a, b = (best[(g, n, v)] for v in VARIANTS)
            print(f"| {g} | {n} | {a:,.0f} | {b:,.0f} | {b / a - 1:+.1%} |", flush=True)
    return best


if __name__ == "__main__":
    main()
