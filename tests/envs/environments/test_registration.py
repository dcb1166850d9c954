"""Every game is reachable through PettingZoo's registry (and, for simultaneous games, its Parallel one)."""

import pettingzoo
import pytest

import boardgames.envs  # noqa: F401  (registers the games)
from boardgames.envs.registration import env_id, pettingzoo_registry
from boardgames.envs.registry import SIMULTANEOUS_GAMES, game_names

NEEDS_PETTINGZOO_REGISTRY = pytest.mark.skipif(
    pettingzoo_registry() is None, reason="PettingZoo before 1.27 has no env registry (pettingzoo.make)"
)


@NEEDS_PETTINGZOO_REGISTRY
@pytest.mark.parametrize("name", game_names())
def test_pettingzoo_make(name):
    e = pettingzoo.make("aec", env_id(name))
    e.reset(seed=0)
    assert e.agents == e.possible_agents and e.agent_selection in e.agents
    if name in SIMULTANEOUS_GAMES:
        p = pettingzoo.make("parallel", env_id(name))
        obs, _ = p.reset(seed=0)
        assert set(obs) == set(p.agents)


@NEEDS_PETTINGZOO_REGISTRY
def test_dorix_options_pass_through_the_registry():
    e = pettingzoo.make("aec", env_id("dorix"), num_players=4)
    e.reset()
    assert len(e.agents) == 4


@pytest.mark.parametrize("name", game_names())
def test_gymnasium_make_plays_a_game(name):
    import gymnasium
    import numpy as np

    e = gymnasium.make(env_id(name))
    obs, _ = e.reset(seed=3)
    assert e.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        action = int(rng.choice(np.flatnonzero(e.unwrapped.action_masks())))
        obs, reward, terminated, truncated, _ = e.step(action)
        assert e.observation_space.contains(obs)
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            break
    else:
        pytest.fail("the game did not end")


@pytest.mark.parametrize("name", game_names())
def test_gymnasium_make_vec_builds_the_compiled_batch(name):
    import gymnasium
    import numpy as np

    from boardgames.envs.vector import BatchedVectorEnv

    envs_ = gymnasium.make_vec(env_id(name), num_envs=4)
    assert isinstance(envs_.unwrapped, BatchedVectorEnv) and envs_.num_envs == 4
    obs, infos = envs_.reset(seed=0)
    assert obs.shape == (4, *envs_.single_observation_space.shape)
    masks = envs_.unwrapped.action_masks()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    obs, rewards, terminated, truncated, infos = envs_.step(actions)
    assert obs.shape[0] == 4 and rewards.shape == (4,)


def test_gymnasium_make_vec_sync_vectorizes_the_single_agent_env():
    import gymnasium

    from boardgames.envs.adapters.single_agent import SingleAgentEnv

    envs_ = gymnasium.make_vec(env_id("dorix"), num_envs=2, vectorization_mode="sync")
    assert all(isinstance(e.unwrapped, SingleAgentEnv) for e in envs_.envs)
