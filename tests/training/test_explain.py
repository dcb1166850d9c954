"""The agents' optional ``explain(state, seat) -> {action: share}`` (what the browser page shows as the
agent's thinking): shares of legal actions summing to 1, the move played among the largest (for an agent that
draws its move from a mixed strategy, one the strategy gives weight to), and asking never changes the moves an
agent plays."""

from __future__ import annotations

import pytest

from boardgames.envs.agents.play import play_game
from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import make_agent


def _check_shares(shares: dict, state, seat) -> None:
    assert shares and abs(sum(shares.values()) - 1) < 1e-6
    legal = state.legal_mask(seat)
    assert all(legal[a] and 0 <= s <= 1 for a, s in shares.items())


def _moves(agent, game, explain: bool, turns: int = 6) -> list:
    moves = []
    state = game.new_initial_state()
    for _ in range(turns):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        action = agent(state, seat)
        if explain:
            shares = agent.explain(state, seat)
            _check_shares(shares, state, seat)
            if getattr(agent, "mixed", False):  # drawn from a mixed strategy: any order it gives weight to
                assert shares.get(action, 0.0) > 0, "the move played is outside the strategy it was drawn from"
            else:
                assert shares[action] == max(shares.values()), "the move played is not among the most visited/probable"
        moves.append(action)
        state.apply_actions(
            {s: (action if s == seat else int(state.legal_actions(s)[0])) for s in state.current_seats()}
        )
    return moves


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("mcts:60", "dorix"),
        ("mcts:60", "barc"),
        ("models/dorix_2p", "dorix"),
        ("rllib:models/rllib_barc", "barc"),
        ("models/barc_az@16", "barc"),
    ],
)
def test_explaining_shows_the_choice_and_never_changes_the_moves(spec, name):
    game = make_game(name)
    with_explain = _moves(make_agent(spec, game, seed=5), game, explain=True)
    assert with_explain == _moves(make_agent(spec, game, seed=5), game, explain=False)


@pytest.mark.parametrize("spec", ["mcts:40", "models/barc_az@8"])
def test_explaining_an_unsearched_position_leaves_the_generator_alone(spec):
    game = make_game("barc")
    agent = make_agent(spec, game, seed=1)
    state = play_game(game, [make_agent("random", game, seed=0)] * 2, until=lambda s: s.turn >= 3)
    before = agent.rng.bit_generator.state
    _check_shares(agent.explain(state, 1), state, 1)
    assert agent.rng.bit_generator.state == before


def test_random_and_greedy_do_not_explain():
    game = make_game("olix")
    for spec in ("random", "greedy"):
        assert not hasattr(make_agent(spec, game), "explain")
