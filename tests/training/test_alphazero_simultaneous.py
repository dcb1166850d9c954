"""AlphaZero for the simultaneous game (issue 47): under ``rule="regret"`` self-play's policy targets are the
search's average strategies at the root and its orders are drawn from them; the agent plays a mixed strategy;
a model records its rule; a tiny training run on Barc completes."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from helpers.runs import as_flags, tiny_sets

from boardgames.envs.registry import make_game
from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.agent import AlphaZeroAgent, load_agent
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.network import AlphaZeroNet, save_network
from boardgames.training.alphazero.selfplay import SearchSettings, SelfPlayer
from boardgames.training.alphazero.settings import make_settings
from boardgames.training.alphazero.train import load_settings
from boardgames.training.settings import SettingError
from boardgames.training.storage.model_version import version_record

BARC = make_game("barc")
SAVED = {"game": "barc", "options": {}, **version_record(BARC)}


def small_net(game):
    torch.manual_seed(0)
    i = game.info
    return AlphaZeroNet(i.observation_shape, i.num_actions, i.num_seats, channels=4, blocks=1, value_hidden=4).eval()


def test_self_play_targets_are_the_searchs_average_strategies_and_orders_drawn_from_them():
    player = SelfPlayer(BARC, NetworkEvaluator(BARC, small_net(BARC)), 1, SearchSettings(simulations=16, rule="regret"))
    results, run = [], player.search.run

    def recording(*args, **kwargs):
        results.append(run(*args, **kwargs))
        return results[-1]

    player.search.run = recording
    decisions = []
    step = type(player.slots[0]).apply_actions

    def noting(state, actions, check=True):
        decisions.append(dict(actions))
        return step(state, actions, check)

    type(player.slots[0]).apply_actions = noting
    try:
        batch = player.play(1, np.random.default_rng(0))
    finally:
        type(player.slots[0]).apply_actions = step
    turns = batch.lengths[0]
    assert batch.obs.shape[0] == 2 * turns and batch.seats.tolist() == [0, 1] * turns
    for t in range(turns):
        strategies = results[t].strategies[0]
        assert results[t].strategies is not None
        for k in (0, 1):
            expected = strategies[k] / strategies[k].sum()
            assert np.allclose(batch.policies[2 * t + k], expected, atol=1e-6)
            assert expected[decisions[t][k]] > 0  # the order played is in the strategy's support
            counts = results[t].counts[0, k]
            assert not np.allclose(expected, counts / counts.sum())  # not the visit shares


def test_the_agent_samples_its_order_from_the_average_strategy():
    agent = AlphaZeroAgent(BARC, small_net(BARC), simulations=64, rule="regret", gamma=0.3, seed=0)
    start = BARC.new_initial_state()
    orders = set()
    for _ in range(12):
        order = agent.act(start, 0)
        assert agent.last_strategy[order] > 0 and agent.last_strategy.sum() == pytest.approx(1.0)
        orders.add(order)
    assert len(orders) > 1  # a mixed strategy: not one order every time
    puct = AlphaZeroAgent(BARC, small_net(BARC), simulations=64, seed=0)
    assert puct.search.rule == "puct" and agent.search.rule == "regret" and agent.search.c == 0.3


def test_the_agent_draws_from_the_average_strategy_at_its_temperature():
    start = BARC.new_initial_state()
    plain = AlphaZeroAgent(BARC, small_net(BARC), simulations=64, rule="regret", seed=0)
    sharp = AlphaZeroAgent(BARC, small_net(BARC), simulations=64, rule="regret", seed=0, temperature=0.5)
    plain.act(start, 0)
    sharp.act(start, 0)  # the same seed: the same search, so the same average strategy
    average = plain.last_strategy
    squared = average**2 / (average**2).sum()  # temperature 1/2: each weight squared, renormalised
    assert np.allclose(sharp.last_strategy, squared)
    assert set(np.flatnonzero(sharp.last_strategy)) == set(np.flatnonzero(average))  # still mixed
    shares = sharp.explain(start, 0)  # what explain reports is the strategy the order is drawn from
    assert np.allclose([shares[a] for a in np.flatnonzero(squared)], squared[squared > 0])
    with pytest.raises(ValueError, match=r"temperature must be in \(0, 1\]"):
        AlphaZeroAgent(BARC, small_net(BARC), rule="regret", temperature=0.0)


def test_a_model_records_its_rule_and_bad_rules_are_refused(tmp_path):
    save_network(small_net(BARC), tmp_path / "m", **SAVED, rule="regret", gamma=0.2)
    agent = load_agent(str(tmp_path / "m"), BARC)
    assert agent.search.rule == "regret" and agent.search.c == 0.2 and agent.temperature == 1.0
    save_network(small_net(BARC), tmp_path / "t", **SAVED, rule="regret", gamma=0.2, temperature=0.33)
    assert load_agent(str(tmp_path / "t"), BARC).temperature == 0.33
    save_network(small_net(BARC), tmp_path / "hot", **SAVED, rule="regret", temperature=2.0)
    with pytest.raises(ValueError, match=r"temperature must be a number in \(0, 1\]"):
        load_agent(str(tmp_path / "hot"), BARC)
    save_network(small_net(BARC), tmp_path / "bad", **SAVED, rule="uct")
    with pytest.raises(ValueError, match="rule is one of puct, regret, exp3"):
        load_agent(str(tmp_path / "bad"), BARC)
    with pytest.raises(SettingError, match="alphazero.rule"):
        make_settings({"rule": "minimax"})
    with pytest.raises(SettingError, match="alphazero.gamma"):
        make_settings({"gamma": 0.0})
    with pytest.raises(SettingError, match="alphazero.play_temperature"):
        make_settings({"play_temperature": 1.5})
    dorix = make_game("dorix", num_players=2)
    with pytest.raises(ValueError, match="seats act at once"):
        AlphaZeroAgent(dorix, small_net(dorix), rule="regret")


def test_a_tiny_regret_training_run_on_barc_completes(tmp_path):
    run = tmp_path / "run"
    sets = as_flags(tiny_sets(rule="regret", eval_opponents="['greedy']"))
    sets += ["--set", "alphazero.play_temperature=0.5"]
    main(["--game", "barc", "--run-dir", str(run), "--iterations", "2", "--no-progress", *sets])
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 2 and info["settings"]["rule"] == "regret"
    assert load_settings("barc", {}, {"rule": "regret"}).rule == "regret"
    meta = json.loads((run / "latest" / "alphazero.json").read_text())
    assert meta["rule"] == "regret" and meta["gamma"] == 0.3 and meta["temperature"] == 0.5
    agent = load_agent(str(run / "latest"), BARC)
    assert agent.search.rule == "regret" and agent.temperature == 0.5


def test_the_card_of_a_simultaneous_model_gives_its_exploitability(tmp_path):
    from boardgames.training.alphazero.card import exploitability_section
    from boardgames.training.evaluation.exploit import POSITIONS

    save_network(small_net(BARC), tmp_path / "m", **SAVED, rule="regret", simulations=8)
    lines = exploitability_section(BARC, str(tmp_path / "m"), 0, 5)
    text = "\n".join(lines)
    assert lines[0] == "## Exploitability (docs/search.md)" and "(a)" not in text  # no games: (b) only
    rows = [line for line in lines if "South" in line and "North" in line]
    assert len(rows) == len(POSITIONS)
    values = [float(v) for row in rows for v in row.split()[2::2]]  # "name South e0 North e1"
    mean = float(next(line for line in lines if line.strip().startswith("mean")).split()[1])
    assert all(0.0 <= v <= 2.0 for v in values) and mean == pytest.approx(np.mean(values), abs=1e-3)
    assert f"boardgames exploit --agent {tmp_path / 'm'} --parts fixed --seed 5" in text
