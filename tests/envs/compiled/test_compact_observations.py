"""uint8 observations written directly by each game's ``observe`` kernel (``WRITES_UINT8``): the same
bytes as the reference path (the float32 observation, then :func:`boardgames.envs.vector.loops.quantize`), for
every game, option set and seat, on positions from random play (terminal ones included), with the
output filled with garbage first; and batches using the direct kernels (self-play and learner batches)
give the same games and bytes as batches using the quantizing loops. Runs under NUMBA_DISABLE_JIT=1 too
(modest position counts)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from helpers.random_rows import random_rows
from numba import njit

from boardgames.envs.compiled.cells import obs_flag, obs_value
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.registry import env_module, game_names, make_game
from boardgames.envs.vector import BatchedGames, LearnerBatch
from boardgames.envs.vector import loops as kernels_module
from boardgames.envs.vector.loops import CHUNK, quantize, writes_uint8

POSITIONS = 200  # per option set
ROWS = CHUNK + 7

CASES = [
    pytest.param(name, options, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in options.items()) if options else name)
    for name in game_names()
    for options in env_module(name).CONFORMANCE_OPTIONS
]


def _positions(game, count, seed):
    """``count`` states (rows) from random play, restarts included; the terminal states too."""
    return random_rows(game, kernels_of(game).rules, count, seed)


@njit
def _store(values, flags, out):
    """``values`` then ``flags`` through obs_value / obs_flag into ``out`` (compiled: the overloads)."""
    for i in range(values.shape[0]):
        out[i] = obs_value(out, values[i])
    for i in range(flags.shape[0]):
        out[values.shape[0] + i] = obs_flag(out, flags[i])


@pytest.mark.parametrize("compiled", [False, True])
def test_obs_value_is_quantize(compiled):
    values = np.array([0.0, 1.0, 0.5, 1 / 46, 45 / 46, 2.0, -1.0, 0.6 / 255, 1 / 15, 14 / 15, 1 / 3, 1 / 12])
    flags = np.array([True, False])
    store = _store if compiled else getattr(_store, "py_func", _store)
    u = np.zeros(len(values) + 2, dtype=np.uint8)
    f = np.zeros(len(values) + 2, dtype=np.float32)
    store(values, flags, u)
    store(values, flags, f)
    expected = np.zeros(len(values), dtype=np.uint8)
    quantize(values.astype(np.float32), expected)
    assert u.tolist() == expected.tolist() + [255, 0]
    assert f.tolist() == values.astype(np.float32).tolist() + [1.0, 0.0]


@pytest.mark.parametrize("name", game_names())
def test_every_game_writes_uint8_directly(name):
    assert writes_uint8(kernels_of(make_game(name)))


@pytest.mark.parametrize("name, options", CASES)
def test_uint8_observe_is_the_quantized_float_one(name, options):
    game = make_game(name, **options)
    info = game.info
    observe = kernels_of(game).observe
    shape = tuple(info.observation_shape)
    floats = np.zeros(shape, dtype=np.float32)
    expected = np.zeros(shape, dtype=np.uint8)
    got = np.zeros(shape, dtype=np.uint8)
    garbage = np.random.default_rng(1).integers(1, 255, size=shape).astype(np.uint8)
    terminal = 0
    for data in _positions(game, POSITIONS, seed=zlib.crc32(repr((name, options)).encode())):
        terminal += kernels_of(game).is_over(data)
        for seat in range(info.num_seats):
            observe(data, seat, floats)
            quantize(floats, expected)
            got[...] = garbage
            observe(data, seat, got)
            assert np.array_equal(got, expected), (name, options, seat, np.argwhere(got != expected)[:5])
    assert terminal > 0 or name == "adix"  # terminal positions seen (ADIX games run long)


def _quantizing(monkeypatch):
    """The batches built inside this context use the reference loops (float buffer + quantize)."""
    monkeypatch.setattr(kernels_module, "writes_uint8", lambda kernels: False)


def _self_play(name, steps=40):
    b = BatchedGames(name, ROWS, seed=5, obs_dtype="uint8")
    trace = []
    for _ in range(steps):
        b.step(b.random_actions())
        trace.append([a.copy() for a in (b.states, b.masks, b.obs, b.rewards, b.terminated, b.truncated)])
    return trace


def _learner(name, steps=40):
    b = LearnerBatch(name, ROWS, seed=5, obs_dtype="uint8")
    b.reset()
    pick = np.random.default_rng(2)
    trace = []
    for _ in range(steps):
        b.step(np.array([pick.choice(np.flatnonzero(m)) for m in b.masks]))
        trace.append([a.copy() for a in (b.states, b.learner, b.masks, b.obs, b.rewards, b.restarted)])
        trace[-1].append(b.final_obs[b.restarted].copy())
    return trace


def _assert_same(a, b):
    for t, (x, y) in enumerate(zip(a, b, strict=True)):
        for k, (u, v) in enumerate(zip(x, y, strict=True)):
            assert u.dtype == v.dtype and np.array_equal(u, v), f"step {t}: array {k} differs"


@pytest.mark.parametrize("name", game_names())
def test_direct_uint8_batches_equal_the_quantizing_ones(name, monkeypatch):
    direct = (_self_play(name), _learner(name))
    direct_kernels = BatchedGames(name, 2, obs_dtype="uint8").k
    _quantizing(monkeypatch)
    assert BatchedGames(name, 2, obs_dtype="uint8").k is not direct_kernels  # the other loops
    reference = (_self_play(name), _learner(name))
    _assert_same(direct[0], reference[0])
    _assert_same(direct[1], reference[1])
    assert sum(int(t[5].sum()) for t in direct[1]) > 0, "no learner game ended: final_obs not exercised"
