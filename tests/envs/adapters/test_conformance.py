"""The conformance suite every registered game runs: PettingZoo's own API, seed and render tests, and
random playouts through the shared Game/State interface with the game's invariants checked after
every action. A game joins by being listed in ``boardgames.envs.registry`` with its ``CONFORMANCE_OPTIONS``."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest
from helpers.processes import run_python
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import env_module, game_names

CASES = [
    pytest.param(name, options, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in options.items()) if options else name)
    for name in game_names()
    for options in env_module(name).CONFORMANCE_OPTIONS
]
PLAYOUT_TURNS = 3000  # per case: thousands of turns


def _is_simultaneous(name, options):
    return env_module(name).make_game(**options).info.simultaneous


@pytest.mark.parametrize("name,options", CASES)
def test_pettingzoo_api(name, options):
    module = env_module(name)
    api_test(module.env(**options), num_cycles=1000)
    if _is_simultaneous(name, options):
        parallel_api_test(module.parallel_env(**options), num_cycles=1000)


@pytest.mark.parametrize("name,options", CASES)
def test_pettingzoo_seed(name, options):
    module = env_module(name)
    seed_test(partial(module.env, **options), num_cycles=100)
    if _is_simultaneous(name, options):
        parallel_seed_test(partial(module.parallel_env, **options), num_cycles=100)


PARALLEL_GAMES = [name for name in game_names() if _is_simultaneous(name, {})]


def _seeded_spaces(env, seed: int = 0):
    """``env`` with its agents' action spaces seeded, so that the random actions PettingZoo's tests draw
    are the same in every run."""
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + i)
    return env


@pytest.mark.parametrize("name", PARALLEL_GAMES)
def test_pettingzoo_max_cycles(name):
    """PettingZoo's max_cycles_test: ``max_cycles`` (a cycle is a turn in a game whose seats act at once)
    truncates the Parallel and the AEC form after exactly that many cycles. Unmasked random orders are
    played as the rules play impossible ones (the seat stays), so the game goes on."""
    module = env_module(name)
    seeded = SimpleNamespace(
        parallel_env=lambda **kwargs: _seeded_spaces(module.parallel_env(**kwargs)),
        env=lambda **kwargs: _seeded_spaces(module.env(**kwargs)),
    )
    max_cycles_test(seeded)
    assert module.parallel_env(max_cycles=7).unwrapped.game.info.options["max_turns"] == 7
    with pytest.raises(Exception, match="max_cycles=4 and max_turns=5"):
        module.parallel_env(max_cycles=4, max_turns=5)


@pytest.mark.parametrize("name,options", CASES)
def test_pettingzoo_render(name, options):
    module = env_module(name)
    render_test(partial(module.env, **options))


@pytest.mark.parametrize("name,options", CASES)
def test_rgb_frame_changes_after_a_move(name, options):
    module = env_module(name)
    e = module.env(render_mode="rgb_array", **options)
    e.reset(seed=0)
    before = e.render()
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    agent = e.agent_selection
    e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    assert not np.array_equal(before, e.render())


def _random_joint_or_single(state, rng):
    """One random legal action (turn-based) or one per seat (simultaneous)."""
    if state.game.info.simultaneous:
        acts = [int(rng.choice(state.legal_actions(seat))) for seat in range(state.game.info.num_seats)]
        state.apply_joint(acts)
    else:
        state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name,options", CASES)
def test_random_playouts_keep_invariants(name, options):
    game = env_module(name).make_game(**options)
    info = game.info
    rng = np.random.default_rng(1234)
    turns = games = 0
    while turns < PLAYOUT_TURNS:
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal():
            state.check_invariants()
            assert game.from_text(state.to_text()) == state, state.to_text()
            seats = state.current_seats()
            assert seats, "a running game must have a seat to act"
            for seat in range(info.num_seats):
                obs = state.observation(seat)
                assert obs.shape == info.observation_shape and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0, f"observation out of [0, 1] for seat {seat}"
                mask = state.legal_mask(seat)
                assert mask.shape == (info.num_actions,) and mask.dtype == np.bool_
                assert mask.any() == (seat in seats), f"seat {seat}: mask {mask.any()} but acts={seat in seats}"
            if not info.simultaneous and turns % 7 == 0:
                for a in state.legal_actions():
                    assert state.text_to_action(state.action_to_text(int(a))) == a
            before = state.clone()
            _random_joint_or_single(state, rng)
            turns += 1
            assert state.turn > before.turn or state.is_terminal() or _mid_turn_decision(state, before)
        state.check_invariants()
        assert game.from_text(state.to_text()) == state
        ret = state.returns()
        assert ret.shape == (info.num_seats,) and set(np.unique(ret)) <= {-1.0, 0.0, 1.0}
        if state.is_truncated():
            assert not ret.any(), "truncation gives 0 to everybody"
        for seat in range(info.num_seats):  # team-mates share results
            for partner in info.partners(seat):
                assert ret[seat] == ret[partner]
    assert games >= 1


def _mid_turn_decision(state, before) -> bool:
    """A game may ask the same seat for several decisions in one turn (e.g. a Dorix collapse)."""
    return state.turn == before.turn and state.current_seats() == before.current_seats()


@pytest.mark.parametrize("name,options", CASES)
def test_clone_is_independent(name, options):
    game = env_module(name).make_game(**options)
    state = game.new_initial_state()
    copy = state.clone()
    text = state.to_text()
    _random_joint_or_single(copy, np.random.default_rng(0))
    assert state.to_text() == text and copy != state


@pytest.mark.parametrize("name,options", CASES)
def test_illegal_action_raises_and_leaves_state_alone(name, options):
    game = env_module(name).make_game(**options)
    state = game.new_initial_state()
    info = game.info
    text = state.to_text()
    seat = state.current_seats()[0]
    illegal = np.flatnonzero(~state.legal_mask(seat))
    bad_actions = [info.num_actions, -1, "a1"] + ([int(illegal[0])] if len(illegal) else [])
    for bad in bad_actions:
        with pytest.raises(IllegalActionError):
            if info.simultaneous:
                legal = [int(state.legal_actions(s)[0]) for s in range(info.num_seats)]
                legal[seat] = bad
                state.apply_joint(legal)
            else:
                state.apply(bad)
        assert state.to_text() == text
    e = env_module(name).env(**options, illegal_action="raise")
    e.reset(seed=0)
    if not info.simultaneous:
        with pytest.raises(IllegalActionError):
            e.step(info.num_actions)


@pytest.mark.parametrize("name", game_names())
def test_malformed_position_is_rejected(name):
    from boardgames.envs.core.errors import NotationError

    module = env_module(name)
    game = module.make_game(**module.CONFORMANCE_OPTIONS[0])
    for bad in ["", "nonsense", game.new_initial_state().to_text() + " extra=1", "x" * 50]:
        with pytest.raises(NotationError):
            game.from_text(bad)


@pytest.mark.parametrize("name", game_names())
def test_wrong_seats_and_options_are_named(name):
    from boardgames.envs.core.errors import GameOptionError
    from boardgames.envs.registry import make_game

    state = make_game(name).new_initial_state()
    seats = state.game.info.num_seats
    for bad in (-1, seats, 2.0, None, True):
        with pytest.raises(ValueError, match="is not a seat of this"):
            state.observation(bad)
        if bad is not None:  # legal_mask(None) is the seat to act
            with pytest.raises(ValueError, match="is not a seat of this"):
                state.legal_mask(bad)
    with pytest.raises(GameOptionError, match=f"{name} has no option 'board_size'; its options: "):
        make_game(name, board_size=9)


@pytest.mark.parametrize("name", game_names())
def test_runs_without_jit(name):
    """NUMBA_DISABLE_JIT=1 must run the same rules as plain Python (for debugging)."""
    options = env_module(name).CONFORMANCE_OPTIONS[0]
    code = (
        "import numpy as np\n"
        "from boardgames.envs.registry import make_game\n"
        f"g = make_game({name!r}, **{options!r})\n"
        "rng = np.random.default_rng(0)\n"
        "for _ in range(2):\n"
        "    s = g.new_initial_state()\n"
        "    for _ in range(60):\n"
        "        if s.is_terminal(): break\n"
        "        if g.info.simultaneous:\n"
        "            s.apply_joint([int(rng.choice(s.legal_actions(k))) for k in range(g.info.num_seats)])\n"
        "        else:\n"
        "            s.apply(int(rng.choice(s.legal_actions())))\n"
        "        s.check_invariants(); assert g.from_text(s.to_text()) == s\n"
        "        s.observation(0); s.render_text()\n"
        "print('ok')\n"
    )
    out = run_python(code, timeout=600, NUMBA_DISABLE_JIT="1")
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
