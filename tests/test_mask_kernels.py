"""The games' ``legal_mask`` kernels against their previous, table-driven versions (kept here as the
reference): the same mask, bit for bit, for every seat (the seat to move and the other one) on positions
from random play with terminal ones, the output filled with garbage first. The rewritten kernels compute
what the old ones looked up (ADIX: Black's mirrored indices, the rays and the weapons' directions; see
``docs/performance.md``)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from random_rows import random_rows

from boardgames.envs.adix import rules as adix
from boardgames.envs.registry import make_game
from boardgames.envs.vector.batch import kernels_of


@njit
def adix_reference_can_turn(data, seat, src, movement):
    """ADIX's ``can_turn`` before 2026-11-26 (branches; the A9 record read field by field)."""
    if data[adix.REP_SQ + seat] == src and data[adix.REP_MOVE + seat] == movement and data[adix.REP_COUNT + seat] >= 2:
        return False
    if movement <= adix.M_RIGHT:
        return adix.top_of(data, src) != adix.SHELTER
    dst = adix.TILTS[src, movement - adix.M_TILT_N]
    return dst >= 0 and adix.owner_of(data, dst) == -1


@njit
def adix_reference_mask(data, seat, mask):
    """ADIX's ``legal_mask`` before 2026-11-26 (EGO, RAYS, weapon_moves_along and beats looked up)."""
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


def _positions(name, count, seed, turn_bias):
    """``count`` states from random play (restarts included, terminal states too); with probability
    ``turn_bias`` a rotation or tilt is preferred when one is legal (ADIX: reaches the A9 records)."""
    game = make_game(name)
    rules = kernels_of(game)[0]

    def pick(legal, rng):
        turns = legal[legal % 70 >= 64] if name == "adix" else legal[:0]
        return rng.choice(turns if len(turns) and rng.random() < turn_bias else legal)

    return rules, random_rows(game, rules, count, seed, pick)


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("turn_bias", [0.0, 0.7])
def test_legal_mask_matches_reference(name, turn_bias):
    rules, positions = _positions(name, 1500, seed=7 + int(turn_bias * 10), turn_bias=turn_bias)
    reference = REFERENCES[name]
    n = rules.NUM_ACTIONS
    got, want = np.ones(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    rng = np.random.default_rng(1)
    over = 0
    for data in positions:
        over += bool(rules.is_over(data))
        for seat in range(2):
            got[:] = rng.random(n) < 0.5  # garbage: the kernel writes every entry
            want[:] = ~got
            rules.legal_mask(data, seat, got)
            reference(data, seat, want)
            assert np.array_equal(got, want), (seat, data.tolist())
    assert over > 0 or name == "adix"
