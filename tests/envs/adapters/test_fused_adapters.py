"""The compiled turn kernels of the PettingZoo adapters (one compiled call per turn, generated from each
game's kernels by envs/compiled/turns.py) against the plain ones, which call the State methods one by one:
for the same actions every game gives the same observations, masks, rewards, terminations, truncations
and infos, with the same errors for bad actions, the state untouched by them, and nothing the
environment handed out is written again afterwards."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import boardgames.envs.adapters.aec_env as aec_env
import boardgames.envs.adapters.parallel_env as parallel_env
from boardgames.envs.compiled.turns import plain_joint_kernels, plain_turn_kernels
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import env_module, game_names

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


def _play_parallel(name: str, illegal_action: str, fused: bool, monkeypatch) -> list:
    with monkeypatch.context() as m:
        if not fused:
            m.setattr(parallel_env, "joint_kernels", lambda state: plain_joint_kernels())
        env = env_module(name).parallel_env(max_turns=25, illegal_action=illegal_action)
        num_actions = env.game.info.num_actions
        rng = np.random.default_rng(3)
        log, handed_out = [], []
        obs, infos = env.reset(seed=5)
        assert env._kernels.compiled == fused
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
                    if illegal_action == "raise":
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


@pytest.mark.parametrize("illegal_action", ["void", "raise", "lose", "random"])
@pytest.mark.filterwarnings("ignore::boardgames.envs.adapters.illegal.IllegalActionWarning")
@pytest.mark.parametrize("name", PARALLEL)
def test_parallel_fused_path_gives_what_the_one_by_one_path_gives(name, illegal_action, monkeypatch):
    fused = _play_parallel(name, illegal_action, True, monkeypatch)
    plain = _play_parallel(name, illegal_action, False, monkeypatch)
    assert len(fused) == len(plain)
    for a, b in zip(fused, plain):
        assert _same(a, b)


def _play_aec(name: str, fused: bool, monkeypatch) -> list:
    with monkeypatch.context() as m:
        if not fused:
            m.setattr(aec_env, "turn_kernels", lambda state: plain_turn_kernels())
        env = env_module(name).env(max_turns=40, illegal_action="raise")
        raw = env.unwrapped
        num_actions = raw.game.info.num_actions
        rng = np.random.default_rng(7)
        log, handed_out = [], []
        env.reset(seed=2)
        assert raw._kernels.compiled == fused
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
                log.append(
                    _snapshot(
                        (
                            raw.rewards,
                            raw._cumulative_rewards,
                            raw.terminations,
                            raw.truncations,
                            raw.infos,
                            raw.agent_selection,
                        )
                    )
                )
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


def _barc_top(R, data, sq) -> int:
    h = int(data[R.HEIGHT + sq])
    return -1 if h == 0 else (int(data[R.COLOURS + sq]) >> (h - 1)) & 1


def _barc_target(R, origin, direction, distance) -> int:
    r = origin // R.SIZE + int(R.DIR_DR[direction]) * distance
    f = origin % R.SIZE + int(R.DIR_DF[direction]) * distance
    return r * R.SIZE + f if 0 <= r < R.SIZE and 0 <= f < R.SIZE else -1


def _barc_legal_by_the_rule(R, data, seat, action) -> bool:
    """B2 written out in Python, rule by rule: STAY, or a stack topped by ``seat`` moved 1..height squares
    in a straight line over empty squares onto a square of the board not topped by ``seat``."""
    if data[R.OVER] == 1 or not 0 <= action < R.NUM_ACTIONS:
        return False
    if action == R.STAY:
        return True
    o, d, k = action // (R.NUM_DIRS * R.MAX_DIST), (action // R.MAX_DIST) % R.NUM_DIRS, action % R.MAX_DIST + 1
    if seat == 1:
        o, d = R.CELLS - 1 - o, (d + 4) % R.NUM_DIRS
    if _barc_top(R, data, o) != seat or k > data[R.HEIGHT + o]:
        return False
    dst = _barc_target(R, o, d, k)
    if dst < 0 or _barc_top(R, data, dst) == seat:
        return False
    return all(data[R.HEIGHT + _barc_target(R, o, d, step)] == 0 for step in range(1, k))


def _barc_victory_by_the_rule(R, data, seat) -> bool:
    """B5 written out in Python: 3 neighbouring squares in a line topped by ``seat``, or the other seat
    tops 2 stacks or fewer."""
    tops = [_barc_top(R, data, sq) for sq in range(R.CELLS)]
    for sq in range(R.CELLS):
        for d in range(4):
            line = [sq, _barc_target(R, sq, d, 1), _barc_target(R, sq, d, 2)]
            if min(line) >= 0 and all(tops[x] == seat for x in line):
                return True
    return sum(t == 1 - seat for t in tops) <= 2


def test_barc_table_driven_kernels_agree_with_the_rule_by_rule_ones():
    """Barc's legal_mask (ray tables) gives exactly the orders is_legal_order allows, and both give B2
    written out rule by rule; the one-pass victories used by apply_joint gives victory() of both seats
    and B5 written out; on positions from random play."""
    from boardgames.envs.barc import rules as R

    env = env_module("barc").parallel_env()
    rng = np.random.default_rng(11)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.bool_)
    positions = 0
    for _ in range(60):
        obs, _ = env.reset()
        while True:
            data = env.game_state.data
            assert R.victories(data) == (R.victory(data, 0), R.victory(data, 1))
            assert R.victories(data) == (_barc_victory_by_the_rule(R, data, 0), _barc_victory_by_the_rule(R, data, 1))
            for seat in range(2):
                R.legal_mask(data, seat, mask)
                expected = [bool(R.is_legal_order(data, seat, a)) for a in range(R.NUM_ACTIONS)]
                assert mask.tolist() == expected
                assert expected == [_barc_legal_by_the_rule(R, data, seat, a) for a in range(R.NUM_ACTIONS)]
            positions += 1
            if not env.agents:
                break
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
    assert positions > 300


def _adix_board_action(R, action, seat) -> int:
    """The board-frame action of ``seat``'s egocentric ``action``, written out (Black's is turned 180 degrees)."""
    if seat == 0:
        return action
    sq, k = divmod(action, R.ACTIONS_PER_SQUARE)
    if k < 64:
        k = ((k // 8 + 4) % 8) * 8 + k % 8
    elif k >= R.K_TILT:
        k = R.K_TILT + (k - R.K_TILT + 2) % 4
    return (R.CELLS - 1 - sq) * R.ACTIONS_PER_SQUARE + k


def _adix_legal_by_the_rule(R, data, seat, abs_action) -> bool:
    """A4-A9 written out in Python, rule by rule, for the board-frame ``abs_action``."""
    if data[R.OVER] == 1 or seat != data[R.TO_MOVE]:
        return False
    src, k = divmod(abs_action, R.ACTIONS_PER_SQUARE)
    if R.owner_of(data, src) != seat:
        return False
    top = int(R.top_of(data, src))
    r, f = divmod(src, R.SIZE)
    if k < 64:  # displacement: A5, A6, 8-3, 8-5
        d, n = k // 8, k % 8 + 1
        dr, df = int(R.DR[d]), int(R.DF[d])
        rr, ff = r + dr * n, f + df * n
        if not (0 <= rr < R.SIZE and 0 <= ff < R.SIZE) or top == R.SHELTER:
            return False
        along = top == R.ROCK or (top == R.PAPER and d % 2 == 0) or (top == R.SCISSORS and d % 2 == 1)
        if not along or (R.kind_of(data, src) == R.CAPTAIN and n > 1):
            return False
        if any(R.owner_of(data, (r + dr * i) * R.SIZE + f + df * i) != -1 for i in range(1, n)):
            return False
        occupant = R.owner_of(data, rr * R.SIZE + ff)
        victim = int(R.top_of(data, rr * R.SIZE + ff))
        return occupant == -1 or (occupant != seat and victim != R.SHELTER and victim == (top + 2) % 3)
    movement = k - R.K_LEFT  # rotate left, right, tilt N, E, S, W
    rep = data[R.REP_SQ + seat] == src and data[R.REP_MOVE + seat] == movement and data[R.REP_COUNT + seat] >= 2
    if rep:  # A9
        return False
    if movement <= R.M_RIGHT:  # A6, A7
        return top != R.SHELTER
    dr, df = ((1, 0), (0, 1), (-1, 0), (0, -1))[movement - R.M_TILT_N]  # A8
    rr, ff = r + dr, f + df
    return 0 <= rr < R.SIZE and 0 <= ff < R.SIZE and R.owner_of(data, rr * R.SIZE + ff) == -1


def test_adix_table_driven_legal_mask_agrees_with_is_legal_abs():
    """ADIX's legal_mask (ray and mirror tables) gives exactly the actions is_legal_abs allows, and both
    give A4-A9 written out rule by rule, for both seats, on positions from random play."""
    from boardgames.envs.adix import rules as R

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
                    expected = [
                        bool(R.is_legal_abs(data, seat, R.absolute_action(a, seat))) for a in range(R.NUM_ACTIONS)
                    ]
                    assert mask.tolist() == expected
                    by_rule = [
                        _adix_legal_by_the_rule(R, data, seat, _adix_board_action(R, a, seat))
                        for a in range(R.NUM_ACTIONS)
                    ]
                    assert expected == by_rule
            positions += 1
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert positions > 100


def test_compiled_kernels_only_for_kernel_states_that_keep_the_kernel_methods():
    """A KernelState subclass that overrides a method the compiled kernels stand in for (its own
    observation, say) gets the plain kernels, which call its methods; any other State too."""
    from boardgames.envs.compiled.turns import compiled, joint_kernels, turn_kernels
    from boardgames.envs.dorix.game import DorixState

    class OwnObservation(DorixState):
        __slots__ = ()

        def observation(self, seat):
            return super().observation(seat)

    game = env_module("dorix").make_game()
    assert compiled(DorixState) and not compiled(OwnObservation)
    assert turn_kernels(game.new_initial_state()).compiled
    assert not turn_kernels(OwnObservation(game, game.new_initial_state().data)).compiled
    assert joint_kernels(env_module("barc").make_game().new_initial_state()).compiled
