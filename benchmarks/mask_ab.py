"""A/B of a game's ``legal_mask`` kernel against a reference kernel kept here (its previous, table-driven
version: :data:`REFERENCES`), single thread, CPU time (for a loaded machine):

    python -m boardgames.benchmarks.mask_ab [GAME=adix] [SIZES=256,1024] [ROUNDS=5] [SECONDS=0.3] [OBS_DTYPE=uint8]

Per batch size, two figures per variant: ``mask`` (ns per ``legal_mask`` call over positions from random
play, compiled loop) and ``step`` (:class:`boardgames.envs.vector.BatchedGames` turns/s with random legal actions
and observations of ``OBS_DTYPE``; the reference variant gets a copy of the rules module whose
``legal_mask`` is the reference). The variants alternate, each round ``SECONDS`` of
``time.process_time``; the best round of each is printed."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
from numba import njit

import boardgames.envs.vector.batch as batch_module
from boardgames.benchmarks.ab import best_rates
from boardgames.benchmarks.loops import batch_stepper
from boardgames.envs.adix import rules as adix
from boardgames.envs.core.game_kernels import GameKernels, game_kernels
from boardgames.envs.registry import make_game
from boardgames.envs.vector import BatchedGames


@njit
def adix_reference_can_turn(data, seat, src, movement):
    """ADIX's ``can_turn`` as it was before the mask kernel was rewritten (branches; the A9 record read
    field by field)."""
    if data[adix.REP_SQ + seat] == src and data[adix.REP_MOVE + seat] == movement and data[adix.REP_COUNT + seat] >= 2:
        return False
    if movement <= adix.M_RIGHT:
        return adix.top_of(data, src) != adix.SHELTER
    dst = adix.TILTS[src, movement - adix.M_TILT_N]
    return dst >= 0 and adix.owner_of(data, dst) == -1


@njit
def adix_reference_mask(data, seat, mask):
    """ADIX's ``legal_mask`` as it was before the rewrite (EGO, RAYS, weapon_moves_along and beats looked
    up): the same mask, which ``tests/envs/games/test_golden_playthroughs.py`` pins."""
    mask[:] = False
    if data[adix.OVER] == 1 or seat != data[adix.TO_MOVE]:
        return
    ego = adix.EGO[seat]
    for src in range(adix.CELLS):
        if adix.owner_of(data, src) != seat:
            continue
        base = src * adix.ACTIONS_PER_SQUARE
        top = adix.top_of(data, src)
        if top != adix.SHELTER:
            reach = 1 if adix.kind_of(data, src) == adix.CAPTAIN else adix.SIZE - 1
            for d in range(8):
                if not adix.weapon_moves_along(top, d):
                    continue
                for n in range(reach):
                    dst = adix.RAYS[src, d, n]
                    if dst < 0:
                        break
                    occupant = adix.owner_of(data, dst)
                    if occupant == -1:
                        mask[ego[base + d * 8 + n]] = True
                        continue
                    if occupant != seat and adix.beats(top, adix.top_of(data, dst)):
                        mask[ego[base + d * 8 + n]] = True
                    break
        for movement in range(adix.M_TILT_W + 1):
            if adix_reference_can_turn(data, seat, src, movement):
                mask[ego[base + adix.K_LEFT + movement]] = True


REFERENCES = {"adix": adix_reference_mask}
"""The reference ``legal_mask`` kernel of each game this benchmark compares."""


def _reference(name: str):
    return REFERENCES[name]


def _batch(name: str, size: int, obs_dtype: str, legal_mask=None) -> BatchedGames:
    """A batch of ``name``; with ``legal_mask``, its loops compiled over rules using that kernel."""
    real = batch_module.kernels_of
    if legal_mask is not None:

        def patched(game, purpose: str = "this") -> GameKernels:
            kernels = real(game, purpose)
            rules = kernels.rules
            # without legal_mask_listed: the reference batch draws by scanning whole masks (as before it)
            skip = ("legal_mask_listed", "LEGAL_LIST")
            fields = {k: getattr(rules, k) for k in dir(rules) if not k.startswith("__") and k not in skip}
            return game_kernels(SimpleNamespace(**{**fields, "legal_mask": legal_mask}), kernels.encoder)

        batch_module.kernels_of = patched
    try:
        return BatchedGames(make_game(name), size, seed=0, obs_dtype=obs_dtype, threads=False)
    finally:
        batch_module.kernels_of = real


def _mask_loop(legal_mask, to_move_at: int, seats: int):
    @njit
    def loop(states, out):
        for i in range(states.shape[0]):
            for s in range(out.shape[1]):
                legal_mask(states[i], states[i, to_move_at] if seats == 1 else s, out[i, s])

    return loop


def main(argv=None) -> dict:
    args = list(sys.argv[1:] if argv is None else argv) + [None] * 5
    name = args[0] or "adix"
    sizes = [int(n) for n in (args[1] or "256,1024").split(",")]
    rounds, seconds, obs_dtype = int(args[2] or 5), float(args[3] or 0.3), args[4] or "uint8"
    game = make_game(name)
    current = batch_module.kernels_of(game)
    info = game.info
    kernels = {"reference": _reference(name), "current": current.legal_mask}
    fns = {}
    for n in sizes:
        positions = BatchedGames(game, n, seed=0, observe=False, threads=False)
        for _ in range(30):
            positions.step(positions.random_actions())
        states = positions.states
        out = np.zeros((n, info.acting_seats, info.num_actions), dtype=np.bool_)
        for variant, kernel in kernels.items():
            loop = _mask_loop(kernel, current.to_move_at, info.acting_seats)
            masks_per_call = n * info.acting_seats

            def masks(loop=loop, states=states, out=out, count=masks_per_call) -> int:
                loop(states, out)
                return count

            masks()  # compiled before timing
            fns[(n, variant, "mask")] = masks
            batch = _batch(name, n, obs_dtype, None if variant == "current" else kernel)
            fns[(n, variant, "step")] = batch_stepper(batch, warmups=1)
    best = best_rates(fns, rounds, seconds)  # masks or turns per second
    print(f"| {name} batch | mask ns, reference | mask ns, current | step turns/s, reference | step, current |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for n in sizes:
        ref_mask, cur_mask = (1e9 / best[(n, v, "mask")] for v in kernels)
        ref_step, cur_step = (best[(n, v, "step")] for v in kernels)
        print(f"| {n} | {ref_mask:,.0f} | {cur_mask:,.0f} | {ref_step:,.0f} | {cur_step:,.0f} |", flush=True)
    return best


if __name__ == "__main__":
    main()
