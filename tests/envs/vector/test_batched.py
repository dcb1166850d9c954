"""Batched environments against the single-game engine: for the same seeds and actions the batch plays
the same games (whole state arrays compared after every step, restarts included), its masks and
observations are the engine's, and the learner batch gives the same episodes as SingleAgentEnv.
Every registered game runs, plus a tiny simultaneous kernel game for the joint-action paths."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from numba import njit

from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.core.game import Game, GameInfo
from boardgames.envs.core.kernel_state import KernelState
from boardgames.envs.registry import env_module, game_names
from boardgames.envs.vector import BatchedGames, BatchedVectorEnv, LearnerBatch

CASES = [
    pytest.param(name, options, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in options.items()) if options else name)
    for name in game_names()
    for options in env_module(name).CONFORMANCE_OPTIONS
]
GAMES_PER_CASE = 1000  # finished games compared per option set (thousands per game)
ROWS = 128


# ----- a tiny simultaneous game written as kernels (the joint-action paths, whatever is registered) ---
# Both seats pick 0, 1 or 2 at once; equal picks score for seat 0, different ones for seat 1; 3 points
# win; 2 is legal only with an even score; the turn limit 4 truncates a 2-2 game.
T_TURN, T_MAX, T_OVER, T_TRUNC, T_TO_MOVE, T_SCORE, T_WINNER, T_SIZE = 0, 1, 2, 3, 4, 5, 7, 8


@njit
def _t_init_state(data, max_turns):
    data[:] = 0
    data[T_MAX] = max_turns
    data[T_WINNER] = -1


@njit
def _t_is_over(data):
    return data[T_OVER] == 1


@njit
def _t_legal_mask(data, seat, mask):
    mask[:] = False
    if data[T_OVER] == 1:
        return
    mask[0] = True
    mask[1] = True
    mask[2] = data[T_SCORE + seat] % 2 == 0


@njit
def _t_apply_joint(data, actions):
    data[T_SCORE + (0 if actions[0] == actions[1] else 1)] += 1
    data[T_TURN] += 1
    if data[T_SCORE] >= 3 or data[T_SCORE + 1] >= 3:
        data[T_OVER] = 1
        data[T_WINNER] = 0 if data[T_SCORE] >= 3 else 1
    elif data[T_TURN] >= data[T_MAX]:
        data[T_OVER] = 1
        data[T_TRUNC] = 1


@njit
def _t_observe(data, seat, out):
    out[:] = 0.0
    out[0] = data[T_SCORE + seat] / 3.0
    out[1] = data[T_SCORE + 1 - seat] / 3.0
    out[2] = data[T_TURN] / 4.0


@njit
def _t_returns(data, out):
    out[:] = 0.0
    if data[T_OVER] == 1 and data[T_TRUNC] == 0:
        w = 0 if data[T_SCORE] >= 3 else 1
        out[w] = 1.0
        out[1 - w] = -1.0


TINY_RULES = SimpleNamespace(
    NUM_ACTIONS=3,
    STATE_SIZE=T_SIZE,
    TO_MOVE=T_TO_MOVE,
    TURN=T_TURN,
    OVER=T_OVER,
    TRUNCATED=T_TRUNC,
    WINNER=T_WINNER,
    init_state=_t_init_state,
    is_over=_t_is_over,
    legal_mask=_t_legal_mask,
    apply_joint=_t_apply_joint,
    observe=_t_observe,
    returns=_t_returns,
)


class TinyState(KernelState):
    __slots__ = ()
    rules = TINY_RULES
    render_module = ""

    def to_text(self):
        return " ".join(map(str, self.data))

    def action_to_text(self, action, seat=None):
        return str(action)

    def text_to_action(self, text, seat=None):
        return int(text)

    def check_invariants(self):
        assert self.data[T_SCORE] + self.data[T_SCORE + 1] == self.data[T_TURN]


class TinyGame(Game):
    info = GameInfo(name="tiny", num_seats=2, num_actions=3, observation_shape=(3,), max_turns=4, simultaneous=True)

    def new_initial_state(self):
        data = np.zeros(T_SIZE, dtype=np.int32)
        _t_init_state(data, 4)
        return TinyState(self, data)

    def from_text(self, text):
        return TinyState(self, np.array(text.split(), dtype=np.int32))


def _make(name, options):
    return TinyGame() if name == "tiny" else env_module(name).make_game(**options)


ALL_CASES = CASES + [pytest.param("tiny", {}, id="tiny-simultaneous")]


# ----- self-play batch against the engine ---------------------------------------------------------------
def _assert_row_is(batch, i, state, info):
    assert np.array_equal(batch.states[i], state.data), f"game {i}: batch row differs from the engine state"
    if info.simultaneous:
        for s in range(info.num_seats):
            assert np.array_equal(batch.masks[i, s], state.legal_mask(s))
            assert np.array_equal(batch.obs[i, s], state.observation(s))
    else:
        seat = state.current_seat
        assert batch.to_move[i] == seat
        assert np.array_equal(batch.masks[i], state.legal_mask(seat)), f"game {i}: mask differs from the engine's"
        assert np.array_equal(batch.obs[i], state.observation(seat))


@pytest.mark.parametrize("name,options", ALL_CASES)
def test_batch_plays_the_engines_games(name, options):
    """Random legal actions drawn by the batch, replayed one by one on the engine (with its legality
    check): same positions after every step, same masks and observations, same results, same restarts."""
    game = _make(name, options)
    info = game.info
    batch = BatchedGames(game, ROWS, seed=7)
    singles = [game.new_initial_state() for _ in range(ROWS)]
    for i in range(ROWS):
        _assert_row_is(batch, i, singles[i], info)
    finished = terminated = truncated = 0
    while finished < GAMES_PER_CASE:
        actions = batch.random_actions().copy()
        batch.step(actions)
        for i in range(ROWS):
            state = singles[i]
            if info.simultaneous:
                state.apply_joint([int(a) for a in actions[i]])  # raises on an illegal action
            else:
                state.apply(int(actions[i]))
            if state.is_terminal():
                assert np.array_equal(batch.rewards[i], state.returns())
                assert batch.truncated[i] == state.is_truncated()
                assert batch.terminated[i] == (not state.is_truncated())
                finished += 1
                terminated += int(batch.terminated[i])
                truncated += int(batch.truncated[i])
                singles[i] = state = game.new_initial_state()  # the batch restarted this game
            else:
                assert not batch.terminated[i] and not batch.truncated[i] and not batch.rewards[i].any()
            _assert_row_is(batch, i, state, info)
    assert terminated + truncated == finished


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    def run(seed):
        b = BatchedGames("dorix", 16, seed=seed, observe=False)
        for _ in range(200):
            b.step(b.random_actions())
        return b.states.copy()

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_batch_rejects_actions_of_the_wrong_shape_and_can_skip_observations():
    b = BatchedGames("dorix", 4, observe=False)
    with pytest.raises(ValueError):
        b.step(np.zeros(5, dtype=np.int64))
    b.step(b.random_actions())
    assert b.masks.any(axis=1).all() and b.obs.size == 1


def test_compiled_random_playouts_stay_legal():
    """The whole-loop random playout (the benchmark's engine figure) leaves legal positions."""
    for name in game_names():
        b = BatchedGames(name, 8, seed=1, observe=False)
        ended = b.random_playouts(300)
        assert ended > 0
        for i in range(8):
            b.state(i).check_invariants()


# ----- learner batch against SingleAgentEnv -------------------------------------------------------------
def _lowest_legal_single(state, seat):
    return int(np.flatnonzero(state.legal_mask(seat))[0])


def _lowest_legal_batch(obs, masks):
    assert obs.shape[0] == masks.shape[0]
    return masks.argmax(axis=1)


@pytest.mark.parametrize("name,options", ALL_CASES)
def test_learner_batch_gives_single_agent_env_episodes(name, options):
    """Same opponent policy (lowest legal action), same learner actions: the batch's observations,
    masks, rewards and endings equal SingleAgentEnv's, episode after episode (restarts included)."""
    game = _make(name, options)
    rng = np.random.default_rng(5)
    for seat in range(game.info.num_seats):
        n = 8
        batch = LearnerBatch(game, n, opponent=_lowest_legal_batch, learner_seat=seat, seed=0)
        singles = [SingleAgentEnv(game, opponent=_lowest_legal_single, learner_seat=seat) for _ in range(n)]
        obs = batch.reset()
        for i, env in enumerate(singles):
            o, _ = env.reset(seed=i)
            assert np.array_equal(obs[i], o) and np.array_equal(batch.masks[i], env.action_masks())
        episodes = 0
        while episodes < 40:
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks])
            final_obs_before = batch.final_obs.copy()
            batch.step(actions)
            for i, env in enumerate(singles):
                o, r, term, trunc, _ = env.step(int(actions[i]))
                assert (batch.rewards[i], batch.terminated[i], batch.truncated[i]) == (r, term, trunc)
                if term or trunc:
                    episodes += 1
                    assert batch.restarted[i] and np.array_equal(batch.final_obs[i], o)
                    o, _ = env.reset()
                else:
                    assert not batch.restarted[i] and np.array_equal(batch.final_obs[i], final_obs_before[i])
                assert np.array_equal(batch.obs[i], o)
                assert np.array_equal(batch.masks[i], env.action_masks())
                assert batch.learner[i] == seat


