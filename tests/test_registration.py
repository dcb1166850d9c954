"""Every game is reachable through PettingZoo's registry (and, for simultaneous games, its Parallel one)."""

import pettingzoo
import pytest

import envs  # noqa: F401  (registers the games)
from envs.registration import env_id
from envs.registry import SIMULTANEOUS_GAMES, game_names


@pytest.mark.parametrize("name", game_names())
def test_pettingzoo_make(name):
    e = pettingzoo.make("aec", env_id(name))
    e.reset(seed=0)
    assert e.agents == e.possible_agents and e.agent_selection in e.agents
    if name in SIMULTANEOUS_GAMES:
        p = pettingzoo.make("parallel", env_id(name))
        obs, _ = p.reset(seed=0)
        assert set(obs) == set(p.agents)


def test_dorix_options_pass_through_the_registry():
    e = pettingzoo.make("aec", env_id("dorix"), num_players=4)
    e.reset()
    assert len(e.agents) == 4
