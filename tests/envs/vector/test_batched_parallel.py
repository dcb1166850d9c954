"""Threads, compact observations and the fused learner step of the batched environments: the threaded
loops give the same games, masks, observations and rewards as the serial ones, bit for bit, on random
games of every game, with float32 and with uint8 observations; the fused step of a learner batch with
random opponents equals the separate loops it replaces; uint8 observations (written directly by the
games' kernels) are the float planes times 255, rounded."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numba
import numpy as np
import pytest

from boardgames.envs.registry import game_names
from boardgames.envs.vector import BatchedGames, LearnerBatch
from boardgames.envs.vector import threads as threads_module
from boardgames.envs.vector.batch import obs_to_float
from boardgames.envs.vector.loops import CHUNK, quantize
from boardgames.envs.vector.threads import resolve_threads, run_threaded

ROWS = 3 * CHUNK + 5  # several chunks, the last one short: what the threads share out
POOL = numba.config.NUMBA_NUM_THREADS


def _self_play_trace(name, threads, obs_dtype="float32", steps=60):
    b = BatchedGames(name, ROWS, seed=7, threads=threads, obs_dtype=obs_dtype)
    trace = []
    for _ in range(steps):
        b.step(b.random_actions())
        trace.append([a.copy() for a in (b.states, b.masks, b.obs, b.rewards, b.terminated, b.truncated, b.to_move)])
    return trace


def _learner_trace(name, threads, obs_dtype="float32", steps=60, fused=True):
    b = LearnerBatch(name, ROWS, seed=7, threads=threads, obs_dtype=obs_dtype)
    if not fused:
        b._fused_step = lambda actions: _separate_loops(b, actions)
    b.reset()
    pick = np.random.default_rng(1)
    trace = []
    for _ in range(steps):
        b.step(np.array([pick.choice(np.flatnonzero(m)) for m in b.masks]))
        arrays = (b.states, b.learner, b.masks, b.obs, b.rewards, b.terminated, b.truncated, b.restarted)
        trace.append([a.copy() for a in arrays] + [b.final_obs[b.restarted].copy()])
    assert sum(int(t[7].sum()) for t in trace) > 0, "no game ended: the restarts were not exercised"
    return trace


def _separate_loops(b, actions):
    """The step with random opponents as it was before the fused kernel: one loop per part."""
    b.k.apply_learner(b.states, b.learner, actions, b._opp_actions, True, b.rng, b._scratch)
    b._play_others()
    b._settle()
    b.k.observe_learner(b.states, b.learner, b.masks, b.obs)


def _assert_same(trace_a, trace_b):
    assert len(trace_a) == len(trace_b)
    for t, (a, b) in enumerate(zip(trace_a, trace_b)):
        for k, (x, y) in enumerate(zip(a, b)):
            assert x.dtype == y.dtype and np.array_equal(x, y), f"step {t}: array {k} differs"


@pytest.mark.skipif(POOL < 2, reason="numba has a single thread here (NUMBA_NUM_THREADS=1)")
@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
@pytest.mark.parametrize("name", game_names())
def test_threaded_self_play_equals_serial_bit_for_bit(name, obs_dtype):
    _assert_same(_self_play_trace(name, False, obs_dtype), _self_play_trace(name, 2, obs_dtype))


@pytest.mark.skipif(POOL < 2, reason="numba has a single thread here (NUMBA_NUM_THREADS=1)")
@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
@pytest.mark.parametrize("name", game_names())
def test_threaded_learner_batch_equals_serial_bit_for_bit(name, obs_dtype):
    _assert_same(_learner_trace(name, False, obs_dtype), _learner_trace(name, 2, obs_dtype))


@pytest.mark.parametrize("name", game_names())
def test_fused_learner_step_equals_the_separate_loops(name):
    _assert_same(_learner_trace(name, False, fused=False), _learner_trace(name, False))


@pytest.mark.parametrize("threads", [False, 2])
@pytest.mark.parametrize("name", game_names())
def test_draws_made_by_the_step_equal_the_draws_made_after_it(name, threads):
    """A step after random_actions() draws the next actions itself (ADIX and Barc, whose mask kernels list
    their legal actions): the same actions and generator states as drawing them when random_actions() is
    called (the reference batch, made never to draw in its steps), and the same games. The batches also
    draw in step only after a random_actions() call: stepped with other actions, the generators stay put."""
    if threads and POOL < 2:
        pytest.skip("numba has a single thread here (NUMBA_NUM_THREADS=1)")
    batch = BatchedGames(name, ROWS, seed=5, threads=threads, obs_dtype="uint8")
    reference = BatchedGames(name, ROWS, seed=5, threads=False, obs_dtype="uint8")
    made_by_steps = 0
    for _ in range(40):
        made_by_steps += batch._drawn_ok
        actions = batch.random_actions().copy()
        expected = reference.random_actions().copy()
        reference._draw_next = False  # the reference draws when asked, as before the steps drew
        assert np.array_equal(actions, expected) and np.array_equal(batch.rng, reference.rng)
        batch.step(actions)
        reference.step(expected)
        assert np.array_equal(batch.states, reference.states) and np.array_equal(batch.masks, reference.masks)
        assert np.array_equal(batch.obs, reference.obs)
    assert made_by_steps == (39 if name in ("adix", "barc") else 0)
    batch.step(batch.masks.argmax(axis=-1))  # the first legal actions; a call came before: this step draws
    rng = batch.rng.copy()
    batch.step(batch.masks.argmax(axis=-1))  # no call before it: nothing drawn
    assert np.array_equal(batch.rng, rng) and not batch._drawn_ok


def test_quantize_by_hand():
    src = np.array([0.0, 1.0, 0.5, 1 / 46, 45 / 46, 2.0, -1.0, 0.6 / 255], dtype=np.float32)
    dst = np.zeros(8, dtype=np.uint8)
    quantize(src, dst)
    # 0.5 * 255 = 127.5 -> 128; 255 / 46 = 5.54 -> 6; 255 * 45 / 46 = 249.46 -> 249; clipped; 0.6 -> 1
    assert dst.tolist() == [0, 255, 128, 6, 249, 255, 0, 1]
    assert obs_to_float(dst).tolist()[:3] == [0.0, 1.0, np.float32(128 / 255)]
    assert obs_to_float(dst).dtype == np.float32


@pytest.mark.parametrize("name", game_names())
def test_uint8_observations_are_the_float_ones_times_255(name):
    floats = _self_play_trace(name, False, "float32", steps=30)
    compact = _self_play_trace(name, False, "uint8", steps=30)
    for f, c in zip(floats, compact):
        for k in (0, 1, 3, 4, 5, 6):  # the games themselves are the same
            assert np.array_equal(f[k], c[k])
        assert c[2].dtype == np.uint8 and np.array_equal(c[2], np.floor(np.clip(f[2], 0, 1) * 255 + 0.5))
        assert np.abs(obs_to_float(c[2]) - f[2]).max() <= 0.5 / 255 + 1e-7
        assert np.array_equal(obs_to_float(c[2]) == 1.0, f[2] == 1.0)


def test_uint8_learner_batch_final_observations():
    f = _learner_trace("olix", False, "float32", steps=40)
    c = _learner_trace("olix", False, "uint8", steps=40)
    for a, b in zip(f, c):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[4], b[4])
        assert np.array_equal(b[3], np.floor(np.clip(a[3], 0, 1) * 255 + 0.5))
        assert np.array_equal(b[8], np.floor(np.clip(a[8], 0, 1) * 255 + 0.5))


def test_thread_count_rule(monkeypatch):
    monkeypatch.setattr(threads_module, "available_cores", lambda: 16)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 32)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 4))
    assert resolve_threads(True) == 12  # the 16 cores less torch's 4
    assert resolve_threads(False) == resolve_threads(1) == resolve_threads(0) == 1
    assert resolve_threads(8) == 8 and resolve_threads(64) == 32  # at most numba's pool
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 16))
    assert resolve_threads(True) == 1  # torch takes every core: the serial loops
    monkeypatch.delitem(sys.modules, "torch")
    assert resolve_threads(True) == 16
    # a batch of one chunk of 64 games or fewer: one thread takes it whole, unless a count is asked for
    assert resolve_threads(True, 64) == 1 and resolve_threads(True, 65) == 16
    assert resolve_threads(2, 8) == 2
    for wrong in (-1, 1.5, "two"):
        with pytest.raises(ValueError, match="threads"):
            resolve_threads(wrong)


def test_batches_use_the_free_cores_by_default(monkeypatch):
    """``threads=True`` is the batches' default: the cores torch is not using."""
    monkeypatch.setattr(threads_module, "available_cores", lambda: 3)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 3)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 1))
    assert BatchedGames("dorix", 128, seed=0).threads == 2  # 3 cores less torch's 1
    assert LearnerBatch("dorix", 128, seed=0).threads == 2
    assert BatchedGames("dorix", 64, seed=0).threads == 1  # one chunk: serial
    assert BatchedGames("dorix", 128, seed=0, threads=False).threads == 1


