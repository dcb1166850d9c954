"""``alphazero.start_from``: a fresh run that starts from a trained network's weights (to train a shipped
agent further), what it refuses, and what the run's files say of it."""

from __future__ import annotations

import json

import pytest
import torch
from helpers.runs import as_flags, tiny_sets

from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.network import load_network
from boardgames.training.settings import SettingError


def _train(run, iterations: int, *extra: str, resume: bool = False, game=("dorix", "2")) -> None:
    args = ["--game", game[0], *(["--players", game[1]] if game[1] else []), "--run-dir", str(run)]
    args += ["--iterations", str(iterations), "--no-progress", *(["--resume"] if resume else [])]
    main([*args, *as_flags(tiny_sets(evaluation=False, eval_every=0)), *extra])


def _weights(folder) -> dict:
    return load_network(folder)[0].state_dict()


def test_a_run_starts_from_the_networks_weights_and_says_so(tmp_path, capsys):
    _train(tmp_path / "first", 1, "--seed", "1")
    start = tmp_path / "first" / "latest"
    # no gradient step: the run's network must stay the starting one, weight for weight
    _train(tmp_path / "second", 1, "--seed", "2", "--set", f"alphazero.start_from={start}", "--set",
           "alphazero.train_steps=0")  # fmt: skip
    assert f"starting from the network of {start} (1 iterations)" in capsys.readouterr().out
    before, after = _weights(start), _weights(tmp_path / "second" / "latest")
    assert all(torch.equal(before[k], after[k]) for k in before)
    # the same run without start_from: another seed gives other weights (the check above can fail)
    _train(tmp_path / "third", 1, "--seed", "2", "--set", "alphazero.train_steps=0")
    fresh = _weights(tmp_path / "third" / "latest")
    assert not all(torch.equal(before[k], fresh[k]) for k in before)
    info = json.loads((tmp_path / "second" / "run.json").read_text())
    assert info["started_from"]["folder"] == str(start) and info["started_from"]["iterations"] == 1
    assert len(info["started_from"]["weights_sha256"]) == 64


def test_a_resumed_run_does_not_load_the_start_again(tmp_path, capsys):
    _train(tmp_path / "first", 1)
    start = tmp_path / "first" / "latest"
    _train(tmp_path / "run", 1, "--set", f"alphazero.start_from={start}")
    recorded = json.loads((tmp_path / "run" / "run.json").read_text())["started_from"]
    capsys.readouterr()
    _train(tmp_path / "run", 2, "--set", f"alphazero.start_from={start}", resume=True)
    assert "starting from" not in capsys.readouterr().out
    assert json.loads((tmp_path / "run" / "run.json").read_text())["started_from"] == recorded


def test_start_from_refuses_another_network_or_game(tmp_path):
    _train(tmp_path / "first", 1)
    start = tmp_path / "first" / "latest"
    with pytest.raises(SettingError, match=r"has another network \(channels=4\)"):
        _train(tmp_path / "wide", 1, "--set", f"alphazero.start_from={start}", "--set", "alphazero.channels=6")
    with pytest.raises(
        SettingError, match=r"is a network of dorix \{'num_players': 2\}, not dorix \{'num_players': 3\}"
    ):
        _train(tmp_path / "three", 1, "--set", f"alphazero.start_from={start}", game=("dorix", "3"))
    with pytest.raises(ValueError, match="is not an AlphaZero network"):
        _train(tmp_path / "none", 1, "--set", f"alphazero.start_from={tmp_path / 'first'}")


def test_the_card_says_where_the_run_started_and_who_played():
    from boardgames.training.alphazero.card import header_rows
    from boardgames.training.alphazero.settings import make_settings

    run = {
        "command": "boardgames alphazero --game dorix --players 2",
        "iterations": 60,
        "samples_added": 900,
        "wall_seconds": 3600,
        "settings": make_settings({"iterations": 60}).as_dict(),
        "started_from": {"folder": "models/dorix_2p_az", "iterations": 108, "weights_sha256": "0" * 64},
        "actors": {"count": 2, "nodes": 1},
    }
    text = "\n".join(header_rows(run, 400, "models/dorix_2p_az"))
    assert "| starts from | the network of `models/dorix_2p_az` (108 iterations of its own run) |" in text
    assert "| iterations | 60 (900 positions of self-play) |" in text
    assert "no GPU; 2 Ray self-play actors on 1 node(s) and the learner (last command) |" in text
    run.update(started_from=None, actors=None)
    text = "\n".join(header_rows(run, 400, "models/dorix_2p_az"))
    assert "starts from" not in text and "no GPU; self-play and learner in one process |" in text


def test_learn_after_plays_without_learning_until_the_buffer_holds_enough(tmp_path):
    _train(tmp_path / "first", 1, "--seed", "1")
    start = tmp_path / "first" / "latest"
    # one tiny iteration adds a few dozen samples: 10**6 is never reached, so no step is ever taken
    _train(tmp_path / "wait", 2, "--seed", "2", "--set", f"alphazero.start_from={start}", "--set",
           "alphazero.learn_after=1000000")  # fmt: skip
    before, after = _weights(start), _weights(tmp_path / "wait" / "latest")
    assert all(torch.equal(before[k], after[k]) for k in before)
    # a threshold the first iteration's samples just reach (the same seed plays the same games): the run
    # learns from the first iteration on
    _train(tmp_path / "one", 1, "--seed", "2", "--set", f"alphazero.start_from={start}", "--set",
           "alphazero.learn_after=1000000")  # fmt: skip
    samples = json.loads((tmp_path / "one" / "run.json").read_text())["samples_added"]
    assert samples > 0
    _train(tmp_path / "learn", 1, "--seed", "2", "--set", f"alphazero.start_from={start}", "--set",
           f"alphazero.learn_after={samples}")  # fmt: skip
    learnt = _weights(tmp_path / "learn" / "latest")
    assert not all(torch.equal(before[k], learnt[k]) for k in before)
    # one sample more than that: no step again
    _train(tmp_path / "short", 1, "--seed", "2", "--set", f"alphazero.start_from={start}", "--set",
           f"alphazero.learn_after={samples + 1}")  # fmt: skip
    short = _weights(tmp_path / "short" / "latest")
    assert all(torch.equal(before[k], short[k]) for k in before)
