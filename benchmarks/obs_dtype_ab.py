"""A/B of the batched observation paths, single thread, CPU time (for a loaded machine):

    python -m boardgames.benchmarks.obs_dtype_ab [GAMES=dorix,olix,adix,barc] [SIZES=64,1024] [ROUNDS=5] [SECONDS=0.4]

:class:`boardgames.envs.vector.BatchedGames` turns/s with random legal actions, for float32 observations, uint8
ones through the quantizing loops (float buffer + ``quantize``: the path before the games' kernels
wrote uint8 themselves; obtained by making ``boardgames.envs.vector.loops.writes_uint8`` say no), uint8 written
directly, and no observations. The variants alternate, each round ``SECONDS`` of ``time.process_time``
(the time other jobs take the core away is not counted), and the best round of each is printed as a
markdown table."""

from __future__ import annotations

import sys

import boardgames.envs.vector.loops as kernels
from boardgames.benchmarks.ab import best_rates
from boardgames.benchmarks.loops import batch_stepper
from boardgames.envs.vector import BatchedGames

VARIANTS = ["float32", "uint8 quantize", "uint8 direct", "no obs"]


def _stepper(game: str, size: int, variant: str):
    real = kernels.writes_uint8
    if variant == "uint8 quantize":
        kernels.writes_uint8 = lambda kernels: False
    try:
        dtype = "float32" if variant in ("float32", "no obs") else "uint8"
        b = BatchedGames(game, size, seed=0, observe=variant != "no obs", obs_dtype=dtype, threads=False)
    finally:
        kernels.writes_uint8 = real
    return batch_stepper(b, warmups=1)


def main(argv=None) -> dict:
    args = list(sys.argv[1:] if argv is None else argv) + [None] * 4
    games = (args[0] or "dorix,olix,adix,barc").split(",")
    sizes = [int(n) for n in (args[1] or "64,1024").split(",")]
    rounds, seconds = int(args[2] or 5), float(args[3] or 0.4)
    fns = {(g, n, v): _stepper(g, n, v) for g in games for n in sizes for v in VARIANTS}
    best = best_rates(fns, rounds, seconds)
    print("| game | batch | " + " | ".join(VARIANTS) + " |")
    print("| --- | ---: |" + " ---: |" * len(VARIANTS))
    for g in games:
        for n in sizes:
            print(f"| {g} | {n} | " + " | ".join(f"{best[(g, n, v)]:,.0f}" for v in VARIANTS) + " |", flush=True)
    return best


if __name__ == "__main__":
    main()
