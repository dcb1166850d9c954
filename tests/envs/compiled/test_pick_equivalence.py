"""``boardgames.envs.compiled.sampling.pick_legal`` against a frozen copy of the implementation it replaced: the same
action and the same generator state afterwards, for masks of every size class (the large-mask block
path included) and densities from none to all legal."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.random_rows import random_masks
from numba import njit

from boardgames.envs.compiled.sampling import _BYTES, _S56, pick_legal, rand_below


@njit
def _legal_in_word_ref(m, b):
    w = np.uint64(0)
    for j in range(8):
        w |= np.uint64(m[b + j]) << np.uint64(8 * j)
    return np.int64((w * _BYTES) >> _S56)


@njit
def pick_legal_ref(mask, rng, i):
    m = mask.view(np.uint8)
    n = m.shape[0]
    words = n // 8
    k = 0
    for j in range(words):
        k += _legal_in_word_ref(m, 8 * j)
    for a in range(8 * words, n):
        k += m[a]
    if k == 0:
        return 0
    r = rand_below(rng, i, k)
    for j in range(words):
        c = _legal_in_word_ref(m, 8 * j)
        if r < c:
            for a in range(8 * j, 8 * j + 8):
                r -= m[a]
                if r < 0:
                    return a
        r -= c
    for a in range(8 * words, n):
        r -= m[a]
        if r < 0:
            return a
    return 0


@pytest.mark.parametrize("size", [1, 7, 121, 276, 1023, 1024, 1025, 1441, 2048, 2055, 5670])
def test_pick_legal_matches_frozen_reference(size):
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
