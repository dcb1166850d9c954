"""The kernel contract (:mod:`boardgames.envs.core.game_kernels`): a game's rules and observe modules are read and
checked once into one :class:`GameKernels`, which refuses a missing, misnamed or mistyped kernel or constant with
a message naming it and the module; every consumer (the State methods, the adapters' per-turn kernels, the
batches, the search, the MCTS agent, the AlphaZero evaluator) takes that same object, and what they compile from
it is built once, in its one cache."""

from __future__ import annotations

import re
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest

from boardgames.envs.core.game_kernels import GameKernels, KernelContractError, game_kernels, kernels_of
from boardgames.envs.core.kernel_state import KernelState
from boardgames.envs.registry import game_names, make_game


def _noop(*args):
    return None


def _rules(**changes) -> ModuleType:
    """A rules module meeting the contract (turn-based), with ``changes`` (a name set to None is removed)."""
    module = ModuleType("fake_game.rules")
    fields = dict(
        init_state=_noop,
        legal_mask=_noop,
        apply_action=_noop,
        returns=_noop,
        is_over=_noop,
        NUM_ACTIONS=4,
        STATE_SIZE=8,
        TO_MOVE=0,
        TURN=1,
        OVER=2,
        TRUNCATED=3,
        WINNER=4,
    )
    fields.update(changes)
    for name, value in fields.items():
        if value is not None:
            setattr(module, name, value)
    return module


def _observe(**changes) -> ModuleType:
    module = ModuleType("fake_game.observe")
    for name, value in {"observe": _noop, "OBS_CHANNELS": 3, **changes}.items():
        if value is not None:
            setattr(module, name, value)
    return module


def _refused(rules, encoder) -> str:
    with pytest.raises(KernelContractError) as caught:
        game_kernels(rules, encoder)
    return str(caught.value)


def test_a_module_meeting_the_contract_gives_its_kernels_offsets_and_sizes():
    rules, encoder = _rules(legal_mask_listed=_noop, LEGAL_LIST=5), _observe(WRITES_UINT8=True)
    k = game_kernels(rules, encoder)
    assert isinstance(k, GameKernels) and k.rules is rules and k.encoder is encoder
    assert (k.legal_mask, k.apply_action, k.apply_joint, k.observe, k.legal_mask_listed) == (
        _noop,
        _noop,
        None,
        _noop,
        _noop,
    )
    assert not k.simultaneous
    assert (k.to_move_at, k.turn_at, k.over_at, k.truncated_at, k.winner_at) == (0, 1, 2, 3, 4)
    assert (k.num_actions, k.state_size, k.obs_channels, k.legal_list, k.writes_uint8) == (4, 8, 3, 5, True)
    plain = game_kernels(_rules(apply_action=None, apply_joint=_noop), _observe(OBS_CHANNELS=None))
    assert plain.simultaneous and plain.apply_action is None and plain.apply_joint is _noop
    assert plain.legal_mask_listed is None and plain.legal_list == 1 + 4  # room for every action, count first
    assert plain.obs_channels is None and not plain.writes_uint8


def test_a_missing_kernel_or_constant_is_refused_naming_every_one_and_the_module():
    message = _refused(_rules(legal_mask=None, WINNER=None), _observe())
    assert "fake_game.rules" in message
    assert re.search(r"missing legal_mask, WINNER\b", message)
    message = _refused(_rules(apply_action=None), _observe(observe=None))
    assert "apply_action" in message and "apply_joint" in message
    assert "fake_game.observe" in message and "missing observe" in message


def test_a_misnamed_kernel_or_constant_is_refused_with_the_name_it_looks_like():
    message = _refused(_rules(legal_mask=None, legal_masks=_noop, TO_MOVE=None, TOMOVE=0), _observe())
    assert "legal_mask (did you mean legal_masks?)" in message
    assert "TO_MOVE (did you mean TOMOVE?)" in message
    message = _refused(_rules(apply_action=None, apply_actions=_noop), _observe())
    assert "did you mean apply_actions?" in message


