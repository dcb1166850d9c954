"""The ecosystem's own checkers pass on our environments as ``gymnasium.make`` / ``pettingzoo.make``
build them, with no arguments but the player count: Gymnasium's and SB3's ``check_env`` (which step
with unmasked random actions: the default ``illegal_action="lose"`` makes that a lost game, not an
error), PettingZoo's state test, and RLlib's environment pre-check where ray is installed. (PettingZoo's
``api_test``, ``parallel_api_test``, ``seed_test`` and ``render_test`` run in tests/envs/adapters/test_conformance.py
on every game and option set.)"""

from __future__ import annotations

import importlib
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import boardgames.envs
from boardgames.envs.adapters.illegal import IllegalActionWarning
from boardgames.envs.registration import env_id
from boardgames.envs.registry import env_module, game_names, parallel_games

# the module (``pettingzoo.test.state_test`` as an attribute is the function of the same name)
pettingzoo_state = importlib.import_module("pettingzoo.test.state_test")
PLAYER_COUNTS = {"dorix": (2, 3, 4)}
CASES = [
    pytest.param(name, players, id=f"{name}-{players}p" if players else name)
    for name in game_names()
    for players in PLAYER_COUNTS.get(name, (None,))
]


def _options(players) -> dict:
    return {} if players is None else {"num_players": players}


@pytest.fixture(autouse=True)
def _quiet_illegal_moves():
    with warnings.catch_warnings():  # the checkers' random actions are often illegal: one warning each
        warnings.simplefilter("ignore", IllegalActionWarning)
        yield


@pytest.mark.parametrize("name,players", CASES)
def test_gymnasium_check_env_passes_on_the_defaults(name, players):
    kwargs = {"game_options": _options(players)} if players else {}
    gymnasium_check_env(gymnasium.make(env_id(name), **kwargs).unwrapped)


@pytest.mark.parametrize("name,players", CASES)
def test_sb3_check_env_passes_on_the_defaults(name, players):
    kwargs = {"game_options": _options(players)} if players else {}
    sb3_check_env(gymnasium.make(env_id(name), **kwargs))


@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_state_test_passes(name, players):
    import pettingzoo

    env = pettingzoo.make("aec", env_id(name), **_options(players))
    if name in parallel_games():
        pettingzoo_state.state_test(env, pettingzoo.make("parallel", env_id(name), **_options(players)))
    else:
        pettingzoo_state.test_state_space(env)
        pettingzoo_state.test_state(env, num_cycles=50)


@pytest.mark.parametrize("name,players", CASES)
def test_state_is_every_seats_observation(name, players):
    env = env_module(name).env(**_options(players))
    env.reset(seed=0)
    state = env.unwrapped.game_state
    global_state = env.state()
    assert env.state_space.contains(global_state)
    channels = state.game.info.observation_shape[-1]
    assert global_state.shape[-1] == state.game.info.num_seats * channels
    for seat in range(state.game.info.num_seats):
        assert (global_state[..., seat * channels : (seat + 1) * channels] == state.observation(seat)).all()


@pytest.mark.parametrize("name,players", CASES)
def test_rllib_pre_check_passes(name, players):
    pytest.importorskip("ray.rllib")
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    module = env_module(name)
    if name in parallel_games():
        wrapped = ParallelPettingZooEnv(module.parallel_env(**_options(players)))
    else:
        wrapped = PettingZooEnv(module.env(**_options(players)))
    check_multiagent_environments(wrapped)


def test_envs_package_registers_every_id():
    assert {env_id(n) for n in game_names()} <= set(gymnasium.registry)
    assert boardgames.envs is not None
