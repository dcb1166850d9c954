"""The RLlib environments (boardgames.training.rllib.env) and the league's policy mapping
(boardgames.training.rllib.league):
RLlib's own pre-check on every registered game and player count, the observation layout of the
action-masking RLModule, the end-of-game rewards and the team mapping. Skipped where ray is missing
(make test runs them in .venv-rllib)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from boardgames.envs.adapters.illegal import IllegalActionWarning  # noqa: E402
from boardgames.envs.core.errors import GameOptionError  # noqa: E402
from boardgames.training.rllib.env import BoardGameMultiAgentEnv, env_config, register_envs, registered_names  # noqa: E402
from boardgames.training.rllib.league import LEARNER, RANDOM, LeagueMapping, snapshot_ids  # noqa: E402

NAMES = registered_names()


def test_every_game_and_player_count_is_registered():
    from ray.tune.registry import ENV_CREATOR, _global_registry

    assert set(NAMES) == {
        "boardgame_dorix_2p",
        "boardgame_dorix_3p",
        "boardgame_dorix_4p",
        "boardgame_olix",
        "boardgame_adix",
        "boardgame_barc",
    }
    assert register_envs() == list(NAMES)
    env = _global_registry.get(ENV_CREATOR, "boardgame_dorix_4p")({})  # the creator RLlib calls by name
    assert env.game.info.num_seats == 4 and env.possible_agents == [f"player_{i}" for i in range(4)]
    assert _global_registry.get(ENV_CREATOR, "boardgame_dorix_3p")({"options": {"num_players": 3, "max_turns": 9}})


@pytest.mark.parametrize("name", list(NAMES))
def test_rllib_pre_check_passes(name):
    with warnings.catch_warnings():  # the pre-check's random actions are often illegal: a lost game each
        warnings.simplefilter("ignore", IllegalActionWarning)
        check_multiagent_environments(BoardGameMultiAgentEnv(NAMES[name]))


@pytest.mark.parametrize("name", list(NAMES))
def test_observations_are_flat_with_a_float_mask(name):
    env = BoardGameMultiAgentEnv(NAMES[name])
    obs, _ = env.reset(seed=0)
    agent = next(iter(obs))
    space = env.observation_spaces[agent]
    assert set(obs[agent]) == {"observations", "action_mask"}
    assert obs[agent]["observations"].ndim == 1 and obs[agent]["observations"].dtype == np.float32
    assert obs[agent]["action_mask"].dtype == np.float32
    assert space.contains(obs[agent])
    seat = int(agent.split("_")[1])
    state = env._env.state_
    # the same numbers as the engine's own observation and mask of that seat
    assert (obs[agent]["observations"] == state.observation(seat).reshape(-1)).all()
    assert (obs[agent]["action_mask"] == state.legal_mask(seat)).all()


def play_out(env, rng):
    """Play random legal moves to the end; the last step's return and the agents seen to act."""
    obs, _ = env.reset(seed=1)
    acted = set()
    while True:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        acted |= set(actions)
        obs, rewards, terminated, truncated, _ = env.step(actions)
        if terminated["__all__"] or truncated["__all__"]:
            return obs, rewards, terminated, truncated, acted


def test_turn_based_game_end_gives_every_player_its_result():
    env = BoardGameMultiAgentEnv(env_config("dorix", {"num_players": 2}))
    obs, rewards, terminated, truncated, acted = play_out(env, np.random.default_rng(0))
    returns = env._env.state_.returns()
    assert set(rewards) == set(obs) == acted == {"player_0", "player_1"}
    assert rewards == {"player_0": float(returns[0]), "player_1": float(returns[1])}
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert terminated["__all__"] != truncated["__all__"]


def test_four_player_partners_share_the_team_reward():
    env = BoardGameMultiAgentEnv(env_config("dorix", {"num_players": 4}))
    _, rewards, *_ = play_out(env, np.random.default_rng(3))
    assert rewards["player_0"] == rewards["player_2"]
    assert rewards["player_1"] == rewards["player_3"]
    assert rewards["player_0"] == -rewards["player_1"]


def test_simultaneous_game_steps_every_agent_at_once():
    env = BoardGameMultiAgentEnv(env_config("barc"))
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"player_0", "player_1"}
    obs, rewards, *_ = env.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    assert set(obs) == set(rewards) == {"player_0", "player_1"}


def test_the_barc_start_is_an_option_of_the_env_config():
    corners = "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"
    alternating = "barc 0.1.0.1.0.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.1.0.1.0.1 turn=0"
    for config, text in ((env_config("barc"), alternating), (env_config("barc", {"start": "corners"}), corners)):
        env = BoardGameMultiAgentEnv(config)
        env.reset(seed=0)
        assert env._env.game_state.to_text() == text
    with pytest.raises(GameOptionError, match="start must be one of"):
        env_config("barc", {"start": "middle"})


def test_an_illegal_move_loses_by_default():
    env = BoardGameMultiAgentEnv(env_config("dorix", {"num_players": 2}))
    obs, _ = env.reset(seed=0)
    agent = next(iter(obs))
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning):
        _, rewards, terminated, _, _ = env.step({agent: illegal})
    assert terminated["__all__"]
    assert rewards == {agent: -1.0}  # the other agent never played: nothing for it to learn


def test_bad_config_names_the_problem():
    with pytest.raises(GameOptionError, match="unknown game 'chess'"):
        BoardGameMultiAgentEnv({"game": "chess"})
    with pytest.raises(GameOptionError, match="num_players"):
        BoardGameMultiAgentEnv({"game": "dorix", "options": {"num_players": 7}})
    with pytest.raises(GameOptionError, match="no game"):
        BoardGameMultiAgentEnv({})


def test_league_maps_both_partners_of_a_team_to_one_module():
    mapping = LeagueMapping([(0, 2), (1, 3)], snapshots=2, self_play=0.0)
    sides_of_main = set()
    for key in range(200):
        modules = [mapping.module_for(f"player_{s}", key) for s in range(4)]
        assert modules[0] == modules[2] and modules[1] == modules[3]
        assert sorted([modules[0], modules[1]]).count(LEARNER) == 1  # main against a snapshot
        assert {modules[0], modules[1]} - {LEARNER} <= set(snapshot_ids(2))
        sides_of_main.add(0 if modules[0] == LEARNER else 1)
    assert sides_of_main == {0, 1}  # main plays both sides


def test_league_self_play_share():
    mapping = LeagueMapping([(0,), (1,)], snapshots=3, self_play=0.5)
    both = sum(mapping.module_for("player_0", k) == mapping.module_for("player_1", k) == LEARNER for k in range(1000))
    assert 400 < both < 600
    assert all(LeagueMapping([(0,), (1,)], snapshots=0).module_for("player_1", k) == LEARNER for k in range(20))


def test_league_random_share():
    mapping = LeagueMapping([(0,), (1,)], snapshots=2, self_play=0.5, random_share=0.25)
    games = [{mapping.module_for("player_0", k), mapping.module_for("player_1", k)} for k in range(2000)]
    assert 400 < sum(g == {LEARNER, RANDOM} for g in games) < 600
    assert 900 < sum(g == {LEARNER} for g in games) < 1100
    assert all(LEARNER in g for g in games)
    with pytest.raises(ValueError, match="summing to 1"):
        LeagueMapping([(0,), (1,)], snapshots=2, self_play=0.9, random_share=0.2)
