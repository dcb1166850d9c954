"""Durable RLlib runs (training/storage/durable.py): ``--resume`` after what a kill leaves behind (the checkpoint
folder set aside mid-swap, temporary files, strength.csv rows past the checkpoint) goes on with whole
files, and a checkpoint folder that cannot be restored is refused with a message naming it. Signed runs
(training/storage/run_signature.py): a checkpoint this user's run did not sign, or that changed since, is refused
before Ray is even started, unless --trust-checkpoint is passed. Skipped where ray is missing (make test runs
them in .venv-rllib)."""

from __future__ import annotations

import csv
import shutil
import subprocess

import pytest
from helpers.runs import rllib_sets

pytest.importorskip("ray.rllib")

from boardgames.training.rllib import train as rllib_train  # noqa: E402
from boardgames.training.storage.run_signature import SIGNATURE_NAME, check_folder  # noqa: E402

FLAGS = ["--eval-games", "2", "--eval-every", "1", "--eval-opponents", "random", "--checkpoint-every", "1"]
TINY = [*rllib_sets(envs_per_runner=2, hidden="[16]"), *FLAGS]


def refused_before_ray(argv: list, capsys, monkeypatch) -> str:
    """The message of ``main(argv)``, which must exit with status 2 before it trains (so before Ray restores)."""

    def no_training(*args, **kwargs):
        pytest.fail("the checkpoint reached Ray")

    with monkeypatch.context() as m:
        m.setattr(rllib_train, "train", no_training)
        with pytest.raises(SystemExit) as e:
            rllib_train.main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def test_resume_mends_what_a_kill_left_and_refuses_a_broken_checkpoint(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    rllib_train.main(
        ["--game", "dorix", "--players", "2", "--env-runners", "0", "--iterations", "1", "--out", str(out), *TINY]
    )
    capsys.readouterr()
    check_folder(out / "checkpoint")  # signed with this user's key
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
    check_folder(out / "checkpoint")

    # a checkpoint this user's runs did not sign (a stranger's, or one from before signatures), or a file added
    # to a signed one: refused before Ray sees it, naming the reason and the flag
    (out / "checkpoint" / "payload.pkl").write_bytes(b"a stranger's pickle")
    err = refused_before_ray(["--resume", str(out), "--iterations", "3", *FLAGS], capsys, monkeypatch)
    assert f"{out / 'checkpoint'}: not restored: the file 'payload.pkl' in it was not signed" in err
    assert "--trust-checkpoint" in err
    (out / "checkpoint" / "payload.pkl").unlink()
    (out / "checkpoint" / SIGNATURE_NAME).unlink()
    err = refused_before_ray(["--resume", str(out), "--iterations", "3", *FLAGS], capsys, monkeypatch)
    assert "it has no signature" in err and "pass --trust-checkpoint" in err
    # the flag restores it as it is; the run's next checkpoint is signed again
    rllib_train.main(["--resume", str(out), "--iterations", "3", "--trust-checkpoint", *FLAGS])
    assert "at iteration 2" in capsys.readouterr().out
    check_folder(out / "checkpoint")

    # a checkpoint folder RLlib cannot restore, passed with the flag: the project's error naming it, not RLlib's
    # traceback
    for p in (out / "checkpoint").iterdir():
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    with pytest.raises(SystemExit) as e:
        rllib_train.main(["--resume", str(out), "--iterations", "4", "--trust-checkpoint", *FLAGS])
    assert e.value.code == 2
    assert f"{out / 'checkpoint'} cannot be restored" in capsys.readouterr().err
