"""Where a batched step's time goes, per game: nanoseconds per game and step in each rules kernel.

    python -m boardgames.benchmarks.profile_batch [--games dorix barc] [--size 256] [--seconds 1] [--obs-dtype uint8]
    python -m boardgames.benchmarks.profile_batch --step [--games ...] [--size 1024] [--rounds 5]

Positions are sampled from random play (a :class:`boardgames.envs.vector.BatchedGames` advanced a random number of
steps); then, over those positions, compiled loops time each part of a batched step alone: the
game's ``legal_mask`` (every seat that acts), ``observe`` (same seats; into float32 planes, or with
``--obs-dtype uint8`` into uint8 ones, which the games' kernels write directly), ``apply_action`` /
``apply_joint`` on copies, and the batch's random legal pick. Compare with the ``batched`` figures of
``boardgames bench``: a batched step is about the sum of these parts.

``--step``: the parts of the step of the bench's best variant, ``uint8 packed`` (uint8 observations,
packed masks; on threads, each thread runs this same serial loop over its chunks), as the game's engine
plays them (:mod:`boardgames.envs.compiled.engines`): ``play`` (the move, on copies), ``outcome`` (the end
test and turn), ``mask`` (the engine's ``write_mask``: the bool mask on the stack, listed where the rules list
it, then packed), ``observe`` (uint8) and ``draw`` (the next random action from the list, where listed),
each in a compiled loop over positions from random play (``--rounds`` rounds of ``--seconds``, CPU time,
best round); then the whole step of a serial ``BatchedGames`` of ``--size`` games with those options
(``step``, ns per game and step, and turns/s). Run it with ``NUMBA_NUM_THREADS=1``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from boardgames.benchmarks.loops import batched_turns
from boardgames.envs.compiled.engines import engine
from boardgames.envs.compiled.packing import packed_width
from boardgames.envs.compiled.sampling import pick_legal
from boardgames.envs.compiled.views import borrowed
from boardgames.envs.core.game_kernels import GameKernels, kernels_of
from boardgames.envs.registry import game_names, make_game
from boardgames.envs.vector import BatchedGames
from boardgames.envs.vector.loops import list_width


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


def _step_parts(compiled, acting: int):
    """Compiled loops timing each part of the engine's step (``compiled``: the game's engine module) over
    rows of positions; the outputs are indexed modulo their length, as a batch of that size writes them."""

    @njit
    def play(states, work, joint):
        for i in range(states.shape[0]):
            work[:] = states[i]
            compiled.play(work, borrowed(joint, i))

    @njit
    def advance(states, joint):
        for i in range(states.shape[0]):
            compiled.play(borrowed(states, i), borrowed(joint, i))

    @njit
    def copy(states, work, joint):
        for i in range(states.shape[0]):
            work[:] = states[i]

    @njit
    def outcome(states, ret):
        code = 0
        for i in range(states.shape[0]):
            code |= compiled.outcome(borrowed(states, i), ret)
        return code

    @njit
    def mask(states, masks, lists, do_list, packed):
        for i in range(states.shape[0]):
            row = borrowed(states, i)
            j = i % masks.shape[0]
            for k in range(acting):
                seat = compiled.acting_seat(row, k)
                compiled.write_mask(row, seat, masks[j, k], lists[j, k], do_list, packed)

    @njit
    def observe(states, obs):
        for i in range(states.shape[0]):
            row = borrowed(states, i)
            for k in range(acting):
                compiled.emit(row, compiled.acting_seat(row, k), obs[i % obs.shape[0], k], None)

    @njit
    def draw(lists, drawn, rng, rows):
        for i in range(rows):
            j = i % lists.shape[0]
            compiled.draw_listed(borrowed(lists, j), borrowed(drawn, j), rng, j)

    return play, advance, copy, outcome, mask, observe, draw


def _best_per_call(fn, rounds: int, seconds: float) -> float:
    fn()
    best = float("inf")
    for _ in range(rounds):
        calls, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            fn()
            calls += 1
        best = min(best, (time.process_time() - start) / calls)
    return best


def profile_step(name: str, size: int, seconds: float, rounds: int) -> dict:
    """ns per game and step of each part of the ``uint8 packed`` step of ``name`` (see the module
    docstring), and of the whole step (``step``), with its turns/s (``turns_per_s``)."""
    game = make_game(name)
    kernels = kernels_of(game)
    acting = game.info.acting_seats
    batch = BatchedGames(game, size, seed=0, observe=False, threads=False)
    states, joints = [], []
    for t in range(120):  # positions from random play, some of each stage of a game
        actions = batch.random_actions().reshape(size, -1)
        if t >= 40 and t % 10 == 0:
            states.append(batch.states.copy())
            joints.append(actions.copy())
        batch.step(actions.reshape(batch.random_actions().shape))
    before = np.concatenate(states)
    joint = np.concatenate(joints)
    play, advance, copy, outcome, mask, observe, draw = _step_parts(engine(kernels), acting)
    after = before.copy()
    advance(after, joint)  # the positions the step's masks and observations see: after a move, running
    after = np.ascontiguousarray(after[[not kernels.is_over(row) for row in after]])
    work = before[0].copy()
    ret = np.zeros(game.info.num_seats, dtype=np.float32)
    listed = kernels.legal_mask_listed is not None
    masks = np.zeros((size, acting, packed_width(kernels.num_actions)), dtype=np.uint8)
    lists = np.zeros((size, acting, list_width(kernels)), dtype=np.uint16)
    obs = np.zeros((size, acting) + tuple(game.info.observation_shape), dtype=np.uint8)
    drawn = np.zeros((size, acting), dtype=np.int64)
    rng = np.resize(batch.rng, size * acting).copy()
    n, m = len(before), len(after)

    def per_game(fn, rows: int) -> float:
        return _best_per_call(fn, rounds, seconds) / rows * 1e9

    parts = {
        "play": max(per_game(lambda: play(before, work, joint), n) - per_game(lambda: copy(before, work, joint), n), 0),
        "outcome": per_game(lambda: outcome(after, ret), m),
        "mask": per_game(lambda: mask(after, masks, lists, listed, kernels.num_actions), m),
        "observe": per_game(lambda: observe(after, obs), m),
    }
    if listed:
        parts["draw"] = per_game(lambda: draw(lists, drawn, rng, m), m)
    step = batched_turns(game, size, threads=False, obs_dtype="uint8", packed_masks=True)
    turns = step() / _best_per_call(step, rounds, seconds)  # step() plays the same number of turns each call
    return {**parts, "step": 1e9 / turns, "turns_per_s": turns}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--obs-dtype", default="float32", choices=["float32", "uint8"], help="observations' type")
    parser.add_argument("--step", action="store_true", help="the parts of the bench's best variant (see above)")
    parser.add_argument("--rounds", type=int, default=5, help="with --step: rounds, the best one kept")
    args = parser.parse_args(argv)
    result = {}
    if args.step:
        for name in args.games or game_names():
            parts = result[name] = profile_step(name, args.size, args.seconds, args.rounds)
            shown = "  ".join(f"{k} {v:5.0f}" for k, v in parts.items() if k not in ("step", "turns_per_s"))
            print(
                f"{name:8s} {shown}  ns; step {parts['step']:5.0f} ns = {parts['turns_per_s']:,.0f} turns/s", flush=True
            )
        return result
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
