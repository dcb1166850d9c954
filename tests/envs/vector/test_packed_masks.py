"""Packed masks (``packed_masks=True``, boardgames.envs.vector.packed): eight actions to a byte, bit ``a % 8`` of byte
``a // 8``. Checked by hand on small masks, against numpy's ``packbits`` on every size a game uses, and
on random games of every game: a batch with packed masks plays the same games, draws the same random
actions and writes the same observations as one with bool masks, and its masks are theirs packed."""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest
from numba import njit

from boardgames.envs.compiled.bits import load_bytes, nonzero_bits
from boardgames.envs.compiled.sampling import sample_actions, seed_rng
from boardgames.envs.compiled.views import scratch
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import game_names
from boardgames.envs.vector import BatchedGames, LearnerBatch
from boardgames.envs.vector.loops import CHUNK
from boardgames.envs.vector.packed import (
    first_illegal_packed,
    pack_bools,
    packed_width,
    sample_packed,
    unpack_masks,
    unpack_masks_torch,
)

ROWS = 2 * CHUNK + 3  # two chunks and a short one
POOL = numba.config.NUMBA_NUM_THREADS
JIT = not numba.config.DISABLE_JIT


@njit
def _pack_compiled(bools, out):
    pack_bools(bools, out)


@njit
def _pack_from_stack(bools, out):
    """The same, from a work array on the stack (as the batch kernels pack)."""
    work = scratch(5670, np.bool_)
    work[:] = False
    for a in range(bools.shape[0]):
        work[a] = bools[a]
    pack_bools(work[: bools.shape[0]], out)


@njit
def _words(array, at):
    return load_bytes(array, at), nonzero_bits(array, at)


def test_packing_by_hand():
    mask = np.zeros(10, dtype=np.bool_)
    mask[[0, 3, 9]] = True  # byte 0: bits 0 and 3 = 1 + 8; byte 1: bit 1 (action 9) = 2
    for pack in (pack_bools, _pack_compiled):
        out = np.full(2, 0xFF, dtype=np.uint8)
        pack(mask, out)
        assert out.tolist() == [9, 2]
    assert packed_width(10) == 2 and packed_width(8) == 1 and packed_width(5670) == 709
    assert unpack_masks(np.array([9, 2], dtype=np.uint8), 10).tolist() == mask.tolist()


def test_word_reads_by_hand():
    array = np.zeros(80, dtype=np.bool_)
    array[[8, 10, 17, 71]] = True  # from 8: entries 0, 2, 9 and 63
    strided = np.zeros(160, dtype=np.bool_)
    strided[::2] = array  # the same entries, not contiguous: the entry-by-entry reads
    for low, bits in (_words(array, 8), _words(strided[::2], 8), (load_bytes(array, 8), nonzero_bits(array, 8))):
        assert int(low) == 1 | 1 << 16  # the 8 bytes from 8: bytes 0 and 2 are 1
        assert int(bits) == 1 | 1 << 2 | 1 << 9 | 1 << 63


@pytest.mark.parametrize("size", [1, 7, 8, 9, 63, 64, 65, 121, 127, 128, 129, 276, 1441, 5670])
def test_packing_equals_numpy_packbits(size):
    rng = np.random.default_rng(size)
    for density in (0.0, 0.05, 0.5, 1.0):
        bools = rng.random(size) < density
        expected = np.packbits(bools, bitorder="little")
        for pack in (pack_bools, _pack_compiled, _pack_from_stack):
            out = np.full(packed_width(size), 0xAA, dtype=np.uint8)
            pack(bools, out)
            assert np.array_equal(out, expected), (pack, density)
        offset = np.zeros(size + 3, dtype=np.bool_)[3:]  # C-contiguous, not on a line boundary
        offset[:] = bools
        out = np.zeros(packed_width(size), dtype=np.uint8)
        _pack_compiled(offset, out)
        assert np.array_equal(out, expected)
        assert np.array_equal(unpack_masks(expected, size), bools)


def test_unpack_in_torch_equals_numpy():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    masks = rng.random((5, 3, 1441)) < 0.2
    packed = np.packbits(masks, axis=-1, bitorder="little")
    out = unpack_masks_torch(torch.from_numpy(packed), 1441)
    assert out.dtype == torch.bool and tuple(out.shape) == (5, 3, 1441)
    assert np.array_equal(out.numpy(), masks)


def test_first_illegal_packed_by_hand():
    packed = np.array([[9, 2], [0, 0], [255, 3]], dtype=np.uint8)  # 10 actions: {0, 3, 9}, {}, all
    assert first_illegal_packed(packed, np.array([3, 0, 9]), 10) == 1  # row 1 has no legal action
    assert first_illegal_packed(packed[[0, 2]], np.array([9, 9]), 10) == -1
    assert first_illegal_packed(packed[[0, 2]], np.array([1, 0]), 10) == 0  # 1 is not legal in row 0
    assert first_illegal_packed(packed[[2]], np.array([10]), 10) == 0  # out of range, whatever the bits
    assert first_illegal_packed(packed[[2]], np.array([-1]), 10) == 0