@pytest.mark.parametrize("name", game_names() + ["tiny"])
def test_random_opponents_leave_the_learner_to_act_in_legal_positions(name):
    game = _make(name, {})
    batch = LearnerBatch(game, 32, seed=3)
    batch.reset()
    seats_seen, ended, rewards = set(), 0, set()
    for _ in range(150):
        batch.step(np.array([np.flatnonzero(m)[-1] for m in batch.masks]))
        ended += int(batch.restarted.sum())
        rewards |= set(batch.rewards[batch.restarted].tolist())
        for i in range(32):
            state = type(game.new_initial_state())(game, batch.states[i].copy())
            state.check_invariants()
            assert not state.is_terminal() and batch.learner[i] in state.current_seats()
            seats_seen.add(int(batch.learner[i]))
            assert np.array_equal(batch.masks[i], state.legal_mask(int(batch.learner[i])))
            assert np.array_equal(batch.obs[i], state.observation(int(batch.learner[i])))
    assert ended > 0 and rewards <= {-1.0, 0.0, 1.0}
    assert seats_seen == set(range(game.info.num_seats))  # random learner seats


def test_learner_batch_checks_its_arguments():
    with pytest.raises(ValueError):
        LearnerBatch("dorix", 2, learner_seat=2)
    with pytest.raises(TypeError):
        LearnerBatch("dorix", 2, opponent="greedy")


