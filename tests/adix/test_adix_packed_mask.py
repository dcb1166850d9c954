"""ADIX's mask kernels write a packed mask (uint8, eight actions a byte) themselves (``WRITES_PACKED``): the
same bits as the bool mask packed, the same list, over positions of random play; and the writers of
:mod:`boardgames.envs.compiled.packing` they use, in plain Python as ``NUMBA_DISABLE_JIT`` runs them."""

from __future__ import annotations

import numpy as np

from boardgames.envs.adix import rules as R
from boardgames.envs.compiled import packing
from boardgames.envs.compiled.packing import packed_width
from boardgames.envs.compiled.render import writes_packed
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.registry import make_game
from boardgames.envs.vector import BatchedGames

WIDTH = packed_width(R.NUM_ACTIONS)


def _masks(row, seat):
    """(bool mask, its list, packed mask, its list) of ``seat`` at ``row``, the packed one over junk."""
    dense, dense_list = np.zeros(R.NUM_ACTIONS, np.bool_), np.zeros(R.LEGAL_LIST, np.uint16)
    R.legal_mask_listed(row, seat, dense, dense_list)
    packed, packed_list = np.full(WIDTH, 0xA5, np.uint8), np.zeros(R.LEGAL_LIST, np.uint16)
    R.legal_mask_listed(row, seat, packed, packed_list)
    return dense, dense_list, packed, packed_list


def test_adix_says_it_writes_packed_masks():
    assert writes_packed(kernels_of(make_game("adix")))
    assert not writes_packed(kernels_of(make_game("dorix")))


def test_packed_masks_equal_the_bool_ones_packed():
    batch = BatchedGames(make_game("adix"), 16, seed=3, observe=False, threads=False)
    for _ in range(60):
        for row in batch.states:
            for seat in (0, 1):
                dense, dense_list, packed, packed_list = _masks(row, seat)
                np.testing.assert_array_equal(packed, np.packbits(dense, bitorder="little"))
                count = int(dense_list[0])
                np.testing.assert_array_equal(packed_list[: count + 1], dense_list[: count + 1])
                np.testing.assert_array_equal(dense_list[1 : count + 1], np.flatnonzero(dense))
                alone = np.full(WIDTH, 0x5A, np.uint8)
                R.legal_mask(row, seat, alone)
                np.testing.assert_array_equal(alone, packed)
        batch.step(batch.random_actions())


def test_the_writers_in_plain_python():
    rng = np.random.default_rng(0)
    bools = rng.random(R.NUM_ACTIONS) < 0.3
    mask = np.full(WIDTH, 0xFF, np.uint8)
    words = np.empty(packing.packed_words(R.NUM_ACTIONS), np.uint64)
    packing.start_mask(mask, words)
    for at in range(0, R.NUM_ACTIONS, 70):  # 70 entries at a time, as ADIX's cubes: 64 bits, then 6
        chunk = bools[at : at + 70]
        for start, part in ((at, chunk[:64]), (at + 64, chunk[64:])):
            packing.or_bits(mask, words, start, sum(1 << i for i, b in enumerate(part) if b))
    packing.finish_mask(mask, words)
    np.testing.assert_array_equal(mask, np.packbits(bools, bitorder="little"))
    dense = np.ones(R.NUM_ACTIONS, np.bool_)
    packing.start_mask(dense, words)
    assert packing.bool_form(dense) is dense and packing.bool_form(mask) is None
    packing.set_entry(dense, 5, True)
    packing.set_entry(None, 5, True)
    assert np.flatnonzero(dense).tolist() == [5]
