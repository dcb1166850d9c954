"""The fused kernels of the PettingZoo adapters (one compiled call per turn, see envs/core/kernel_state.py)
against the adapters' one-by-one path: for the same actions every game gives the same observations,
masks, rewards, terminations, truncations and infos, with the same errors for bad actions, the state
untouched by them, and nothing the environment handed out is written again afterwards."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import envs.core.aec_env as aec_env
import envs.core.parallel_env as parallel_env
from envs.core.errors import IllegalActionError
from envs.registry import env_module, game_names

PARALLEL = [n for n in game_names() if env_module(n).make_game().info.simultaneous]
AEC = [n for n in game_names() if not env_module(n).make_game().info.simultaneous]


def _snapshot(x):
    return copy.deepcopy(x)


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _play_parallel(name: str, illegal_actions: str, fused: bool, monkeypatch) -> list:
    with monkeypatch.context() as m:
        if not fused:
            m.setattr(parallel_env, "_fused_kernels", lambda state: None)
        env = env_module(name).parallel_env(max_turns=25, illegal_actions=illegal_actions)
        num_actions = env.game.info.num_actions
        rng = np.random.default_rng(3)
        log, handed_out = [], []
        obs, infos = env.reset(seed=5)
        if name == "barc":
            assert (env._fused is not None) == fused
        for _ in range(8):
            log.append(_snapshot((obs, infos)))
            handed_out.append(((obs, infos), _snapshot((obs, infos))))
            while env.agents:
                actions = {}
                for i, agent in enumerate(env.agents):
                    legal = np.flatnonzero(obs[agent]["action_mask"])
                    a = int(rng.choice(legal))
                    actions[agent] = np.int64(a) if i == 1 else a
                state = env.game_state
                before = state.data.copy()
                for bad in (True, -1, num_actions, 1.0, None):
                    with pytest.raises(IllegalActionError) as e:
                        env.step({**actions, env.agents[0]: bad})
                    log.append(str(e.value))
                with pytest.raises(IllegalActionError):
                    env.step({**actions, "nobody": 0})
                with pytest.raises(IllegalActionError):
                    env.step({env.agents[0]: actions[env.agents[0]]})
                if rng.random() < 0.3:  # an action the mask forbids
                    agent = env.agents[int(rng.integers(len(env.agents)))]
                    forbidden = np.flatnonzero(obs[agent]["action_mask"] == 0)
                    actions[agent] = int(rng.choice(forbidden))
                    if illegal_actions == "raise":
                        with pytest.raises(IllegalActionError) as e:
                            env.step(actions)
                        log.append(str(e.value))
                        assert np.array_equal(state.data, before)
                        actions[agent] = int(np.flatnonzero(obs[agent]["action_mask"])[0])
                assert np.array_equal(state.data, before)
                out = env.step(actions)
                log.append(_snapshot(out))
                handed_out.append((out, _snapshot(out)))
                obs = out[0]
                for a in obs:  # each agent's arrays are its own
                    for b in obs:
                        if a != b:
                            assert not np.shares_memory(obs[a]["observation"], obs[b]["observation"])
                            assert not np.shares_memory(obs[a]["action_mask"], obs[b]["action_mask"])
            with pytest.raises(IllegalActionError):
                env.step({})
            obs, infos = env.reset()
        for given, snapshot in handed_out:
            assert _same(given, snapshot), "the environment wrote into something it had handed out"
        return log


@pytest.mark.parametrize("illegal_actions", ["void", "raise"])
@pytest.mark.parametrize("name", PARALLEL)
def test_parallel_fused_path_gives_what_the_one_by_one_path_gives(name, illegal_actions, monkeypatch):
    fused = _play_parallel(name, illegal_actions, True, monkeypatch)
    plain = _play_parallel(name, illegal_actions, False, monkeypatch)
    assert len(fused) == len(plain)
    for a, b in zip(fused, plain):
        assert _same(a, b)


def _play_aec(name: str, fused: bool, monkeypatch) -> list:
    with monkeypatch.context() as m:
        if not fused:
            m.setattr(aec_env, "_fused_turn", lambda state: None)
        env = env_module(name).env(max_turns=40)
        raw = env.unwrapped
        num_actions = raw.game.info.num_actions
        rng = np.random.default_rng(7)
        log, handed_out = [], []
        env.reset(seed=2)
        if name == "adix":
            assert (raw._fused is not None) == fused
        for game in range(4):
            for agent in env.agent_iter():
                out = env.last()
                log.append(_snapshot(out))
                handed_out.append((out, _snapshot(out)))
                again = env.observe(agent)  # a second observe: equal, and a copy of its own
                assert _same(again, out[0])
                assert not np.shares_memory(again["observation"], out[0]["observation"])
                assert not np.shares_memory(again["action_mask"], out[0]["action_mask"])
                again["action_mask"][:] = 1  # a user scribbling on a mask changes nothing
                for other in env.agents:
                    log.append(_snapshot(env.observe(other)))
                obs, _, term, trunc, _ = out
                if term or trunc:
                    env.step(None)
                    continue
                state = raw.game_state
                before = state.data.copy()
                forbidden = [int(a) for a in np.flatnonzero(state.legal_mask(raw._seat[agent]) == 0)[:1]]
                for bad in forbidden + [True, -1, num_actions, 1.0, None]:
                    with pytest.raises((IllegalActionError, TypeError, ValueError)) as e:
                        env.step(bad)
                    log.append(f"{type(e.value).__name__}: {e.value}")
                assert np.array_equal(state.data, before)
                legal = np.flatnonzero(state.legal_mask(raw._seat[agent]))
                a = int(rng.choice(legal))
                env.step(np.int64(a) if rng.random() < 0.5 else a)
                log.append(_snapshot((raw.rewards, raw._cumulative_rewards, raw.terminations, raw.truncations,
                                      raw.infos, raw.agent_selection)))
            env.reset(seed=game)
        for given, snapshot in handed_out:
            assert _same(given, snapshot), "the environment wrote into something it had handed out"
        return log


@pytest.mark.parametrize("name", AEC)
def test_aec_fused_path_gives_what_the_one_by_one_path_gives(name, monkeypatch):
    fused = _play_aec(name, True, monkeypatch)
    plain = _play_aec(name, False, monkeypatch)
    assert len(fused) == len(plain)
    for a, b in zip(fused, plain):
        assert _same(a, b)


def test_barc_table_driven_kernels_agree_with_the_rule_by_rule_ones():
    """Barc's legal_mask (ray tables) gives exactly the orders is_legal_order allows, and the one-pass
    _victories used by apply_joint gives victory() of both seats, on positions from random play."""
    from envs.barc import rules as R

    env = env_module("barc").parallel_env()
    rng = np.random.default_rng(11)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.bool_)
    positions = 0
    for _ in range(60):
        obs, _ = env.reset()
        while True:
            data = env.game_state.data
            assert R._victories(data) == (R.victory(data, 0), R.victory(data, 1))
            for seat in range(2):
                R.legal_mask(data, seat, mask)
                expected = [bool(R.is_legal_order(data, seat, a)) for a in range(R.NUM_ACTIONS)]
                assert mask.tolist() == expected
            positions += 1
            if not env.agents:
                break
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
    assert positions > 300


def test_adix_table_driven_legal_mask_agrees_with_is_legal_abs():
    """ADIX's legal_mask (ray and mirror tables) gives exactly the actions is_legal_abs allows, for both
    seats, on positions from random play."""
    from envs.adix import rules as R

    env = env_module("adix").env()
    rng = np.random.default_rng(13)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.bool_)
    positions = 0
    for _ in range(3):
        env.reset()
        for _agent in env.agent_iter():
            data = env.unwrapped.game_state.data
            if positions % 4 == 0:
                for seat in range(2):
                    R.legal_mask(data, seat, mask)
                    expected = [bool(R.is_legal_abs(data, seat, R.absolute_action(a, seat)))
                                for a in range(R.NUM_ACTIONS)]
                    assert mask.tolist() == expected
            positions += 1
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert positions > 100
