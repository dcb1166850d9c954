"""``alphazero.device``: which device the learner's network and its leaf evaluation use (cpu by default,
``auto`` the GPU when torch sees one, else the CPU, ``cuda`` refused with a message where there is none),
recorded in run.json and the saved network; on a machine with a GPU, a short run on it."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from helpers.runs import as_flags, as_table, tiny_sets

from boardgames.envs.registry import make_game
from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.learner import resolve_device
from boardgames.training.alphazero.network import load_network
from boardgames.training.alphazero.settings import make_settings
from boardgames.training.alphazero.train import AlphaZeroRun, load_settings
from boardgames.training.settings import SettingError

TINY = tiny_sets(evaluation=False, eval_every=0)
DORIX = {"num_players": 2}


def _settings(**extra):
    return load_settings("dorix", DORIX, as_table(TINY) | extra)


def test_device_names_resolve_and_auto_falls_back_to_the_cpu(monkeypatch):
    assert resolve_device("cpu") == torch.device("cpu")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device("auto") == torch.device("cpu")
    with pytest.raises(SettingError, match="alphazero.device=cuda: torch sees no CUDA device"):
        resolve_device("cuda")
    with pytest.raises(SettingError, match="alphazero.device=cuda:1"):
        resolve_device("cuda:1")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    assert resolve_device("auto") == torch.device("cuda")
    assert resolve_device("cuda:0") == torch.device("cuda", 0)
    with pytest.raises(SettingError, match="1 CUDA device"):
        resolve_device("cuda:1")


def test_device_setting_is_checked_and_cpu_by_default():
    assert make_settings({}).device == "cpu"
    for good in ("cpu", "cuda", "cuda:0", "auto"):
        assert make_settings({"device": good}).device == good
    for bad in ("gpu", "tpu", "cuda:", 0, "CPU"):
        with pytest.raises(SettingError, match="alphazero.device is 'cpu', 'cuda'"):
            make_settings({"device": bad})


def test_cuda_asked_for_where_there_is_none_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    args = ["--game", "dorix", "--players", "2", "--run-dir", str(tmp_path / "run"), "--no-progress"]
    with pytest.raises(SystemExit) as e:
        main([*args, *as_flags([*TINY, "alphazero.device=cuda"])])
    assert e.value.code == 2
    assert "alphazero.device=cuda: torch sees no CUDA device" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_device_used_is_recorded(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    run = AlphaZeroRun("dorix", DORIX, _settings(device="auto"), tmp_path / "run")
    assert run.device == torch.device("cpu") and run.learner.device == run.evaluator.device == torch.device("cpu")
    run.write_run_json(["--set", "alphazero.device=auto"])
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["device"] == "cpu" and info["settings"]["device"] == "auto" and info["actors"] is None
    _, meta = load_network(run.save_latest())
    assert meta["trained_on_device"] == "cpu"


def test_a_module_without_weights_evaluates_on_the_cpu():
    game = make_game("dorix", **DORIX)
    assert NetworkEvaluator(game, torch.nn.Identity()).device == torch.device("cpu")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")
def test_a_short_run_on_the_gpu_learns_there_and_saves_a_cpu_network(tmp_path):
    settings = _settings(device="cuda", iterations=1)
    run = AlphaZeroRun("dorix", DORIX, settings, tmp_path / "run", seed=1)
    run.run(progress=False, log=lambda line: None, argv=[])
    assert run.iteration == 1 and all(p.is_cuda for p in run.net.parameters())
    assert run.evaluator.device.type == "cuda" and run.learner.device.type == "cuda"
    net, meta = load_network(tmp_path / "run" / "latest")  # loads on a machine without a GPU
    assert meta["trained_on_device"].startswith("cuda") and not any(p.is_cuda for p in net.parameters())
    resumed = AlphaZeroRun("dorix", DORIX, _settings(device="cuda", iterations=2), tmp_path / "run", seed=1)
    resumed.load_checkpoint()
    resumed.run(progress=False, log=lambda line: None, argv=["--resume"])
    assert resumed.iteration == 2 and np.isfinite(resumed.history[-1]["policy_loss"])