def test_a_mistyped_kernel_or_constant_is_refused():
    message = _refused(_rules(is_over=3, NUM_ACTIONS=4.0, TURN=True), _observe(OBS_CHANNELS="3"))
    assert "is_over is not callable" in message
    assert "NUM_ACTIONS is 4.0, not an integer" in message and "TURN is True, not an integer" in message
    assert "OBS_CHANNELS is '3', not an integer" in message
    assert "both apply_action and apply_joint" in _refused(_rules(apply_joint=_noop), _observe())


def test_a_kernel_state_is_checked_when_its_class_is_made():
    with pytest.raises(KernelContractError, match="missing returns"):

        class Broken(KernelState, rules=_rules(returns=None), encoder=_observe()):
            __slots__ = ()
            render_module = ""


def test_the_same_object_comes_back_for_the_same_modules_and_namespaces_work():
    rules, encoder = _rules(), _observe()
    assert game_kernels(rules, encoder) is game_kernels(rules, encoder)
    assert game_kernels(rules, encoder) is not game_kernels(_rules(), encoder)
    both = SimpleNamespace(**vars(_rules()), observe=_noop)  # rules that encode their own observations
    assert game_kernels(both) is game_kernels(both, both) and game_kernels(both).encoder is both


def test_the_derived_cache_builds_once_per_key():
    k = game_kernels(_rules(), _observe())
    built = []

    def build(value):
        built.append(value)
        return value

    assert k.derived(("x", 1), lambda: build(object())) is k.derived(("x", 1), lambda: build(object()))
    assert k.derived(("x", 2), lambda: build("two")) == "two"
    assert len(built) == 2


@pytest.mark.parametrize("name", game_names())
def test_every_game_and_every_consumer_share_one_kernels_object(name):
    from boardgames.envs.agents.mcts import MCTSAgent
    from boardgames.envs.compiled.turns import compiled_kernels, joint_kernels, turn_kernels
    from boardgames.envs.search import MCTS
    from boardgames.envs.vector import BatchedGames, LearnerBatch
    from boardgames.envs.vector.loops import batch_loops

    game = make_game(name)
    state = game.new_initial_state()
    k = kernels_of(game)
    assert type(state).kernels is k and game.kernels is k and compiled_kernels(game) is k
    assert kernels_of(make_game(name)) is k  # another game object, the same modules
    assert k.name == type(state).rules.__name__
    batch = BatchedGames(game, 4, seed=0, threads=False)
    assert batch.k is batch_loops(k, game.info.acting_seats, game.info.observation_shape)  # from k's cache
    learner = LearnerBatch(game, 4, seed=0, threads=False)
    assert learner._kernels is k
    search = MCTS(game)
    assert search.kernels is k and MCTS(game).loops is search.loops  # compiled once
    agent = MCTSAgent(simulations=2, seed=0)
    assert agent._search(game).kernels is k
    per_turn = joint_kernels(state) if game.info.acting_seats > 1 else turn_kernels(state)
    assert per_turn.compiled and per_turn is (joint_kernels if game.info.acting_seats > 1 else turn_kernels)(
        make_game(name).new_initial_state()
    )
    assert len(k._derived) >= 3  # the batch's loops, the learner batch's, the search, the per-turn kernels


def test_the_alphazero_evaluator_takes_the_games_kernels():
    torch = pytest.importorskip("torch")
    from boardgames.training.alphazero.evaluator import NetworkEvaluator

    game = make_game("olix")
    evaluator = NetworkEvaluator(game, torch.nn.Identity())
    assert evaluator.kernels is kernels_of(game)
    state = game.new_initial_state()
    obs, masks = evaluator.observe(state.data[None], np.array([0]), np.array([0]))
    assert np.array_equal(obs[0], state.observation(0)) and np.array_equal(masks[0], state.legal_mask(0))


def test_a_game_without_kernels_is_refused_by_name():
    plain = SimpleNamespace(info=SimpleNamespace(name="plain"), new_initial_state=object)  # states: no kernels
    with pytest.raises(TypeError, match="plain: batching needs a KernelState game"):
        kernels_of(plain, "batching")
