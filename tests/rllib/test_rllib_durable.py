"""Durable RLlib runs (training/storage/durable.py): ``--resume`` after what a kill leaves behind (the checkpoint
folder set aside mid-swap, temporary files, strength.csv rows past the checkpoint) goes on with whole
files, and a checkpoint folder that cannot be restored is refused with a message naming it. Skipped
where ray is missing (make test runs them in .venv-rllib)."""

from __future__ import annotations

import csv
import shutil
import subprocess

import pytest

pytest.importorskip("ray.rllib")

from boardgames.training.rllib import train as rllib_train  # noqa: E402

FLAGS = ["--eval-games", "2", "--eval-every", "1", "--eval-opponents", "random", "--checkpoint-every", "1"]
TINY = [
    "--set",
    "train_batch=200",
    "--set",
    "minibatch=100",
    "--set",
    "epochs=1",
    "--set",
    "envs_per_runner=2",
    "--set",
    "hidden=[16]",
    *FLAGS,
]


def test_resume_mends_what_a_kill_left_and_refuses_a_broken_checkpoint(tmp_path, capsys):
    out = tmp_path / "run"
    rllib_train.main(
        ["--game", "dorix", "--players", "2", "--env-runners", "0", "--iterations", "1", "--out", str(out), *TINY]
    )
    capsys.readouterr()
    proc = subprocess.Popen(["true"])  # the id of a process that has ended, as a killed trainer's would be
    proc.wait()
    pid = proc.pid
    # a kill between the two renames of the checkpoint's swap, a policy half written, a row past the checkpoint
    (out / "checkpoint").rename(out / f"checkpoint.old-{pid}")
    (out / f"policy.tmp-{pid}.pt").write_bytes(b"half")
    with open(out / "strength.csv", "a", newline="") as f:
        csv.writer(f).writerow([2, 400, "random", 2, 1, 0, 1, "0.5000"])
    rllib_train.main(["--resume", str(out), "--iterations", "2", *FLAGS])
    assert "at iteration 1" in capsys.readouterr().out
    with open(out / "strength.csv") as f:
        rows = [(r["iteration"], r["opponent"]) for r in csv.DictReader(f)]
    assert rows == [("1", "random"), ("2", "random")]
    assert not [p for p in out.iterdir() if ".tmp-" in p.name or ".old-" in p.name]
    assert rllib_train.read_json(out / "run.json")["iteration"] == 2

    # a checkpoint folder RLlib cannot restore: the project's error naming it, not RLlib's traceback
    for p in (out / "checkpoint").iterdir():
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    with pytest.raises(SystemExit) as e:
        rllib_train.main(["--resume", str(out), "--iterations", "3", *FLAGS])
    assert e.value.code == 2
    assert f"{out / 'checkpoint'} cannot be restored" in capsys.readouterr().err
