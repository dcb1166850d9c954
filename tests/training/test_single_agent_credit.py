"""Credit assignment of the self-play single-agent env on scripted games (positions from notation)."""

import gymnasium
import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import DummyVecEnv
from training_duel_game import DuelGame

import boardgames.envs  # noqa: F401  (registers the Gymnasium ids)
from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import game_names


def scripted(*moves):
    """An opponent/partner policy playing the given moves (notation) in order."""
    queue = list(moves)

    def policy(state, seat):
        return state.text_to_action(queue.pop(0))

    policy.queue = queue
    return policy


# seat 1 tops a1, b2, c3; d4 is empty: whoever of seat 1 plays d4 wins.
TWO_P = "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.0.- hands=13,12 move=0 turn=5"


def test_loss_on_the_opponents_move_gives_minus_one_on_the_learners_last_step():
    opponent = scripted("d4")
    env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=opponent, learner_seat=0)
    obs, info = env.reset(seed=0, options={"position": TWO_P})
    assert info["learner_seat"] == 0
    obs, reward, terminated, truncated, info = env.step(env.state.text_to_action("d1"))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert opponent.queue == []  # the winning move was the opponent's
    assert env.state.is_terminal()
    # the last observation is still the learner's own view
    np.testing.assert_array_equal(obs, env.state.observation(0))


def test_win_on_the_learners_own_move():
    env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=scripted(), learner_seat=1)
    position = TWO_P.replace("move=0", "move=1")
    env.reset(seed=0, options={"position": position})
    _, reward, terminated, _, _ = env.step(env.state.text_to_action("d4"))
    assert (reward, terminated) == (1.0, True)


def test_intermediate_rewards_are_zero_and_opponent_moves_are_not_learner_transitions():
    # The learner (seat 1) starts after the opponent's first move, sees only its own turns.
    opponent = scripted("a1", "b1")
    env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=opponent, learner_seat=1)
    obs, _ = env.reset(seed=0)
    assert env.state.current_seat == 1 and env.state.turn == 1
    np.testing.assert_array_equal(obs, env.state.observation(1))
    _, reward, terminated, truncated, _ = env.step(env.state.text_to_action("d4"))
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert env.state.current_seat == 1 and env.state.turn == 3


# 4 players, teams 0+2 against 1+3: team 0 tops a1 (seat 0), b2 (seat 2), c3 (seat 0); d4 empty.
FOUR_P = "dorix -.-.-.-/-.-.0.-/-.2.-.-/0.1.3.- hands=8,9,9,9 move=1 turn=5"


def test_team_loss_when_an_opponents_partner_completes_the_diagonal():
    # learner = seat 1 (team 1); seat 2 (team 0) plays d4 and team 0 wins; seat 3 is the partner.
    env = SingleAgentEnv("dorix", {"num_players": 4}, opponent=scripted("d4"), partner=scripted(), learner_seat=1)
    env.reset(seed=0, options={"position": FOUR_P})
    _, reward, terminated, _, _ = env.step(env.state.text_to_action("a4"))
    assert (reward, terminated) == (-1.0, True)


def test_team_win_when_the_partner_completes_the_diagonal():
    # learner = seat 0 (team 0): seat 1 plays a4, then the partner (seat 2) plays d4.
    position = FOUR_P.replace("move=1", "move=3").replace("turn=5", "turn=4")
    opponent = scripted("b4", "a4")  # seat 3 now, then seat 1 after the learner
    partner = scripted("d4")
    env = SingleAgentEnv("dorix", {"num_players": 4}, opponent=opponent, partner=partner, learner_seat=0)
    env.reset(seed=0, options={"position": position})
    assert env.state.current_seat == 0
    _, reward, terminated, _, _ = env.step(env.state.text_to_action("d1"))
    assert (reward, terminated) == (1.0, True)
    assert partner.queue == [] and opponent.queue == []


def test_truncation_by_the_turn_limit_is_reported_as_truncated_with_zero_reward():
    position = TWO_P.replace("turn=5", "turn=5 limit=7")
    env = SingleAgentEnv("dorix", {"num_players": 2}, opponent=scripted("a4"), learner_seat=0)
    env.reset(seed=0, options={"position": position})
    _, reward, terminated, truncated, _ = env.step(env.state.text_to_action("d1"))
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_illegal_actions_raise():
    env = SingleAgentEnv("dorix", {"num_players": 2}, learner_seat=0, illegal_action="raise")
    env.reset(seed=0, options={"position": TWO_P})
    with pytest.raises(IllegalActionError):
        env.step(5)  # placing on b2, topped by seat 1
    assert env.state.to_text() == TWO_P  # the game is unchanged


def test_illegal_actions_random_plays_a_legal_action_instead():
    # for algorithms without masks: b2 (topped by seat 1) is replaced by a random legal placement
    env = SingleAgentEnv(
        "dorix", {"num_players": 2}, learner_seat=0, illegal_action="random", opponent=scripted("a4", "b4")
    )
    env.reset(seed=0, options={"position": TWO_P})
    _, reward, terminated, truncated, info = env.step(5)
    assert info["illegal_action"] is True and (reward, terminated, truncated) == (0.0, False, False)
    assert env.state.hand(0) == 12 and env.state.hand(1) == 11  # seat 0 placed a pawn, then seat 1 (a4)
    assert env.state.stack("b2") == [1]  # not on b2
    _, _, _, _, info = env.step(env.state.text_to_action("d1"))  # a legal action is played as given
    assert "illegal_action" not in info and env.state.stack("d1") == [0]
    env = SingleAgentEnv("dorix", {"num_players": 2}, learner_seat=0, illegal_action="random")
    for bad in (-1, 276, 2.5, "b2", True):  # values that are no action at all raise, whatever the mode
        env.reset(seed=1, options={"position": TWO_P})
        with pytest.raises(IllegalActionError, match="out of range|an action is an integer"):
            env.step(bad)
        assert env.state.to_text() == TWO_P
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        SingleAgentEnv("dorix", illegal_action="ignore")


# ----- the simultaneous game: a tiny duel (tests/training/training_duel_game.py) ---------------------


@pytest.mark.parametrize("learner_action, expected", [(2, 1.0), (1, 0.0), (0, -1.0)])
def test_simultaneous_opponent_chooses_from_the_same_state(learner_action, expected):
    seen = []

    def opponent(state, seat):
        seen.append(state.clone())  # what the opponent saw when choosing
        return 1

    env = SingleAgentEnv(DuelGame(), opponent=opponent, learner_seat=0)
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step(learner_action)
    assert (reward, terminated) == (expected, True)
    assert len(seen) == 1 and not seen[0].is_terminal()  # drawn before the joint action was applied
    assert tuple(env.state.data[1:3]) == (learner_action, 1)


# ----- every registered game through gymnasium.make and a vectorized env with masks -----------------


@pytest.mark.parametrize("name", game_names())
def test_gymnasium_make_and_masks_in_a_vec_env(name):
    vec = DummyVecEnv([lambda i=i: gymnasium.make(f"boardgames/{name}-v0", opponent="random") for i in range(3)])
    vec.seed(0)
    obs = vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = get_action_masks(vec)
        assert masks.shape == (3, vec.action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        assert obs.shape[0] == 3
        for r, d in zip(rewards, dones):
            assert r == 0 or d
