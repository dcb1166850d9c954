"""Real (tiny) RLlib PPO runs through the command ``boardgames rllib``: a turn-based game
and Barc, checkpoint and ``--resume``, the exported policy loaded by ``boardgames.training.evaluation.evaluate`` (plain
torch), and the command's errors for bad input. Skipped where ray is missing (make test runs them in
.venv-rllib). Each run starts a local Ray instance with the driver sampling (0 env runners) or one
env runner, and a few hundred env steps per iteration."""

from __future__ import annotations

import csv
import json
import socket

import pytest
from helpers.runs import evaluate_command, rllib_sets

pytest.importorskip("ray.rllib")

from boardgames.training.evaluation import evaluate  # noqa: E402
from boardgames.training.rllib import train as rllib_train  # noqa: E402

TINY = [
    *rllib_sets(envs_per_runner=2, hidden="[32,32]", snapshot_every=1),
    "--eval-games",
    "2",
    "--eval-every",
    "1",
    "--checkpoint-every",
    "1",
]


def run_json(out):
    return json.loads((out / "run.json").read_text())


@pytest.mark.slow
def test_turn_based_run_checkpoint_resume_and_evaluate(tmp_path, capsys):
    out = tmp_path / "dorix2"
    rllib_train.main(
        ["--game", "dorix", "--players", "2", "--env-runners", "0", "--iterations", "2", "--out", str(out), *TINY]
    )
    printed = capsys.readouterr().out
    assert "iter    1/2" in printed and "iter    2/2" in printed and "vs random" in printed
    assert "snapshot -> snapshot_0" in printed  # the league took its first snapshot after iteration 1
    info = run_json(out)
    assert info["iteration"] == 2 and info["env_steps"] >= 400
    assert (out / "checkpoint").is_dir() and (out / "policy.pt").is_file()
    with open(out / "strength.csv") as f:
        rows = list(csv.DictReader(f))
    assert {(r["iteration"], r["opponent"]) for r in rows} == {(i, o) for i in ("1", "2") for o in ("random", "greedy")}

    # --resume goes on from iteration 2 to 3 with the saved settings, not from the start
    rllib_train.main(["--resume", str(out), "--iterations", "3", "--eval-every", "0"])
    printed = capsys.readouterr().out
    assert "resumed" in printed and "at iteration 2" in printed
    assert "iter    3/3" in printed and "iter    1/" not in printed
    info = run_json(out)
    assert info["iteration"] == 3 and info["settings"]["train_batch"] == 200

    # the exported policy plays in the evaluation table next to the baselines, without ray
    evaluate.main(evaluate_command(tmp_path / "eval", 4, f"rllib:{out}", "random"))
    table = capsys.readouterr().out
    assert f"rllib-{out.name}" in table and "random" in table
    with open(tmp_path / "eval" / "results.csv") as f:
        (row,) = list(csv.DictReader(f))
    assert row["agent_a"] == f"rllib-{out.name}" and int(row["games"]) == 4


@pytest.mark.slow
def test_barc_run_with_one_env_runner(tmp_path, capsys):
    out = tmp_path / "barc"
    rllib_train.main(
        [
            "--game",
            "barc",
            "--env-runners",
            "1",
            "--iterations",
            "2",
            "--out",
            str(out),
            *TINY,
            "--eval-opponents",
            "random",
        ]
    )
    printed = capsys.readouterr().out
    assert "iter    2/2" in printed and "vs random" in printed
    assert run_json(out)["iteration"] == 2
    evaluate.main(
        [
            "--game",
            "barc",
            "--agents",
            f"rllib:{out}/policy.pt",
            "random",
            "--games",
            "2",
            "--no-progress",
            "--out",
            str(tmp_path / "eval"),
        ]
    )
    assert "rllib-barc" in capsys.readouterr().out


def error_of(argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        rllib_train.main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bad_input_gets_a_clear_error(tmp_path, capsys):
    assert "invalid choice: 'chess'" in error_of(["--game", "chess"], capsys)
    assert "num_players" in error_of(["--game", "dorix", "--players", "9", "--out", str(tmp_path)], capsys)
    assert "no such setting" in error_of(["--game", "olix", "--set", "speed=3"], capsys)
    assert "expected a value of type int" in error_of(["--game", "olix", "--set", "train_batch=lots"], capsys)
    assert "no run there" in error_of(["--resume", str(tmp_path / "nothing")], capsys)
    port = free_port()  # nothing listens there
    message = error_of(["--game", "olix", "--address", f"127.0.0.1:{port}"], capsys)
    assert f"--address 127.0.0.1:{port}: no Ray cluster answers there" in message
    assert "expected 'auto' or HOST:PORT" in error_of(["--game", "olix", "--address", "somewhere"], capsys)
