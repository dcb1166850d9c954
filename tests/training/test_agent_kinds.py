"""The registry of agent kinds: each spec is recognised by one kind, in the registered order; an unknown
spec is refused with every kind listed; a kind is registered once."""

from __future__ import annotations

import pytest

from boardgames.envs.agents import Agent, RandomAgent
from boardgames.envs.registry import make_game
from boardgames.training import agent_kinds
from boardgames.training.agent_kinds import AGENT_KINDS, agent_kind_of, make_agent, register_agent_kind


def test_the_kinds_in_the_order_they_are_tried():
    assert list(AGENT_KINDS) == ["baseline", "sample", "alphazero", "rllib", "sb3"]


@pytest.mark.parametrize(
    "spec, kind",
    [
        ("random", "baseline"),
        ("greedy", "baseline"),
        ("mcts", "baseline"),
        ("mcts:7", "baseline"),
        ("pymcts:3", "baseline"),
        ("sample:models/dorix_2p", "sample"),
        ("models/dorix_2p_az", "alphazero"),
        ("dorix_2p_az@5", "alphazero"),
        ("rllib:models/rllib_dorix_2p", "rllib"),
        ("models/dorix_2p", "sb3"),
        ("dorix_2p", "sb3"),
        ("models/dorix_2p/model.zip", "sb3"),
        ("nothing_like_this", None),
        ("sample:", None),
        ("rllib:", None),
    ],
)
def test_each_spec_is_recognised_by_one_kind(spec, kind):
    found = agent_kind_of(spec)
    assert (found.name if found else None) == kind


def test_a_bad_argument_of_a_known_kind_is_refused_by_that_kind():
    with pytest.raises(ValueError, match="positive integer"):
        agent_kind_of("mcts:0")
    with pytest.raises(ValueError, match="after '@' must be a positive integer"):
        agent_kind_of("models/dorix_2p_az@0")


def test_an_unknown_spec_lists_every_kind_and_the_shipped_models():
    with pytest.raises(ValueError) as e:
        make_agent("nothing_like_this", make_game("dorix"))
    message = str(e.value)
    assert message.startswith("unknown agent 'nothing_like_this': use ")
    for kind in AGENT_KINDS.values():
        assert f"{kind.written} ({kind.name})" in message
    assert "models/dorix_2p" in message


def test_agents_and_policies_pass_through():
    agent = RandomAgent(0)
    assert make_agent(agent) is agent

    def policy(state, seat):
        return 0

    assert make_agent(policy) is policy


def test_a_kind_is_registered_once_and_a_new_one_is_tried_last(monkeypatch):
    monkeypatch.setattr(agent_kinds, "AGENT_KINDS", dict(AGENT_KINDS))
    with pytest.raises(ValueError, match="agent kind 'sb3' is already registered"):
        register_agent_kind("sb3", "x", lambda text: True, lambda text, game, seed: None)

    class Fixed(Agent):
        def act(self, state, seat):
            return int(state.legal_actions(seat)[0])

    register_agent_kind("fixed", "fixed", lambda text: text == "fixed", lambda text, game, seed: Fixed(seed))
    assert list(agent_kinds.AGENT_KINDS)[-1] == "fixed"
    assert type(make_agent("fixed")) is Fixed
    assert type(make_agent("random")) is RandomAgent


def test_the_sb3_agents_are_reexported():
    from boardgames.training.sb3 import agent

    for name in ("PolicyAgent", "ModelAgent", "load_model", "model_metadata", "model_path"):
        assert getattr(agent_kinds, name) is getattr(agent, name)
    with pytest.raises(AttributeError):
        agent_kinds.no_such_name  # noqa: B018