# ----- Gymnasium and SB3 adapters -----------------------------------------------------------------------
def test_gymnasium_vector_env():
    envs = BatchedVectorEnv("dorix", num_envs=16, opponent="random", autoreset_mode="same_step")  # final_obs
    obs, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(obs) and infos["action_mask"].shape == (16, 276)
    seen_final = False
    for _ in range(100):
        masks = envs.action_masks()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        assert envs.action_space.contains(actions)
        obs, rewards, term, trunc, infos = envs.step(actions)
        assert obs.shape == (16,) + envs.single_observation_space.shape and rewards.dtype == np.float32
        if "final_obs" in infos:
            seen_final = True
            assert np.array_equal(infos["_final_obs"], term | trunc)
    assert seen_final
    again, _ = envs.reset(seed=0)
    first, _ = BatchedVectorEnv("dorix", num_envs=16).reset(seed=0)
    assert np.array_equal(again, first)


def test_sb3_vec_env_with_maskable_ppo():
    sb3 = pytest.importorskip("boardgames.envs.vector.sb3")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    venv = sb3.BatchedVecEnv("olix", num_envs=4, game_options={"max_turns": 6}, seed=0)
    assert is_masking_supported(venv)
    obs = venv.reset()
    assert get_action_masks(venv).shape == (4, 121) and obs.shape == (4, 11, 11, 37)
    obs, rewards, dones, infos = venv.step(np.array([np.flatnonzero(m)[0] for m in get_action_masks(venv)]))
    for _ in range(2):
        obs, rewards, dones, infos = venv.step(np.array([np.flatnonzero(m)[0] for m in get_action_masks(venv)]))
    assert dones.all()  # 6 placements = 3 of the learner's
    assert all("terminal_observation" in info and info["TimeLimit.truncated"] for info in infos)
    model = MaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=32, n_epochs=1, seed=0)
    model.learn(32)
    assert model.num_timesteps >= 32


