"""Baseline agents: legal moves on every game, the greedy and MCTS agents take an immediate win."""

import numpy as np
import pytest

from boardgames.envs.agents import GreedyAgent, MCTSAgent, RandomAgent
from boardgames.envs.agents.play import decide
from boardgames.envs.registry import game_names, make_game
from boardgames.training.agent_kinds import make_agent
from boardgames.training.evaluation.evaluate import play_match, wilson_interval

# seat 1 to move tops a1, b2, c3 of the a1-d4 diagonal: d4 wins at once.
WIN_IN_ONE = "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.0.- hands=13,12 move=1 turn=5"


@pytest.mark.parametrize("agent", [GreedyAgent(seed=0), MCTSAgent(simulations=200, seed=0)], ids=["greedy", "mcts"])
def test_agents_take_an_immediate_win(agent):
    state = make_game("dorix", num_players=2).from_text(WIN_IN_ONE)
    before = state.clone()
    assert state.action_to_text(agent.act(state, 1)) == "d4"
    assert state == before  # agents never modify the state they are given


@pytest.mark.parametrize("name", game_names())
def test_every_agent_plays_legal_moves_on_every_game(name):
    game = make_game(name)
    for spec in ("random", "greedy", "mcts:8"):
        agent = make_agent(spec, game, seed=1)
        state = game.new_initial_state()
        for _ in range(6):
            if state.is_terminal():
                break
            state.apply_actions(decide(state, [agent] * game.info.num_seats))  # checked: raises if illegal


def test_greedy_beats_random_at_dorix():
    game = make_game("dorix", num_players=2)
    result = play_match(game, GreedyAgent(game), RandomAgent(), games=20, seed=0)
    assert result.win_rate >= 0.8


def test_wilson_interval():
    lo, hi = wilson_interval(95, 100)
    assert 0.88 < lo < 0.9 and 0.97 < hi < 0.99
    assert wilson_interval(0, 10)[0] == 0.0
    assert np.isclose(sum(wilson_interval(5, 10)), 1.0)


def test_decoupled_uct_and_greedy_on_a_simultaneous_game():
    from training_duel_game import DuelGame

    game = DuelGame()
    state = game.new_initial_state()
    assert MCTSAgent(simulations=300, seed=0).act(state, 0) == 2  # the dominant choice
    assert MCTSAgent(simulations=300, seed=1).act(state, 1) == 2
    assert GreedyAgent(game, seed=0).act(state, 1) in (0, 1, 2)
    result = play_match(game, MCTSAgent(simulations=100), RandomAgent(), games=10, seed=0)
    assert result.losses == 0
