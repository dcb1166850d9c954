"""Every game runs under OpenSpiel (``boardgames.envs.interop.openspiel``, the ``[openspiel]`` extra): loaded by name,
OpenSpiel's own random simulation test (with serialization) and its ``MCTSBot`` on every game and player
count, and the OpenSpiel view agrees with the engine move for move. Skipped where OpenSpiel is absent."""

from __future__ import annotations

import inspect
import pickle
import subprocess

import numpy as np
import pytest
from helpers.processes import run_python

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from boardgames.envs.core.errors import IllegalActionError  # noqa: E402
from boardgames.envs.interop import openspiel as osp  # noqa: E402
from boardgames.envs.registry import env_module, game_names, make_game  # noqa: E402

CASES = [
    pytest.param(name, options, id=osp.game_string(name, **options))
    for name in game_names()
    for options in env_module(name).CONFORMANCE_OPTIONS
]


def _one_per_player_count(name):
    """The first options of ``name``'s CONFORMANCE_OPTIONS for each player count it has."""
    counts = {}
    for options in env_module(name).CONFORMANCE_OPTIONS:
        counts.setdefault(make_game(name, **options).info.num_seats, options)
    return list(counts.values())


PLAYER_COUNTS = [
    pytest.param(name, options, id=osp.game_string(name, **options))
    for name in game_names()
    for options in _one_per_player_count(name)
]
SIMS = {"adix": 2}  # random_sim_test games per case (ADIX: 300 turns of ~100 legal actions each checked)


def _game(name, options):
    return pyspiel.load_game(osp.game_string(name, **options))


def test_every_game_is_registered_by_name():
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    for name in game_names():
        assert osp.GAME_NAMES[name] == f"boardgames_{name}" in registered
    dorix = registered["boardgames_dorix"]
    assert (dorix.min_num_players, dorix.max_num_players) == (2, 4)
    assert dorix.parameter_specification == {"players": 2, "max_turns": make_game("dorix").info.max_turns}
    assert registered["boardgames_barc"].dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert osp.game_string("dorix", num_players=4) == "boardgames_dorix(players=4)"


@pytest.mark.parametrize("name,options", CASES)
def test_load_game_by_name_matches_the_engine(name, options):
    game = _game(name, options)
    info = make_game(name, **options).info
    assert game.get_type().short_name == f"boardgames_{name}"
    assert game.num_players() == info.num_seats
    assert game.num_distinct_actions() == info.num_actions
    assert tuple(game.observation_tensor_shape()) == info.observation_shape
    assert game.max_game_length() >= info.max_turns
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    dynamics = pyspiel.GameType.Dynamics
    assert game.get_type().dynamics == (dynamics.SIMULTANEOUS if info.simultaneous else dynamics.SEQUENTIAL)
    assert str(osp.load_game(name, **options)) == str(game)
    # zero-sum exactly for two sides of equal size: 2 players, and 4-player Dorix's teams
    zero_sum = info.num_seats == 2 or (name == "dorix" and info.num_seats == 4)
    utility = pyspiel.GameType.Utility
    assert game.get_type().utility == (utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM)
    assert game.utility_sum() == (0.0 if zero_sum else None)


def _python(code: str) -> subprocess.CompletedProcess:
    """``code`` run by this Python in a fresh process, which must succeed."""
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    return out


def test_load_game_by_name_in_a_fresh_process():
    """Only the import registers the games; the process ends cleanly (OpenSpiel keeps the Python creators)."""
    code = (
        "import pyspiel\n"
        "import boardgames.envs.interop.openspiel\n"
        "game = pyspiel.load_game('boardgames_dorix(players=4)')\n"
        "pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)\n"
        "print(game, game.num_players())\n"
    )
    out = _python(code)
    assert out.stdout.strip().endswith("players=4) 4")


def test_importing_envs_needs_no_openspiel():
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None  # as if OpenSpiel were not installed\n"
        "import boardgames.envs, boardgames.envs.interop, boardgames.envs.agents\n"
        "try:\n"
        "    import boardgames.envs.interop.openspiel\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = _python(code)
    assert "[openspiel]" in out.stdout


@pytest.mark.parametrize("name,options", CASES)
def test_openspiel_random_sim_test(name, options):
    game = _game(name, options)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 5), serialize=True, verbose=False)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=3, serialize=False, verbose=False)


def _mcts_game(game):
    """MCTSBot needs sequential turns: the simultaneous game goes through OpenSpiel's turn-based view."""
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        return pyspiel.convert_to_turn_based(game)
    return game