@pytest.mark.parametrize("size", [1, 9, 64, 121, 276, 1441, 5670])
def test_draws_from_packed_masks_equal_the_draws_from_bool_masks(size):
    rng = np.random.default_rng(size)
    masks = rng.random((200, size)) < rng.choice([0.002, 0.05, 0.5, 1.0], size=(200, 1))
    masks[:3] = False  # no legal action: 0, and no draw
    expected, got = np.zeros(200, dtype=np.int64), np.full(200, -1, dtype=np.int64)
    gen_bool, gen_packed = seed_rng(3, 200), seed_rng(3, 200)
    sample_actions(masks, gen_bool, expected)
    sample_packed(np.packbits(masks, axis=-1, bitorder="little"), gen_packed, got)
    assert np.array_equal(got, expected) and np.array_equal(gen_packed, gen_bool)
    legal = masks[np.arange(200), got]
    assert legal[masks.any(axis=1)].all() and not got[:3].any()


def _pair(name, threads, **options):
    kw = dict(seed=11, threads=threads, obs_dtype="uint8", **options)
    return BatchedGames(name, ROWS, **kw), BatchedGames(name, ROWS, packed_masks=True, **kw)


@pytest.mark.parametrize("threads", [False, 2])
@pytest.mark.parametrize("name", game_names())
def test_self_play_with_packed_masks_plays_the_same_games(name, threads):
    if threads and POOL < 2:
        pytest.skip("numba has a single thread here")
    plain, packed = _pair(name, threads)
    a = plain.num_actions
    assert packed.masks.dtype == np.uint8 and packed.masks.shape == plain.masks.shape[:-1] + (packed_width(a),)
    for t in range(80):
        assert np.array_equal(packed.masks, np.packbits(plain.masks, axis=-1, bitorder="little")), t
        assert np.array_equal(packed.bool_masks(), plain.masks)
        for x, y in zip(
            (plain.states, plain.obs, plain.rewards, plain.terminated, plain.to_move),
            (packed.states, packed.obs, packed.rewards, packed.terminated, packed.to_move),
        ):
            assert np.array_equal(x, y), t
        actions = plain.random_actions()
        assert np.array_equal(packed.random_actions(), actions), t
        plain.step(actions)
        packed.step(actions)


@pytest.mark.parametrize("name", game_names())
def test_learner_batch_with_packed_masks_plays_the_same_games(name):
    kw = dict(seed=5, threads=2 if POOL >= 2 else False)
    plain, packed = LearnerBatch(name, ROWS, **kw), LearnerBatch(name, ROWS, packed_masks=True, **kw)
    plain.reset()
    packed.reset()
    pick = np.random.default_rng(2)
    restarted = 0
    for t in range(80):
        assert np.array_equal(packed.masks, np.packbits(plain.masks, axis=-1, bitorder="little")), t
        assert np.array_equal(packed.obs, plain.obs) and np.array_equal(packed.learner, plain.learner)
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in plain.masks])
        plain.step(actions)
        packed.step(actions)
        assert np.array_equal(packed.rewards, plain.rewards) and np.array_equal(packed.restarted, plain.restarted)
        restarted += int(plain.restarted.sum())
    assert restarted > 0


def test_illegal_actions_with_packed_masks():
    batch = BatchedGames("adix", 4, seed=1, packed_masks=True, illegal_action="raise")
    masks = batch.bool_masks()
    bad = int(np.flatnonzero(~masks[2])[0])
    actions = batch.random_actions().copy()
    actions[2] = bad
    before = batch.states.copy()
    with pytest.raises(IllegalActionError, match=f"game 2: action {bad} is illegal"):
        batch.step(actions)
    assert np.array_equal(batch.states, before)
    with pytest.raises(IllegalActionError, match="out of range"):
        batch.step(np.full(4, batch.num_actions))
    losing = BatchedGames("adix", 4, seed=1, packed_masks=True)  # illegal_action="lose"
    actions = losing.random_actions().copy()
    actions[2] = bad
    seat = int(losing.to_move[2])
    with pytest.warns(UserWarning, match="illegal action"):
        losing.step(actions)
    assert losing.forfeited.tolist() == [False, False, True, False]
    assert losing.rewards[2, seat] == -1.0 and losing.rewards[2, 1 - seat] == 0.0 and losing.terminated[2]

    learner = LearnerBatch("barc", 3, seed=1, packed_masks=True, illegal_action="raise")
    learner.reset()
    legal = learner.bool_masks()
    wrong = np.array([int(np.flatnonzero(m)[0]) for m in legal])
    wrong[1] = int(np.flatnonzero(~legal[1])[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        learner.step(wrong)


def test_packed_masks_option_is_checked_and_survives_pickling():
    with pytest.raises(ValueError, match="packed_masks is True or False"):
        BatchedGames("dorix", 2, packed_masks="yes")
    with pytest.raises(ValueError, match="packed_masks"):
        LearnerBatch("dorix", 2, packed_masks=1)
    batch = LearnerBatch("olix", 3, seed=2, packed_masks=True)
    batch.reset()
    copy = pickle.loads(pickle.dumps(batch))
    assert copy.packed_masks and np.array_equal(copy.masks, batch.masks)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in batch.bool_masks()])
    batch.step(actions)
    copy.step(actions)
    assert np.array_equal(copy.masks, batch.masks) and np.array_equal(copy.obs, batch.obs)


@pytest.mark.skipif(not JIT, reason="reads the compiled code")
def test_the_work_array_of_the_packing_starts_on_a_cache_line():
    @njit
    def address():
        work = scratch(5670, np.bool_)
        return work.ctypes.data

    assert address() % 64 == 0
