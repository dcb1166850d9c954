"""``env.spec.max_episode_steps`` of the Gymnasium environments: every environment ``gymnasium.make`` and
``make_vec`` build reports its game's turn limit (the default one, or the ``max_turns`` it was given), an upper
bound on its episodes' steps that the game's own truncation enforces, with no Gymnasium ``TimeLimit`` that
could end a game sooner (the reasons: :mod:`boardgames.envs.registration`, docs/ecosystem.md "Gymnasium").

So: the default limit is reported; a larger ``max_turns`` is not cut at the default; a smaller one ends by the
game's own truncation (``truncated``, never ``terminated``, reward 0); ``terminated`` and ``truncated`` are never
both set, and ``truncated`` is set exactly where the game's state says it was cut; a cut of one's own
(``gymnasium.make(id, max_episode_steps=n)``) is Gymnasium's TimeLimit, reported as such."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers import TimeLimit

import boardgames.envs  # noqa: F401  (registers the games)
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registration import env_id
from boardgames.envs.registry import env_modules, game_names, make_game, parallel_games

TURN_LIMITS = {"dorix": 200, "olix": 92, "adix": 300, "barc": 200}
"""Each game's default turn limit, as its rules pages give it."""

EVERY_ID = [(name, version) for name in game_names() for version in env_modules(name)]


def wrappers_of(env) -> list:
    """The classes of ``env``'s wrapper chain, outermost first, the environment last."""
    chain = [type(env)]
    while hasattr(env, "env"):
        env = env.env
        chain.append(type(env))
    return chain


def play(env, rng: np.random.Generator, seed: int) -> tuple[int, float, bool, bool, object]:
    """One episode of masked random play: (steps, last reward, terminated, truncated, the unwrapped env)."""
    _, info = env.reset(seed=seed)
    steps = 0
    while True:
        _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        steps += 1
        if terminated or truncated:
            return steps, reward, terminated, truncated, env.unwrapped


@pytest.mark.parametrize(("name", "version"), EVERY_ID)
def test_the_default_turn_limit_is_reported_on_every_path(name, version):
    eid = env_id(name, version)
    limit = TURN_LIMITS[name]
    assert make_game(f"{name}-v{version}").info.max_turns == limit
    single = gymnasium.make(eid)
    assert single.spec.max_episode_steps == limit and single.spec.id == eid
    assert TimeLimit not in wrappers_of(single)  # the game ends its episodes itself
    assert gymnasium.make_vec(eid, num_envs=2).spec.max_episode_steps == limit  # the compiled batch
    synced = gymnasium.make_vec(eid, num_envs=2, vectorization_mode="sync")
    assert [e.spec.max_episode_steps for e in synced.envs] == [limit, limit]
    assert all(TimeLimit not in wrappers_of(e) for e in synced.envs)
    # the registration itself carries no number: gymnasium.make would wrap a TimeLimit of that many steps
    # whatever max_turns it is given (registration.py's docstring)
    assert gymnasium.spec(eid).max_episode_steps is None


@pytest.mark.parametrize("name", game_names())
def test_a_max_turns_option_is_the_reported_limit(name):
    assert gymnasium.make(env_id(name), max_turns=50).spec.max_episode_steps == 50
    assert gymnasium.make(env_id(name), game_options={"max_turns": 1000}).spec.max_episode_steps == 1000
    assert gymnasium.make_vec(env_id(name), num_envs=2, max_turns=70).spec.max_episode_steps == 70


def test_a_larger_max_turns_is_not_cut_at_the_default_limit():
    """ADIX, seed 0: 447 learner steps of masked random play with max_turns=2000, past the default limit of
    300 (a TimeLimit from the registration would have cut it there), and a real ending."""
    env = gymnasium.make(env_id("adix"), max_turns=2000)
    steps, reward, terminated, truncated, unwrapped = play(env, np.random.default_rng(0), seed=0)
    assert steps == 447 > TURN_LIMITS["adix"]
    assert terminated and not truncated and reward in (-1.0, 1.0) and not unwrapped.state.is_truncated()


