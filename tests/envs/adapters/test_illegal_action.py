"""The ``illegal_action`` option of every environment (envs/adapters/illegal.py): "lose" (the default,
PettingZoo classic's convention), "raise", "random" and Barc's "void"; values that are no action at
all raise whatever the mode; actions as numpy scalars and 0-d arrays (what MaskablePPO.predict gives)
are accepted everywhere."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

from boardgames.envs import barc_v0, dorix_v0, olix_v0
from boardgames.envs.adapters.illegal import IllegalActionWarning, loser_returns
from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.core.game import action_index
from boardgames.envs.registry import make_game
from boardgames.envs.vector.batch import BatchedGames, LearnerBatch

# 2-player Dorix, seat 0 to move; b2 is topped by seat 1, so placing there (action 5) is illegal
TWO_P = "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.0.- hands=13,12 move=0 turn=5"


def _first_illegal(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


# ----- the shared helpers -----------------------------------------------------------------------------
def test_action_index_takes_integers_of_every_kind_and_refuses_the_rest():
    assert action_index(3, 10) == 3 and action_index(np.int16(3), 10) == 3 and action_index(np.array(7), 10) == 7
    assert type(action_index(np.array(7, dtype=np.uint8), 10)) is int
    for bad in (2.0, 2.9, True, np.bool_(True), "3", None, np.array([3]), np.array(3.0)):
        with pytest.raises(IllegalActionError, match="an action is an integer in 0..9"):
            action_index(bad, 10)
    for bad in (-1, 10, np.array(10)):
        with pytest.raises(IllegalActionError, match="out of range 0..9"):
            action_index(bad, 10)


def test_losing_side_is_the_offenders_team():
    four = make_game("dorix", num_players=4).info  # teams: seats 0 and 2 against 1 and 3
    assert loser_returns(four, [1]).tolist() == [0.0, -1.0, 0.0, -1.0]
    assert loser_returns(make_game("dorix", num_players=3).info, [2]).tolist() == [0.0, 0.0, -1.0]
    assert loser_returns(make_game("barc").info, [0, 1]).tolist() == [-1.0, -1.0]


@pytest.mark.parametrize("factory", [dorix_v0.env, barc_v0.parallel_env, lambda **k: SingleAgentEnv("dorix", **k)])
def test_an_unknown_mode_is_named(factory):
    with pytest.raises(GameOptionError, match="illegal_action must be one of"):
        factory(illegal_action="ignore")


# ----- AEC ---------------------------------------------------------------------------------------------
def test_aec_lose_ends_the_game_with_the_offenders_team_losing():
    env = dorix_v0.env(num_players=4)
    env.reset(seed=0)
    env.step(0)  # player_0 places on a1
    state = env.unwrapped.game_state
    text = state.to_text()
    assert env.agent_selection == "player_1"
    mask = env.observe("player_1")["action_mask"]
    with pytest.warns(IllegalActionWarning, match="illegal action by player_1"):
        env.step(_first_illegal(mask) if not mask.all() else 0)
    assert state.to_text() == text  # the engine's game is untouched
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env._cumulative_rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0, "player_3": -1.0}
    assert env.infos["player_1"]["illegal_action"] is True
    assert not env.observe("player_0")["action_mask"].any()  # nobody acts any more
    for _agent in env.agent_iter():  # every agent takes its dead step, then the game is over
        env.step(None)
    assert env.agents == []


def test_aec_raise_and_random():
    strict = dorix_v0.env(illegal_action="raise")
    strict.reset(seed=0, options={"position": TWO_P})
    with pytest.raises(IllegalActionError, match="illegal for player_0"):
        strict.step(5)
    assert strict.unwrapped.game_state.to_text() == TWO_P and strict.agent_selection == "player_0"
    lenient = dorix_v0.env(illegal_action="random")
    lenient.reset(seed=0, options={"position": TWO_P})
    lenient.step(5)
    state = lenient.unwrapped.game_state
    assert state.hand(0) == 12 and state.stack("b2") == [1]  # a pawn was placed, not on b2
    assert lenient.infos["player_0"]["illegal_action"] is True and lenient.agent_selection == "player_1"


@pytest.mark.parametrize("mode", ["lose", "raise", "random"])
def test_aec_garbage_always_raises_and_a_0d_array_is_an_action(mode):
    env = olix_v0.env(illegal_action=mode)
    env.reset(seed=0)
    text = env.unwrapped.game_state.to_text()
    for bad in (2.5, "3", True, None, -1, 10**6):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.unwrapped.game_state.to_text() == text and not any(env.terminations.values())
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.array(legal))  # what MaskablePPO.predict returns
    assert env.unwrapped.game_state.turn == 1


# ----- Parallel (Barc) -----------------------------------------------------------------------------------
def test_parallel_lose_ends_the_game_and_both_offenders_lose():
    env = barc_v0.parallel_env(illegal_action="lose")
    obs, _ = env.reset(seed=0)
    text = env.game_state.to_text()
    bad = {a: _first_illegal(o["action_mask"]) for a, o in obs.items()}
    stay = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
    with pytest.warns(IllegalActionWarning):
        obs, rewards, terms, truncs, infos = env.step({"player_0": bad["player_0"], "player_1": stay["player_1"]})
    assert rewards == {"player_0": -1.0, "player_1": 0.0} and all(terms.values()) and not any(truncs.values())
    assert infos["player_0"]["illegal_action"] and not infos["player_1"]["illegal_action"]
    assert env.agents == [] and env.game_state.to_text() == text
    assert not any(o["action_mask"].any() for o in obs.values())
    env.reset(seed=0)
    with pytest.warns(IllegalActionWarning):
        _, rewards, *_ = env.step(bad)
    assert rewards == {"player_0": -1.0, "player_1": -1.0}


def test_parallel_random_and_void():
    env = barc_v0.parallel_env(illegal_action="random")
    obs, _ = env.reset(seed=0)
    bad = {a: _first_illegal(o["action_mask"]) for a, o in obs.items()}
    _, _, _, _, infos = env.step(bad)
    assert all(i["illegal_action"] for i in infos.values()) and env.game_state.turn == 1
    assert barc_v0.parallel_env().illegal_action == "void"  # Barc's rules: an impossible order is "stay"


# ----- Gymnasium single-agent -------------------------------------------------------------------------
def test_gymnasium_lose_ends_the_episode_with_minus_one():
    env = SingleAgentEnv("dorix", {"num_players": 2}, learner_seat=0)
    env.reset(seed=0, options={"position": TWO_P})
    with pytest.warns(IllegalActionWarning):
        _, reward, terminated, truncated, info = env.step(5)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.state.to_text() == TWO_P and env.action_masks().all() and info["action_mask"].all()  # nothing is played
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_gymnasium_team_game_and_model_actions():
    env = SingleAgentEnv("dorix", {"num_players": 4}, learner_seat=1)
    env.reset(seed=3)
    legal = np.flatnonzero(env.action_masks())
    env.step(np.array(legal[0]))  # a 0-d array, as MaskablePPO.predict returns
    env.step(np.int64(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        env.step(np.float32(0))


def test_gymnasium_bad_learner_seat_and_failed_reset_are_named():
    env = SingleAgentEnv("dorix", {"num_players": 2})
    with pytest.raises(GameOptionError, match="learner_seat must be a seat in 0..1, got 7"):
        env.reset(options={"learner_seat": 7})

    def broken(state, seat):
        raise RuntimeError("the opponent broke")

    env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=broken, learner_seat=1)
    with pytest.raises(RuntimeError, match="the opponent broke"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)


def test_opponent_callbacks_are_checked_like_any_action():
    for bad in (2.9, "a1", True):
        env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=lambda state, seat, bad=bad: bad, learner_seat=1)
        with pytest.raises(IllegalActionError):
            env.reset(seed=0)


# ----- batched --------------------------------------------------------------------------------------------
def test_batched_self_play_lose_random_raise():
    games = BatchedGames("dorix", 3, game_options={"num_players": 4}, seed=0)
    games.step(games.random_actions())
    actions = games.random_actions().copy()
    offender_seat = int(games.to_move[1])
    actions[1] = _first_illegal(games.masks[1])
    with pytest.warns(IllegalActionWarning):
        games.step(actions)
    assert games.forfeited.tolist() == [False, True, False] and games.terminated[1] and not games.truncated[1]
    expected = np.zeros(4)
    expected[[offender_seat, (offender_seat + 2) % 4]] = -1.0
    assert games.rewards[1].tolist() == expected.tolist()
    assert (games.states[1] == games.template).all()  # restarted
    strict = BatchedGames("dorix", 2, illegal_action="raise", seed=0)
    before = strict.states.copy()
    bad = strict.random_actions().copy()
    bad[0] = _first_illegal(strict.masks[0])
    with pytest.raises(IllegalActionError, match="game 0: action .* is illegal"):
        strict.step(bad)
    assert (strict.states == before).all()
    lenient = BatchedGames("dorix", 2, illegal_action="random", seed=0)
    lenient.step(bad)
    assert not lenient.forfeited.any() and (lenient.states[:, :] != before).any()


def test_batched_refuses_garbage_whatever_the_mode():
    games = BatchedGames("olix", 2, seed=0)
    before = games.states.copy()
    for bad in (np.array([2.9, 1.0]), np.array([True, False]), np.array(["1", "2"]), np.array([0, 10**6])):
        with pytest.raises(IllegalActionError):
            games.step(bad)
    assert (games.states == before).all()


def test_learner_batch_lose_and_pickling():
    batch = LearnerBatch("dorix", 4, game_options={"num_players": 2}, seed=0)
    batch.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in batch.masks])
    last_obs = batch.obs[2].copy()
    actions[2] = _first_illegal(batch.masks[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        batch.step(actions)
    assert batch.forfeited.tolist() == [False, False, True, False]
    assert batch.rewards[2] == -1.0 and batch.terminated[2] and batch.restarted[2]
    assert np.array_equal(batch.final_obs[2], last_obs)
    twin, copied = pickle.loads(pickle.dumps(batch)), copy.deepcopy(batch)
    legal = np.array([np.flatnonzero(m)[0] for m in batch.masks])
    for b in (batch, twin, copied):
        b.step(legal)
    assert np.array_equal(batch.states, twin.states) and np.array_equal(batch.states, copied.states)
    with pytest.raises(IllegalActionError, match="opponent callback, row: actions are integers in 0..275"):
        cheat = LearnerBatch("dorix", 1, opponent=lambda obs, masks: np.full(len(masks), 2.9), learner_seat=1)
        cheat.reset()


@pytest.mark.parametrize("name", ["dorix", "olix", "adix", "barc"])
def test_engine_takes_model_actions_and_refuses_floats(name):
    state = make_game(name).new_initial_state()
    seat = state.current_seats()[0]
    legal = int(state.legal_actions(seat)[0])
    decision = {s: int(state.legal_actions(s)[0]) for s in state.current_seats()}
    text = state.to_text()
    for bad in (float(legal), np.float64(legal), str(legal), np.bool_(True)):
        with pytest.raises(IllegalActionError, match="an action is an integer"):
            state.apply_actions({**decision, seat: bad})
        assert state.to_text() == text
    state.apply_actions({**decision, seat: np.array(legal)})  # a 0-d array, as MaskablePPO.predict returns
    assert state.turn == 1
