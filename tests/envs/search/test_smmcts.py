"""Simultaneous-move search: regret matching and Exp3 (boardgames.envs.compiled.regret) on matrix games whose
equilibria are known by hand, the LP solver of the exploitability measures on the same games, and the
compiled and Python searches on a Barc position where only one of North's orders avoids losing at once."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.agents import PythonSMMCTSAgent, SMMCTSAgent, make_baseline_agent
from boardgames.envs.compiled.regret import on_policy_ratio, sample_action, update, update_estimated
from boardgames.envs.compiled.tree_layout import PARENT, RULE_EXP3
from boardgames.envs.registry import make_game
from boardgames.envs.search import MCTS
from boardgames.training.evaluation.matrix_games import exploitability, solve

PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])
RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
# hand-solved: x = (3/7, 4/7), y = (2/7, 5/7), value 1/21 (each side makes the other indifferent)
SKEWED = np.array([[3.0, -1.0], [-2.0, 1.0]]) / 3

# North (seat 1) to order; 28 of its 29 orders let some South order align at once: only e2-d2 does not
ONE_SAFE = "barc -.1.01.-.0.1/-.-.-.-.-.-/-.0.-.-.-.-/-.-.0.-.-.-/0.-.-.-.1.-/-.1.-.10.-.- turn=6 last=d2-c3,c5-c6"


def _self_play(payoff: np.ndarray, rule: int, steps: int, gamma: float, seed: int = 0) -> tuple:
    """Both seats of a matrix game learn by the rule against each other; their average strategies."""
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    stats = [np.zeros(m), np.zeros(n)]
    sums = [np.zeros(m), np.zeros(n)]
    priors = [np.full(m, 1.0 / m), np.full(n, 1.0 / n)]
    for step in range(steps):
        picks = [sample_action(stats[s], priors[s], rule, gamma, rng.random()) for s in (0, 1)]
        rewards = [payoff[:, picks[1]], -payoff[picks[0], :]]  # each seat's reward for each of its actions
        ratios = [on_policy_ratio(stats[s], priors[s], picks[s], gamma) for s in (0, 1)]
        for s in (0, 1):
            if rule == RULE_EXP3:
                update(stats[s], priors[s], sums[s], picks[s], rewards[s][picks[s]], rule, gamma)
            else:
                update_estimated(stats[s], priors[s], sums[s], rewards[s], gamma, ratios[1 - s], step + 1.0)
    return sums[0] / sums[0].sum(), sums[1] / sums[1].sum()


@pytest.mark.parametrize("payoff", [PENNIES, RPS, SKEWED], ids=["pennies", "rps", "skewed"])
def test_regret_matching_converges_to_the_equilibrium(payoff):
    from boardgames.envs.compiled.tree_layout import RULE_REGRET

    x, y = _self_play(payoff, RULE_REGRET, 20000, 0.3)
    assert exploitability(payoff, x, 0) < 0.03
    assert exploitability(payoff, y, 1) < 0.03
    if payoff is SKEWED:
        assert np.allclose(x, [3 / 7, 4 / 7], atol=0.03) and np.allclose(y, [2 / 7, 5 / 7], atol=0.03)
    else:
        assert np.allclose(x, 1 / len(x), atol=0.03) and np.allclose(y, 1 / len(y), atol=0.03)


def test_exp3_on_sampled_rewards_approaches_the_equilibrium():
    x, y = _self_play(RPS, RULE_EXP3, 40000, 0.1)
    assert np.allclose(x, 1 / 3, atol=0.1) and np.allclose(y, 1 / 3, atol=0.1)


def test_the_lp_solver_on_hand_solved_games():
    value, x, y = solve(PENNIES)
    assert value == pytest.approx(0.0, abs=1e-9) and np.allclose(x, 0.5) and np.allclose(y, 0.5)
    value, x, y = solve(RPS)
    assert value == pytest.approx(0.0, abs=1e-9) and np.allclose(x, 1 / 3) and np.allclose(y, 1 / 3)
    value, x, y = solve(SKEWED)
    assert value == pytest.approx(1 / 21) and np.allclose(x, [3 / 7, 4 / 7]) and np.allclose(y, [2 / 7, 5 / 7])
    assert exploitability(PENNIES, np.array([1.0, 0.0]), 0) == pytest.approx(1.0)  # a pure strategy loses 1
    assert exploitability(RPS, np.array([0.0, 1.0, 0.0]), 1) == pytest.approx(1.0)
    assert exploitability(SKEWED, np.array([3 / 7, 4 / 7]), 0) == pytest.approx(0.0, abs=1e-9)


def _safe_weight(strategies) -> float:
    state = make_game("barc").from_text(ONE_SAFE)
    return float(strategies[1][state.text_to_action("e2-d2", 1)])


def test_the_compiled_search_puts_almost_all_weight_on_the_one_safe_order():
    game = make_game("barc")
    state = game.from_text(ONE_SAFE)
    mask = state.legal_mask(1)
    assert mask.sum() == 29
    weights = [_safe_weight(SMMCTSAgent(6400).strategies(state, seed=seed)) for seed in range(4)]
    # not 1: with leaf values the safe order is no pure equilibrium (the one-turn LP with heuristic leaf
    # values puts 0.66 on it); decoupled UCT's average strategy is not defined, its visits give it 3%
    assert np.mean(weights) > 0.75 and min(weights) > 0.6, weights
    root = MCTS(game, c=0.3, rule="regret").run(state, 6400, seed=0).strategies[0, 1]
    assert root[~mask].sum() == 0 and root.sum() == pytest.approx(1.0)


def test_compiled_and_python_simultaneous_search_agree_on_barc():
    """The same rule, different random streams: the mean average strategies of North over a few searches of
    each are close (total variation), both mostly on the safe order."""
    state = make_game("barc").from_text(ONE_SAFE)
    compiled = np.mean([SMMCTSAgent(1600).strategies(state, seed=s)[1] for s in range(4)], axis=0)
    python = np.mean([PythonSMMCTSAgent(1600, seed=s).strategies(state)[1] for s in range(4)], axis=0)
    assert _safe_weight({1: compiled}) > 0.5 and _safe_weight({1: python}) > 0.5
    assert 0.5 * np.abs(compiled - python).sum() < 0.25


def test_the_agent_samples_its_order_and_is_deterministic_given_its_seed():
    state = make_game("barc").new_initial_state()
    plays = [SMMCTSAgent(400, seed=seed).act(state, 0) for seed in range(12)]
    assert len(set(plays)) > 3  # a mixed strategy at the start, sampled
    assert plays == [SMMCTSAgent(400, seed=seed).act(state, 0) for seed in range(12)]
    most = SMMCTSAgent(400, most_likely=True, seed=1)
    assert most.act(state, 0) == int(np.argmax(most.last_strategy))


def test_specs_and_refusals():
    agent = make_baseline_agent("smmcts:300:exp3:heuristic:max:g0.2")
    assert (agent.simulations, agent.rule, agent.leaf, agent.most_likely, agent.gamma) == (
        300,
        "exp3",
        "heuristic",
        True,
        0.2,
    )
    assert make_baseline_agent("pysmmcts:50").rule == "regret"
    assert make_baseline_agent("smmcts:50:t0.25").temperature == 0.25
    assert make_baseline_agent("smmcts:50").temperature == 1.0
    bad_specs = ("smmcts:0", "smmcts:10:fast", "smmcts:10:g2", "mcts:10:exp3", "pysmmcts:10:heuristic")
    for bad in bad_specs + ("smmcts:10:t0", "smmcts:10:t1.5", "smmcts:10:tx"):
        with pytest.raises(ValueError):
            make_baseline_agent(bad)
    dorix = make_game("dorix", num_players=2)
    with pytest.raises(ValueError, match="at once"):
        MCTS(dorix, c=0.3, rule="regret")
    with pytest.raises(ValueError, match="at once"):
        SMMCTSAgent(10).act(dorix.new_initial_state(), 0)


def test_one_turn_matrix_of_the_one_safe_position():
    """With every running position valued 0, the one-turn game's LP solution is North's one safe order."""
    from boardgames.training.evaluation.matrix_games import one_turn_matrix, subgame_matrix

    state = make_game("barc").from_text(ONE_SAFE)
    zero = lambda states: np.zeros(len(states))  # noqa: E731
    a, rows, cols = one_turn_matrix(state, zero)
    assert a.shape == (len(rows), 29) and set(np.unique(a)) <= {-1.0, 0.0, 1.0}
    value, _, y = solve(a)
    assert value == pytest.approx(0.0, abs=1e-9)
    assert state.action_to_text(int(cols[np.argmax(y)]), 1) == "e2-d2" and y.max() == pytest.approx(1.0)
    same, _, _, exact = subgame_matrix(state, zero, 1)
    assert np.array_equal(same, a) and not exact


def _plain_score(state, seat: int) -> float:
    """The greedy heuristic's score written out plainly over the lines of three (the compiled kernel's
    reference): stacks topped, own minus the other's, then per line 0.1 x (own tops)^2 where the other
    tops none of it, minus the same for the other."""
    from boardgames.envs.barc.heuristic import LINES

    owners = [state.owner(sq) for sq in range(36)]
    score = 1.0 * (owners.count(seat) - owners.count(1 - seat))
    for line in LINES:
        mine = sum(owners[sq] == seat for sq in line)
        theirs = sum(owners[sq] == 1 - seat for sq in line)
        score += 0.1 * mine**2 if theirs == 0 else 0.0
        score -= 0.1 * theirs**2 if mine == 0 else 0.0
    return score


def test_the_compiled_leaf_values_are_the_heuristics_tanh_over_random_games():
    from boardgames.envs.barc import rules as R

    game = make_game("barc")
    rng = np.random.default_rng(5)
    out = np.zeros(2)
    compared = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            R.leaf_values(state.data, out)
            for seat in (0, 1):
                assert game.heuristic(state, seat) == pytest.approx(_plain_score(state, seat), abs=1e-12)
                assert out[seat] == pytest.approx(np.tanh(_plain_score(state, seat) / 2.0), abs=1e-12)
            compared += 1
            state.apply_actions([int(rng.choice(np.flatnonzero(state.legal_mask(k)))) for k in (0, 1)])
    assert compared > 100


def test_a_search_cut_at_its_leaves_backs_up_their_values():
    """Every simulation of UCT with ``rollout_limit=0`` and leaf values adds one child of the root and backs
    up its value: the root's mean value is the mean of its children's values (returns where a child ends
    the game, else tanh(score / 2) of the plain score)."""
    game = make_game("barc")
    state = game.from_text(ONE_SAFE)
    search = MCTS(game, rollout_limit=0, leaf_values=True)
    result = search.run(state, 6, seed=3)
    tree = search._tree
    children = [game.state_class(game, tree.states[0, node].copy()) for node in range(1, 7)]
    expected = [
        c.returns() if c.is_terminal() else [np.tanh(_plain_score(c, s) / 2.0) for s in (0, 1)] for c in children
    ]
    assert (tree.nodes[0, 1:7, PARENT] == 0).all()  # six nodes, all children of the root
    assert np.allclose(result.values[0], np.mean(expected, axis=0))


def test_leaf_values_need_a_kernel_and_a_cut():
    with pytest.raises(ValueError, match="no leaf_values"):
        MCTS(make_game("dorix", num_players=2), rollout_limit=0, leaf_values=True)
    with pytest.raises(ValueError, match="rollout_limit"):
        MCTS(make_game("barc"), leaf_values=True)


def test_heuristic_leaves_run_in_the_compiled_loop():
    """``smmcts:N:heuristic`` on Barc runs the rollout search cut at every leaf, valued by the rules' kernel,
    and still finds North's one safe order."""
    from boardgames.envs.agents.smmcts import heuristic_evaluator

    agent = SMMCTSAgent(3200, leaf="heuristic")
    state = make_game("barc").from_text(ONE_SAFE)
    weights = [_safe_weight(agent.strategies(state, seed=seed)) for seed in range(3)]
    assert isinstance(agent.search(state.game), MCTS) and agent.search(state.game).leaf_values
    assert np.mean(weights) > 0.5, weights
    slow = SMMCTSAgent(3200, leaf=heuristic_evaluator(state.game, scale=2.0001))
    assert not isinstance(slow.search(state.game), MCTS)  # another scale: the Python evaluator


def test_the_temperature_sharpens_the_strategy_it_samples_from():
    from boardgames.envs.agents.smmcts import sharpened

    # by hand: 0.5^2, 0.3^2, 0.2^2 = 0.25, 0.09, 0.04, over their sum 0.38
    assert np.allclose(sharpened(np.array([0.5, 0.3, 0.2, 0.0]), 0.5), [0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38, 0.0])
    flat = np.array([0.2, 0.8])
    assert sharpened(flat, 1.0) is flat
    state = make_game("barc").new_initial_state()
    agent = SMMCTSAgent(400, temperature=0.5, seed=3)
    order = agent.act(state, 0)
    average = SMMCTSAgent(400, seed=3).strategies(state, seed=np.random.default_rng(3).integers(2**63))[0]
    assert np.allclose(agent.last_strategy, sharpened(average, 0.5)) and agent.last_strategy[order] > 0
