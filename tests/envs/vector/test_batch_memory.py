"""boardgames.envs.vector.memory: the batches' large arrays on 2 MiB-aligned memory marked for huge pages."""

from __future__ import annotations

import gc
import mmap
import pickle
import sys

import numpy as np
import pytest

from boardgames.envs.vector import BatchedGames
from boardgames.envs.vector.memory import HUGE_PAGE, batch_tile, batch_zeros, readonly_view

LINUX = sys.platform.startswith("linux") and hasattr(mmap, "MADV_HUGEPAGE")


def test_batch_zeros_is_zeros_of_the_shape_and_type():
    for shape, dtype in [((3, 4), np.float32), (5, np.int64), ((1024, 5670), np.bool_), ((300, 9, 9, 43), np.uint8)]:
        array = batch_zeros(shape, dtype)
        expected = np.zeros(shape, dtype)
        assert array.shape == expected.shape and array.dtype == expected.dtype
        assert array.flags.c_contiguous and array.flags.writeable
        assert not array.any()


@pytest.mark.skipif(not LINUX, reason="huge pages through madvise: Linux")
def test_large_arrays_start_on_a_huge_page_and_small_ones_are_ordinary():
    large = batch_zeros((1024, 5670), np.bool_)  # 5.8 MB
    assert large.ctypes.data % HUGE_PAGE == 0
    assert isinstance(large.base, np.ndarray)  # a view of the memory map, not an array of its own
    small = batch_zeros((64, 5670), np.bool_)  # 363 KB: np.zeros
    assert small.base is None


def test_batch_arrays_keep_their_memory_and_behave_as_arrays():
    array = batch_zeros((600, 1000), np.int32)  # 2.4 MB
    array[599, 999] = 7
    row = array[599]
    del array
    gc.collect()
    assert row[999] == 7  # the view keeps the map alive
    copy = pickle.loads(pickle.dumps(row))
    assert copy[999] == 7 and copy.shape == row.shape
    torch = pytest.importorskip("torch")
    assert torch.from_numpy(row)[999].item() == 7


def test_batch_tile_is_np_tile():
    row = np.arange(96, dtype=np.int32)
    for count in (3, 6000):  # ordinary, then on huge pages (2.3 MB)
        assert np.array_equal(batch_tile(row, count), np.tile(row, (count, 1)))


def test_large_batches_play_on_huge_page_arrays():
    batch = BatchedGames("adix", 400, seed=3, obs_dtype="uint8", threads=False)  # masks 2.3 MB
    reference = BatchedGames("adix", 400, seed=3, obs_dtype="uint8", threads=False)
    reference._masks = np.array(reference._masks)  # ordinary memory (the batch's own masks, and their view)
    reference.masks = readonly_view(reference._masks)
    reference.obs = np.array(reference.obs)
    reference.states = np.array(reference.states)
    if LINUX:
        assert batch.masks.ctypes.data % HUGE_PAGE == 0
    for _ in range(5):
        actions = batch.random_actions()
        assert np.array_equal(actions, reference.random_actions())
        batch.step(actions)
        reference.step(actions)
        assert np.array_equal(batch.masks, reference.masks) and np.array_equal(batch.obs, reference.obs)
        assert np.array_equal(batch.states, reference.states)
