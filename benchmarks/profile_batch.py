"""Where a batched step's time goes, per game: nanoseconds per game and step in each rules kernel.

    python -m boardgames.benchmarks.profile_batch [--games dorix barc] [--size 256] [--seconds 1] [--obs-dtype uint8]

Positions are sampled from random play (a :class:`boardgames.envs.vector.BatchedGames` advanced a random number of
steps); then, over those positions, compiled loops time each part of a batched step alone: the
game's ``legal_mask`` (every seat that acts), ``observe`` (same seats; into float32 planes, or with
``--obs-dtype uint8`` into uint8 ones, which the games' kernels write directly), ``apply_action`` /
``apply_joint`` on copies, and the batch's random legal pick. Compare with the ``batched`` figures of
``boardgames bench``: a batched step is about the sum of these parts.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from boardgames.envs.compiled.sampling import pick_legal
from boardgames.envs.core.game_kernels import GameKernels, kernels_of
from boardgames.envs.registry import game_names, make_game
from boardgames.envs.vector import BatchedGames


def _kernels(kernels: GameKernels, acting: int):
    """Compiled loops timing each part of a batched step alone; ``acting`` seats act per decision (1:
    the seat to move, from the state; more: seats 0..acting-1 together, one action each)."""
    legal_mask = kernels.legal_mask
    observe = kernels.observe
    to_move_at = kernels.to_move_at
    one = acting == 1

    @njit
    def masks(states, out):
        for i in range(states.shape[0]):
            for s in range(acting):
                legal_mask(states[i], states[i, to_move_at] if one else s, out[i, s])

    @njit
    def observations(states, out):
        for i in range(states.shape[0]):
            for s in range(acting):
                observe(states[i], states[i, to_move_at] if one else s, out[i, s])

    @njit
    def picks(mask_rows, rng, out):
        for i in range(mask_rows.shape[0]):
            for s in range(out.shape[1]):
                out[i, s] = pick_legal(mask_rows[i, s], rng, i)

    play = kernels.apply_action if one else kernels.apply_joint

    @njit
    def applies(states, actions):
        for i in range(states.shape[0]):
            play(states[i], actions[i, 0] if one else actions[i])

    return masks, observations, picks, applies


def _per_call(fn, seconds: float) -> float:
    fn()
    calls, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        fn()
        calls += 1
    return (time.process_time() - start) / calls


def profile(name: str, size: int, seconds: float, obs_dtype: str = "float32") -> dict:
    game = make_game(name)
    info = game.info
    seats = info.acting_seats
    batch = BatchedGames(game, size, seed=0, observe=False, threads=False)
    rng = np.random.default_rng(0)
    for _ in range(int(rng.integers(5, 40))):  # positions from the middle of random games
        batch.step(batch.random_actions())
    masks, observations, picks, applies = _kernels(kernels_of(game), seats)
    mask_out = np.zeros((size, seats, info.num_actions), dtype=np.bool_)
    obs_out = np.zeros((size, seats) + tuple(info.observation_shape), dtype=obs_dtype)
    masks(batch.states, mask_out)
    actions = np.zeros((size, seats), dtype=np.int64)
    picks(mask_out, batch.rng.copy(), actions)
    copies = batch.states.copy()

    def apply_on_copies():
        copies[:] = batch.states
        applies(copies, actions)

    copy_only = _per_call(lambda: copies.__setitem__(slice(None), batch.states), seconds / 4)
    parts = {
        "legal_mask": _per_call(lambda: masks(batch.states, mask_out), seconds),
        "observe": _per_call(lambda: observations(batch.states, obs_out), seconds),
        "apply": max(_per_call(apply_on_copies, seconds) - copy_only, 0.0),
        "pick": _per_call(lambda: picks(mask_out, batch.rng.copy(), actions), seconds),
    }
    return {k: v / size * 1e9 for k, v in parts.items()}  # ns per game and step


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--obs-dtype", default="float32", choices=["float32", "uint8"], help="observations' type")
    args = parser.parse_args(argv)
    result = {}
    for name in args.games or game_names():
        parts = profile(name, args.size, args.seconds, args.obs_dtype)
        result[name] = parts
        total = sum(parts.values())
        print(
            f"{name:8s} "
            + "  ".join(f"{k} {v:7.0f} ns ({v / total:4.0%})" for k, v in parts.items())
            + f"  sum {total:7.0f} ns = {1e9 / total:,.0f} steps/s",
            flush=True,
        )
    return result


if __name__ == "__main__":
    main()
