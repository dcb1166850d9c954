"""Mask summaries (``envs.vector.sampling``: the count of legal actions and the counts per block of 64,
written by ADIX's ``legal_mask_summarized`` as it sets the mask, or the list of legal actions written by
Barc's ``legal_mask_listed``) and the draws that read them,
``pick_summarized``: the same summary as :func:`summarize` of the mask, the same mask as ``legal_mask``,
and the same actions and generator states as :func:`pick_legal` (checked against a frozen reference in
``tests/test_pick_equivalence.py``), on thousands of positions from random play and on random masks; and
:class:`envs.vector.BatchedGames` random play with the summaries equal to the whole-mask scan."""

from __future__ import annotations

import numpy as np
import pytest
from random_rows import random_masks
from test_mask_kernels import _positions

from envs.vector import BatchedGames
from envs.vector.sampling import pick_legal, pick_listed, pick_summarized, summarize, summary_width


@pytest.mark.parametrize("turn_bias", [0.0, 0.7])
def test_adix_summarized_mask_matches_mask_and_summary(turn_bias):
    rules, positions = _positions("adix", 1500, seed=11 + int(turn_bias * 10), turn_bias=turn_bias)
    n = rules.NUM_ACTIONS
    width = summary_width(n)
    got, want = np.ones(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    got_sum, want_sum = np.zeros(width, dtype=np.uint16), np.zeros(width, dtype=np.uint16)
    gen = np.random.default_rng(3)
    rng_a = np.arange(1, 3, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    rng_b = rng_a.copy()
    for data in positions:
        for seat in range(2):
            got[:] = gen.random(n) < 0.5  # garbage: the kernels write every entry
            want[:] = ~got
            got_sum[:] = gen.integers(0, 60000, width)
            rules.legal_mask_summarized(data, seat, got, got_sum)
            rules.legal_mask(data, seat, want)
            summarize(want, want_sum)
            assert np.array_equal(got, want), (seat, data.tolist())
            assert np.array_equal(got_sum, want_sum), (seat, data.tolist())
            assert pick_summarized(got, got_sum, rng_a, seat) == pick_legal(want, rng_b, seat)
            assert np.array_equal(rng_a, rng_b)


def test_barc_listed_mask_matches_mask_list_and_every_order_checked_alone():
    """Barc's ``legal_mask_listed``: the mask of ``legal_mask``, which is exactly the orders that
    ``is_legal_order`` (B2, checked one by one) accepts; the list their indices in increasing order with
    the count first; the draw from the list the same action and generator state as ``pick_legal``."""
    rules, positions = _positions("barc", 1500, seed=21, turn_bias=0.0)
    n = rules.NUM_ACTIONS
    got, want = np.ones(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    listed = np.zeros(rules.LEGAL_LIST, dtype=np.uint16)
    gen = np.random.default_rng(4)
    rng_a = np.arange(1, 3, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    rng_b = rng_a.copy()
    longest = 0
    for data in positions:
        for seat in range(2):
            got[:] = gen.random(n) < 0.5  # garbage: the kernels write every entry
            listed[:] = gen.integers(0, 60000, listed.shape[0])
            rules.legal_mask_listed(data, seat, got, listed)
            rules.legal_mask(data, seat, want)
            one_by_one = np.array([rules.is_legal_order(data, seat, a) for a in range(n)])
            assert np.array_equal(want, one_by_one), (seat, data.tolist())
            assert np.array_equal(got, want), (seat, data.tolist())
            count = int(listed[0])
            assert np.array_equal(listed[1 : 1 + count], np.flatnonzero(want)), (seat, data.tolist())
            longest = max(longest, count)
            assert pick_listed(got, listed, rng_a, seat) == pick_legal(want, rng_b, seat)
            assert np.array_equal(rng_a, rng_b)
    assert longest > 20  # positions with many orders were met (the list bound itself: LEGAL_LIST)


@pytest.mark.parametrize("size", [1, 7, 63, 64, 65, 121, 1441, 2048, 5670])
def test_pick_summarized_matches_pick_legal(size):
    gen = np.random.default_rng(size)
    rows = 120
    masks = random_masks(gen, size, rows)
    summaries = np.zeros((rows, summary_width(size)), dtype=np.uint16)
    for k in range(rows):
        summarize(masks[k], summaries[k])
        assert summaries[k, 0] == masks[k].sum()
    seeds = gen.integers(1, 2**63, size=rows, dtype=np.uint64)
    for _ in range(8):
        rng_ref, rng_new = seeds.copy(), seeds.copy()
        for k in range(rows):
            assert pick_summarized(masks[k], summaries[k], rng_new, k) == pick_legal(masks[k], rng_ref, k), (size, k)
        assert np.array_equal(rng_ref, rng_new)
        seeds = rng_ref


@pytest.mark.parametrize("game", ["adix", "barc", "dorix"])
def test_batched_random_play_with_summaries_equals_whole_mask_scan(game):
    a = BatchedGames(game, 70, seed=5, obs_dtype="uint8")
    b = BatchedGames(game, 70, seed=5, obs_dtype="uint8")

    def scan_only():
        b._sample(b.masks.reshape(-1, b.masks.shape[-1]), b.rng, b._actions.reshape(-1))
        return b._actions

    b.random_actions = scan_only
    for _ in range(150):
        x, y = a.random_actions().copy(), b.random_actions().copy()
        assert np.array_equal(x, y)
        a.step(x)
        b.step(y)
        for name in ("rng", "states", "masks", "obs", "rewards", "terminated", "truncated", "to_move"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a._summaries_ok == (game in ("adix", "barc"))  # the games that write summaries use them
    assert not b._summaries_ok