def test_obs_dtype_is_checked():
    with pytest.raises(ValueError, match="obs_dtype"):
        BatchedGames("dorix", 2, obs_dtype="float16")
    with pytest.raises(ValueError, match="obs_dtype"):
        LearnerBatch("dorix", 2, obs_dtype="int32")


def test_run_threaded_restores_the_setting():
    before = numba.get_num_threads()
    assert run_threaded(1, lambda: numba.get_num_threads()) == 1
    assert numba.get_num_threads() == before


def test_vector_env_with_uint8_observations():
    from boardgames.envs.vector import BatchedVectorEnv

    envs = BatchedVectorEnv("dorix", num_envs=8, obs_dtype="uint8", seed=0)
    floats = BatchedVectorEnv("dorix", num_envs=8, seed=0)
    obs, infos = envs.reset(seed=3)
    ref, _ = floats.reset(seed=3)
    assert envs.single_observation_space.dtype == np.uint8 and envs.observation_space.contains(obs)
    for _ in range(30):
        actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
        obs, rewards, *_, infos = envs.step(actions)
        ref, ref_rewards, *_ = floats.step(actions)
        assert np.array_equal(obs, np.floor(ref * 255 + 0.5)) and np.array_equal(rewards, ref_rewards)


def test_learner_batch_pickles_with_threads_and_uint8():
    import pickle

    batch = LearnerBatch("dorix", 8, seed=2, threads=2, obs_dtype="uint8")
    batch.reset()
    copy = pickle.loads(pickle.dumps(batch))
    assert copy.threads == batch.threads and copy.obs.dtype == np.uint8
    for _ in range(20):
        actions = np.array([np.flatnonzero(m)[-1] for m in batch.masks])
        batch.step(actions)
        copy.step(actions)
        assert np.array_equal(batch.states, copy.states) and np.array_equal(batch.obs, copy.obs)
