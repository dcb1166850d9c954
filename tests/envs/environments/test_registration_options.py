"""The registries answer as a user of PettingZoo expects: Gymnasium's single-agent and vector envs take
the game's options as keywords (as ``pettingzoo.make`` does) besides ``game_options=``, with a clear
error for a conflict or an unknown option; a turn-based game asked for in Parallel form says it has none,
names the games that have one and points to ``"aec"``."""

from __future__ import annotations

import gymnasium
import pettingzoo
import pytest

import boardgames.envs  # noqa: F401  (registers the games)
from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registration import NoParallelFormError, env_id, pettingzoo_registry
from boardgames.envs.registry import game_names, make_game, parallel_games

NEEDS_PETTINGZOO_REGISTRY = pytest.mark.skipif(
    pettingzoo_registry() is None, reason="PettingZoo before 1.27 has no env registry (pettingzoo.make)"
)


def test_gymnasium_make_takes_the_games_options_as_keywords():
    env = gymnasium.make(env_id("dorix"), num_players=3)
    assert env.unwrapped.game.info.num_seats == 3 and env.unwrapped.game_options == {"num_players": 3}
    env = gymnasium.make(env_id("dorix"), num_players=4, game_options={"max_turns": 50}, opponent="greedy")
    assert env.unwrapped.game_options == {"max_turns": 50, "num_players": 4}
    assert env.unwrapped.game.info.max_turns == 50
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    same = gymnasium.make(env_id("dorix"), num_players=3, game_options={"num_players": 3})  # agreeing: fine
    assert same.unwrapped.game.info.num_seats == 3
    barc = gymnasium.make(env_id("barc", 0), max_turns=30)  # an older version's options too
    assert barc.unwrapped.game.info.max_turns == 30


def test_conflicting_or_unknown_options_are_refused_clearly():
    with pytest.raises(GameOptionError, match=r"num_players=3 and game_options=\{'num_players': 2\} disagree"):
        gymnasium.make(env_id("dorix"), num_players=3, game_options={"num_players": 2})
    with pytest.raises(GameOptionError, match="dorix has no option 'players'.*num_players.*opponent"):
        gymnasium.make(env_id("dorix"), players=3)
    with pytest.raises(GameOptionError, match="need a game name"):
        SingleAgentEnv(game=make_game("dorix"), num_players=3)


def test_gymnasium_make_vec_takes_the_games_options_as_keywords():
    batch = gymnasium.make_vec(env_id("dorix"), num_envs=2, num_players=3)
    assert batch.unwrapped.batch.game.info.num_seats == 3
    with pytest.raises(GameOptionError, match="disagree"):
        gymnasium.make_vec(env_id("dorix"), num_envs=2, num_players=3, game_options={"num_players": 4})
    synced = gymnasium.make_vec(env_id("dorix"), num_envs=2, vectorization_mode="sync", num_players=4)
    assert synced.envs[0].unwrapped.game.info.num_seats == 4


@NEEDS_PETTINGZOO_REGISTRY
@pytest.mark.parametrize("name", [n for n in game_names() if n not in parallel_games()])
def test_a_turn_based_game_in_parallel_form_says_it_has_none(name):
    with pytest.raises(NoParallelFormError) as refused:
        pettingzoo.make("parallel", env_id(name))
    message = str(refused.value)
    assert f"{env_id(name)} is turn-based" in message and f'pettingzoo.make("aec", "{env_id(name)}")' in message
    assert all(env_id(game) in message for game in parallel_games())
    assert "atari" not in message


@NEEDS_PETTINGZOO_REGISTRY
def test_the_simultaneous_games_keep_their_parallel_form():
    for name in parallel_games():
        env = pettingzoo.make("parallel", env_id(name))
        obs, _ = env.reset(seed=0)
        assert set(obs) == set(env.agents)