def test_a_larger_max_turns_is_not_cut_in_the_compiled_batch_either():
    """ADIX in the compiled batch, max_turns=2000, masked random play (seed 0): games run past 300 learner
    steps to a real ending; none is cut before its turn limit."""
    envs = gymnasium.make_vec(env_id("adix"), num_envs=8, max_turns=2000)
    assert envs.spec.max_episode_steps == 2000
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    ends, steps = [], np.zeros(8, dtype=int)
    for _ in range(1200):
        _, rewards, terminated, truncated, infos = envs.step(draw(infos["action_mask"], rng))
        assert not (terminated & truncated).any() and not truncated.any()  # 2000 turns are never reached
        steps += 1
        for i in np.flatnonzero(terminated):
            assert rewards[i] in (-1.0, 1.0)
            ends.append(int(steps[i]))
            steps[i] = -1  # NEXT_STEP: the next step restarts the game
    assert ends and max(ends) > TURN_LIMITS["adix"], sorted(ends)


def draw(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row drawn from the row's mask."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("name", game_names())
def test_a_smaller_max_turns_ends_by_the_games_own_truncation(name):
    """max_turns=6: every episode ends within 6 steps, cut by the game (``truncated``, reward 0, the state
    says so) or ended by its rules (``terminated``); never both; and never a TimeLimit of Gymnasium's."""
    env = gymnasium.make(env_id(name), max_turns=6)
    assert env.spec.max_episode_steps == 6 and TimeLimit not in wrappers_of(env)
    rng = np.random.default_rng(1)
    learner_share = 6 if name in parallel_games() else 3  # Barc: both seats act at every turn
    cut = 0
    for seed in range(12):
        steps, reward, terminated, truncated, unwrapped = play(env, rng, seed)
        assert terminated != truncated and steps <= env.spec.max_episode_steps
        assert truncated == unwrapped.state.is_truncated()
        if truncated:
            cut += 1
            assert reward == 0.0 and steps == learner_share
    assert cut > 0


@pytest.mark.parametrize("name", game_names())
def test_default_episodes_stay_within_the_reported_limit_with_consistent_flags(name):
    env = gymnasium.make(env_id(name), num_players=4) if name == "dorix" else gymnasium.make(env_id(name))
    rng = np.random.default_rng(2)
    for seed in range(4):
        steps, reward, terminated, truncated, unwrapped = play(env, rng, seed)
        assert terminated != truncated and steps <= env.spec.max_episode_steps
        assert truncated == unwrapped.state.is_truncated() and (reward == 0.0 or terminated)


def test_a_cut_of_ones_own_is_gymnasiums_time_limit():
    env = gymnasium.make(env_id("adix"), max_episode_steps=5)
    assert env.spec.max_episode_steps == 5 and TimeLimit in wrappers_of(env)
    steps, reward, terminated, truncated, unwrapped = play(env, np.random.default_rng(0), seed=0)
    assert steps == 5 and truncated and not terminated and reward == 0.0
    assert not unwrapped.state.is_terminal()  # cut by the TimeLimit, not by the game


def test_an_environment_made_again_from_its_spec_keeps_its_options_and_limit():
    """``gymnasium.make(env.spec)``: the spec's max_episode_steps becomes a TimeLimit of that many steps,
    which ends nothing sooner than the game does (a step plays at least one turn)."""
    again = gymnasium.make(gymnasium.make(env_id("adix"), max_turns=2000).spec)
    assert again.spec.max_episode_steps == 2000 and again.unwrapped.game.info.max_turns == 2000
    steps, _, terminated, truncated, _ = play(again, np.random.default_rng(0), seed=0)
    assert (steps, terminated, truncated) == (447, True, False)  # the same game as above
    batch = gymnasium.make_vec(gymnasium.make_vec(env_id("olix"), num_envs=3, max_turns=40).spec)
    assert batch.num_envs == 3 and batch.spec.max_episode_steps == 40


def test_the_compiled_batch_cannot_cut_sooner_than_the_turn_limit():
    ok = gymnasium.make_vec(env_id("dorix"), num_envs=2, max_episode_steps=500)
    assert ok.spec.max_episode_steps == 200  # above the limit: changes nothing
    with pytest.raises(GameOptionError, match=r"max_episode_steps=50: .* give max_turns=<n>"):
        gymnasium.make_vec(env_id("dorix"), num_envs=2, max_episode_steps=50)
