"""The Barc duel's versions and starts through every API: barc_v1 (the alternating start, ruling B1
revised) is current, barc_v0 (the corners start) stays importable and registered, the ``start`` option
reaches the engine from every API, and a model trained on one version is refused on the other."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest

import boardgames.envs  # noqa: F401  (registers the games)
from boardgames.envs import barc_v0, barc_v1
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registration import env_id
from boardgames.envs.registry import make_game
from boardgames.envs.vector import BatchedGames

ALTERNATING = "barc 0.1.0.1.0.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.1.0.1.0.1 turn=0"
CORNERS = "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"
EDGES = "barc 1.0.-.-.0.1/-.-.-.-.-.-/1.-.-.-.-.1/0.-.-.-.-.0/-.-.-.-.-.-/0.1.-.-.1.0 turn=0"


def start_of(env) -> str:
    return env.unwrapped.game_state.to_text()


def test_the_modules_and_their_defaults():
    assert make_game("barc").new_initial_state().to_text() == ALTERNATING
    assert make_game("barc", start="edges").new_initial_state().to_text() == EDGES
    assert make_game("barc-v0").new_initial_state().to_text() == CORNERS
    assert make_game("barc-v1", start="corners").new_initial_state().to_text() == CORNERS
    for module, text in ((barc_v1, ALTERNATING), (barc_v0, CORNERS)):
        p = module.parallel_env()
        p.reset(seed=0)
        assert start_of(p) == text
        e = module.env()
        e.reset(seed=0)
        assert start_of(e) == text
    p = barc_v1.parallel_env(start="edges", max_turns=30)
    p.reset()
    assert start_of(p) == EDGES
    assert barc_v0.__doc__.startswith("Barc duel, version 0: replaced by :mod:`boardgames.envs.barc_v1`")
    assert "Version history: v1" in barc_v1.__doc__


def test_bad_starts_and_versions_are_named():
    with pytest.raises(GameOptionError, match="start must be one of 'alternating', 'corners', 'edges', got 'middle'"):
        barc_v1.parallel_env(start="middle")
    with pytest.raises(GameOptionError, match="barc has no version 7; its versions: barc-v0, barc-v1"):
        make_game("barc-v7")


def test_both_versions_are_registered():
    assert {env_id("barc"), env_id("barc", 0)} == {"boardgames/barc-v1", "boardgames/barc-v0"}
    for version, text in ((1, ALTERNATING), (0, CORNERS)):
        for kind in ("aec", "parallel"):
            e = pettingzoo.make(kind, env_id("barc", version))
            e.reset(seed=0)
            assert start_of(e) == text
    assert gymnasium.make("boardgames/barc-v1").unwrapped.game.new_initial_state().to_text() == ALTERNATING
    with pytest.warns(DeprecationWarning, match="out of date"):
        old = gymnasium.make("boardgames/barc-v0", game_options={"max_turns": 50})
    assert old.unwrapped.game.start == "corners" and old.unwrapped.game.max_turns == 50
    opts = gymnasium.make("boardgames/barc-v1", game_options={"start": "edges"})
    assert opts.unwrapped.game.new_initial_state().to_text() == EDGES
    vec = gymnasium.make_vec("boardgames/barc-v1", num_envs=2, game_options={"start": "corners"})
    assert vec.unwrapped.batch.game.start == "corners"


def test_the_batches_start_from_the_chosen_start():
    for start, text in (("alternating", ALTERNATING), ("corners", CORNERS)):
        batch = BatchedGames("barc", 3, game_options={"start": start}, threads=False)
        batch.reset(seed=0)
        assert all(batch.state(i).to_text() == text for i in range(3))
        expected = make_game("barc", start=start).new_initial_state().data
        assert np.array_equal(batch.states[0], expected)


def test_openspiel_takes_the_start_parameter():
    pyspiel = pytest.importorskip("pyspiel")
    import boardgames.envs.interop.openspiel as osp

    assert str(pyspiel.load_game("boardgames_barc").new_initial_state()) == ALTERNATING
    assert str(pyspiel.load_game("boardgames_barc(start=corners)").new_initial_state()) == CORNERS
    assert osp.game_string("barc", start="edges", max_turns=30) == "boardgames_barc(start=edges,max_turns=30)"
    assert str(osp.load_game("barc", start="edges").new_initial_state()) == EDGES


def test_a_model_of_the_other_version_is_refused_naming_both():
    from boardgames.training.storage.model_version import ModelVersionError, check_model_version, model_game

    check_model_version({"env_version": 1}, make_game("barc"), "m")  # the same version: accepted
    check_model_version({"env_version": 0}, make_game("barc", start="corners"), "m")
    with pytest.raises(
        ModelVersionError,
        match="model m was trained on boardgames/barc-v0, but this game is boardgames/barc-v1 .start='alternating'",
    ):
        check_model_version({}, make_game("barc"), "m")  # nothing recorded: saved before versions, v0
    with pytest.raises(ModelVersionError, match="trained on boardgames/barc-v1, but this game is boardgames/barc-v0"):
        check_model_version({"env_version": 1}, make_game("barc-v0"), "m")
    # the game a model was trained on: its version's defaults, then its recorded options
    assert model_game("barc", {}, {}).start == "corners"
    assert model_game("barc", {}, {"env_version": 1}).start == "alternating"
    assert model_game("barc", {"max_turns": 40}, {}).max_turns == 40
    assert model_game("dorix", {"num_players": 3}, {}).info.num_seats == 3


@pytest.mark.parametrize("spec", ["models/barc", "models/barc_az", "rllib:models/rllib_barc"])
def test_the_shipped_barc_models_play_v1_only(spec):
    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.storage.model_version import ModelVersionError

    agent = make_agent(spec, make_game("barc"), seed=0)
    state = make_game("barc").new_initial_state()
    assert state.legal_mask(0)[agent(state, 0)]
    with pytest.raises(ModelVersionError, match="boardgames/barc-v1.*boardgames/barc-v0"):
        make_agent(spec, make_game("barc-v0"), seed=0)