@pytest.mark.parametrize("name", game_names())
def test_batch_refuses_illegal_actions_and_plays_nothing(name):
    b = BatchedGames(name, 4, seed=0, illegal_action="raise")
    for _ in range(3):
        b.step(b.random_actions())
    states, masks = b.states.copy(), b.masks.copy()
    bad = b.random_actions().copy()
    row = bad.reshape(-1, bad.shape[-1])[-1] if bad.ndim == 2 else bad
    illegal = np.flatnonzero(~masks.reshape(-1, masks.shape[-1])[-1])[0]  # the last row's first illegal action
    row[-1] = illegal
    where = "game 3, seat 1" if bad.ndim == 2 else "game 3"
    with pytest.raises(IllegalActionError, match=f"{where}: action {illegal} is illegal"):
        b.step(bad)
    row[-1] = -1
    with pytest.raises(IllegalActionError, match="out of range"):
        b.step(bad)
    assert np.array_equal(b.states, states) and np.array_equal(b.masks, masks)


def test_learner_batch_refuses_illegal_learner_and_opponent_actions():
    lb = LearnerBatch("dorix", 3, seed=0, illegal_action="raise")
    lb.reset()
    states = lb.states.copy()
    with pytest.raises(IllegalActionError, match="game 0: action 276 is out of range"):
        lb.step(np.array([276, 0, 0]))
    assert np.array_equal(lb.states, states)

    def falls(obs, masks):  # action 275 (a pawn of a collapse falls) is illegal outside a collapse
        return np.full(len(masks), 275, dtype=np.int64)

    lb = LearnerBatch("dorix", 3, opponent=falls, learner_seat=0, seed=0)
    lb.reset()
    with pytest.raises(IllegalActionError, match="opponent callback, row 0: action 275 is illegal"):
        lb.step(np.array([np.flatnonzero(m)[0] for m in lb.masks]))
    with pytest.raises(RuntimeError, match="call reset"):
        lb.step(np.array([np.flatnonzero(m)[0] for m in lb.masks]))
    lb.opponent = lambda obs, masks: np.array([np.flatnonzero(m)[0] for m in masks])
    lb.reset()
    lb.step(np.array([np.flatnonzero(m)[0] for m in lb.masks]))


def test_engine_rejects_illegal_actions_too():
    state = env_module("dorix").make_game().new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply(275)