@pytest.mark.parametrize("name,options", PLAYER_COUNTS)
def test_openspiel_mcts_bot_plays_a_full_game(name, options):
    game = _mcts_game(_game(name, options))
    rng = np.random.RandomState(0)
    # few simulations and short rollouts (where OpenSpiel has the option, 2.0 on): the bot runs, however well
    short = {"max_length": 20} if "max_length" in inspect.signature(mcts.RandomRolloutEvaluator).parameters else {}
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, **short)
    bots = [mcts.MCTSBot(game, 1.4, 4, evaluator, random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert len(returns) == game.num_players() and all(r in (-1.0, 0.0, 1.0) for r in returns)


@pytest.mark.parametrize("name", game_names())
def test_openspiel_bots_play_through_evaluate_bots(name):
    """OpenSpiel's C++ game loop, the simultaneous game included (each bot answers at a joint move)."""
    game = _game(name, {})
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(game.num_players())]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert len(returns) == game.num_players()


@pytest.mark.parametrize("name,options", PLAYER_COUNTS)
def test_openspiel_rl_environment_plays_a_game(name, options):
    """OpenSpiel's RL loop (``rl_environment``): turn-based games one action a step, Barc all at once."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(osp.game_string(name, **options))
    rng = np.random.default_rng(0)
    step = env.reset()
    size = int(np.prod(make_game(name, **options).info.observation_shape))
    while not step.last():
        legal = step.observations["legal_actions"]
        assert len(step.observations["info_state"][0]) == size  # the observation tensor
        if env.is_turn_based:
            actions = [int(rng.choice(legal[step.observations["current_player"]]))]
        else:
            actions = [int(rng.choice(legal[p])) for p in range(env.num_players)]
        step = env.step(actions)
    assert len(step.rewards) == env.num_players and set(step.rewards) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("name,options", CASES)
def test_openspiel_view_agrees_with_the_engine(name, options):
    """Random games played through OpenSpiel and through the engine side by side: same player to act,
    legal actions, observations, notation, end and returns (team returns at 4-player Dorix)."""
    game = _game(name, options)
    engine = make_game(name, **options)
    rng = np.random.default_rng(1)
    for _ in range(3):
        ours, theirs = engine.new_initial_state(), game.new_initial_state()
        while True:
            assert str(theirs) == ours.to_text()
            assert theirs.is_terminal() == ours.is_terminal()
            for seat in range(engine.info.num_seats):
                obs = np.asarray(theirs.observation_tensor(seat), dtype=np.float32)
                np.testing.assert_array_equal(obs.reshape(engine.info.observation_shape), ours.observation(seat))
            if ours.is_terminal():
                break
            seats = ours.current_seats()
            if engine.info.simultaneous:
                assert theirs.current_player() == pyspiel.PlayerId.SIMULTANEOUS
            else:
                assert theirs.current_player() == seats[0]
            for seat in seats:
                assert theirs.legal_actions(seat) == ours.legal_actions(seat).tolist()
            joint = [int(rng.choice(ours.legal_actions(s))) if s in seats else 0 for s in range(engine.info.num_seats)]
            ours.apply_actions(joint)
            if engine.info.simultaneous:
                theirs.apply_actions(joint)
            else:
                theirs.apply_action(joint[seats[0]])
        assert theirs.current_player() == pyspiel.PlayerId.TERMINAL
        assert theirs.returns() == ours.returns().tolist()
        if engine.info.teams != tuple(range(engine.info.num_seats)):
            returns = theirs.returns()
            for seat in range(engine.info.num_seats):
                assert all(returns[p] == returns[seat] for p in engine.info.partners(seat))


def test_illegal_action_raises_and_leaves_the_state_untouched():
    game = pyspiel.load_game("boardgames_olix")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    before, history = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for bad in (illegal, game.num_distinct_actions()):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert (str(state), state.history()) == (before, history)
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own legality check
        state.apply_action_with_legality_check(illegal)
    assert (str(state), state.history()) == (before, history)
    with pytest.raises(IllegalActionError, match="turn-based"):
        state.apply_actions([state.legal_actions()[0], 0])
    assert (str(state), state.history()) == (before, history)


def test_simultaneous_game_takes_one_action_per_player_at_once():
    game = pyspiel.load_game("boardgames_barc")
    state = game.new_initial_state()
    before = str(state)
    legal = [state.legal_actions(p)[0] for p in range(2)]
    for bad in ([legal[0]], legal + [legal[0]]):
        with pytest.raises(IllegalActionError, match="one per player"):
            state.apply_actions(bad)
    with pytest.raises(IllegalActionError, match="simultaneous"):
        state.apply_action(legal[0])
    with pytest.raises(ValueError, match="simultaneous"):
        state.legal_actions()
    assert (str(state), state.history()) == (before, [])
    state.apply_actions(legal)
    assert state.history() == legal


@pytest.mark.parametrize("name", game_names())
def test_serialization_pickle_clone_and_start_position(name):
    game = _game(name, {})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(6):
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert (str(new_game), str(new_state), new_state.history()) == (str(game), str(state), state.history())
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    clone = state.clone()
    assert clone.engine_state is not state.engine_state and clone.engine_state == state.engine_state
    started = game.new_initial_state(str(state))  # from the notation
    assert osp.engine_state(started) == state.engine_state and started.legal_actions(0) == state.legal_actions(0)
    assert state.observation_string(0) == str(state)
    assert state.action_to_string(0, state.legal_actions(0)[0]) == state.engine_state.action_to_text(
        state.legal_actions(0)[0], 0
    )
