"""``boardgames.envs.compiled.sampling.pick_legal`` against its definition written plainly (the r-th legal action,
r uniform below their count): the same action and the same generator state afterwards, for masks of every
size class (the large-mask block path included) and densities from none to all legal."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.random_rows import random_masks

from boardgames.envs.compiled.sampling import pick_legal, rand_below


def pick_legal_ref(mask, rng, i):
    """The draw :func:`pick_legal` promises, written plainly: the r-th legal action for r drawn below their
    count with row ``i``'s generator (one draw, none when nothing is legal), 0 when none is legal."""
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        return 0
    return int(legal[rand_below(rng, i, len(legal))])


@pytest.mark.parametrize("size", [1, 7, 121, 276, 1023, 1024, 1025, 1441, 2048, 2055, 5670])
def test_pick_legal_matches_its_plain_definition(size):
    gen = np.random.default_rng(size)
    rows = 120
    masks = random_masks(gen, size, rows)
    seeds = gen.integers(1, 2**63, size=rows, dtype=np.uint64)
    for _ in range(5):
        rng_ref = seeds.copy()
        rng_new = seeds.copy()
        for k in range(rows):
            expected = pick_legal_ref(masks[k], rng_ref, k)
            got = pick_legal(masks[k], rng_new, k)
            assert got == expected, (size, k)
            if masks[k].any():
                assert masks[k, got]
        assert np.array_equal(rng_ref, rng_new)
        seeds = rng_ref