# ----- the lean PettingZoo adapters (one mask per turn shared by observe and step) ------------------------
@pytest.mark.parametrize("name", [n for n in game_names() if not _make(n, {}).info.simultaneous])
def test_aec_mask_handed_out_is_a_copy_and_step_still_checks(name):
    env = env_module(name).env(illegal_action="raise")
    env.reset(seed=0)
    for _ in range(5):
        obs, *_ = env.last()
        mask = obs["action_mask"]
        state = env.unwrapped.game_state
        assert mask.dtype == np.int8 and np.array_equal(mask, state.legal_mask().astype(np.int8))
        illegal = [int(a) for a in np.flatnonzero(mask == 0)[:1]]  # none at Olix's start
        mask[:] = 1  # a user scribbling on the mask changes nothing
        before = state.data.copy()
        for bad in illegal + [True, -1, env.unwrapped.game.info.num_actions, 1.0]:
            with pytest.raises(IllegalActionError):
                env.step(bad)
        assert np.array_equal(state.data, before)
        assert np.array_equal(env.observe(env.agent_selection)["action_mask"], state.legal_mask().astype(np.int8))
        env.step(np.int64(np.flatnonzero(state.legal_mask())[0]))


@pytest.mark.parametrize("name", [n for n in game_names() if _make(n, {}).info.simultaneous])
def test_parallel_mask_handed_out_is_a_copy_and_step_still_checks(name):
    env = env_module(name).parallel_env(illegal_action="raise")
    obs, _ = env.reset(seed=0)
    state = env.game_state
    for agent in env.agents:
        obs[agent]["action_mask"][:] = 1
    masks = {a: state.legal_mask(env._seat[a]) for a in env.agents}
    illegal = {a: int(np.flatnonzero(~m)[0]) for a, m in masks.items() if not m.all()}
    if illegal:
        before = state.data.copy()
        with pytest.raises(IllegalActionError):
            env.step({a: illegal.get(a, int(np.flatnonzero(masks[a])[0])) for a in env.agents})
        assert np.array_equal(state.data, before)
    obs, *_ = env.step({a: int(np.flatnonzero(masks[a])[0]) for a in env.agents})
    for agent in env.agents:
        assert np.array_equal(obs[agent]["action_mask"], state.legal_mask(env._seat[agent]).astype(np.int8))


def test_threaded_batch_plays_the_same_games():
    """``threads=2`` spreads the rows over two threads; each row has its own generator, so the games,
    masks and observations are the same as without threads (every game: tests/envs/vector/test_batched_parallel.py)."""
    runs = []
    for threads in (False, 2):
        b = BatchedGames("dorix", 32, seed=11, threads=threads)
        ended = 0
        for _ in range(150):
            b.step(b.random_actions())
            ended += int((b.terminated | b.truncated).sum())
        runs.append((b.states.copy(), b.masks.copy(), b.obs.copy(), ended))
    assert runs[0][3] > 0 and runs[0][3] == runs[1][3]
    for serial, threaded in zip(runs[0][:3], runs[1][:3]):
        assert np.array_equal(serial, threaded)


@pytest.mark.parametrize("packed", [False, True])
def test_the_masks_handed_out_cannot_be_written(packed):
    # the step checks actions against the batch's own masks; the ones handed out are a read-only view of
    # them that cannot be made writeable again, so no caller can make an illegal action pass
    from boardgames.envs.vector.batch import LearnerBatch

    for batch in (
        BatchedGames("dorix", 4, threads=False, illegal_action="raise", packed_masks=packed),
        LearnerBatch("dorix", 4, opponent="random", threads=False, illegal_action="raise", packed_masks=packed),
    ):
        batch.reset()
        with pytest.raises(ValueError, match="read-only"):
            batch.masks[...] = 255 if packed else True
        with pytest.raises(ValueError, match="WRITEABLE"):
            batch.masks.flags.writeable = True
        bool_masks = batch.bool_masks().reshape(4, -1)
        illegal = np.array([int(np.flatnonzero(~row)[0]) for row in bool_masks])
        before = batch.states.copy()
        with pytest.raises(IllegalActionError):
            batch.step(illegal)
        assert np.array_equal(batch.states, before)
        legal = np.array([int(np.flatnonzero(row)[0]) for row in batch.bool_masks().reshape(4, -1)])
        batch.step(legal)  # the batch still plays, and writes its masks
        assert batch.bool_masks().any(axis=-1).all()
