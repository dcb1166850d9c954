"""Durable runs (training/storage/durable.py): every file a trainer writes survives a kill at any moment.

The kill tests run tiny AlphaZero and MaskablePPO runs in forked children with the fault injector of
:mod:`boardgames.training.storage.durable` (``BOARDGAMES_KILL_AT_WRITE=k``: SIGKILL at the k-th write point,
one before and one after each rename), at every write point of the run in turn, then resume each killed run as a user
would. The resumed AlphaZero run must equal the uninterrupted one bit for bit (network, optimizer, random
state, buffer, games in flight, strength.csv, latest/); the resumed PPO run must be consistent (its
checkpoints and final model check against their manifests and load, run.json is whole, strength.csv has
the uninterrupted run's measurement points once each). The children fork from a process that has run
the trainers once, so nothing is compiled or imported again in them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import traceback
from pathlib import Path

import numpy as np
import pytest
import torch

# the sizes and command lines of the runs are the run-folder fuzzing's (AZ_TINY is tiny_sets(parallel=3))
from boardgames.benchmarks.fuzz.run_folders import (
    PPO_STEPS,
    az_args,
    equal_state,
    fault_env,
    history_rows,
    ppo_args,
)
from boardgames.training.alphazero.__main__ import main as alphazero_main
from boardgames.training.alphazero.train import SET_FILES
from boardgames.training.storage import durable
from boardgames.training.storage.durable import (
    CheckpointError,
    commit_set,
    open_set,
    read_csv_rows,
    replace_folder,
    write_json,
)

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill tests fork the test process")


def in_child(fn, args: list, kill: int | None = None, output: Path | None = None) -> int:
    """``fn(args)`` in a forked child, killed at its ``kill``-th write point; the child's exit status,
    ``-9`` when it was killed. Its output goes to ``output``."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            out = open(output or os.devnull, "a")
            sys.stdout = sys.stderr = out
            with fault_env(kill):
                fn(args)
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def write_points(fn, args: list, log: Path) -> list[str]:
    """Run ``fn(args)`` here with the write points logged; their labels, in order."""
    with fault_env(log=log), contextlib.redirect_stdout(open(os.devnull, "w")):
        fn(args)
    return [line.split(" ", 1)[1] for line in log.read_text().splitlines()]


def leftovers(folder: Path) -> list:
    """Temporary files and folders anywhere under ``folder``."""
    return [p for p in folder.rglob("*") if durable._TEMP.search(p.name)]


# the helpers -----------------------------------------------------------------------------------------
@needs_fork
def test_a_file_killed_while_written_is_the_old_or_the_new_one(tmp_path):
    path = tmp_path / "run.json"
    write_json(path, {"version": "old"})
    points = write_points(lambda _: write_json(path, {"version": "new"}), [], tmp_path / "points.txt")
    assert points == ["before run.json", "after run.json"]
    write_json(path, {"version": "old"})
    for k, want in [(1, "old"), (2, "new")]:
        assert in_child(lambda _: write_json(path, {"version": "new"}), [], kill=k) == -9
        assert json.loads(path.read_text()) == {"version": want}
        stale = leftovers(tmp_path)
        assert len(stale) == (k == 1)  # the temporary file of the kill before the rename ...
        durable.remove_stale_temps(tmp_path)  # ... is cleared once its process is gone
        assert not leftovers(tmp_path)
        write_json(path, {"version": "old"})


@needs_fork
def test_a_checkpoint_set_killed_anywhere_opens_whole_old_or_new(tmp_path):
    def commit(version):
        commit_set(
            tmp_path,
            "set.json",
            {n: (lambda f, n=n: f.write(f"{n} {version}".encode())) for n in ("a", "b")},
            {"version": version},
        )

    commit("old")
    points = write_points(lambda _: commit("new"), [], tmp_path / "points.txt")
    assert points == ["before set.json", "after set.json", "before a", "after a", "before b", "after b"]
    for k in range(1, len(points) + 1):
        commit("old")
        assert in_child(lambda _: commit("new"), [], kill=k) == -9
        version = open_set(tmp_path, "set.json", "ab")["version"]  # rolls the renames forward after the manifest
        assert version == ("old" if k <= 1 else "new"), k
        assert (tmp_path / "a").read_text() == f"a {version}" and (tmp_path / "b").read_text() == f"b {version}"
        durable.remove_stale_temps(tmp_path)
        assert not leftovers(tmp_path)


def test_a_damaged_or_missing_file_of_a_set_is_named(tmp_path):
    commit_set(tmp_path, "set.json", {"a": lambda f: f.write(b"1234"), "b": lambda f: f.write(b"5678")})
    (tmp_path / "b").write_bytes(b"5679")
    with pytest.raises(CheckpointError, match=r"/b: damaged \(4 bytes, not the 4 bytes and sha256 that .*set.json"):
        open_set(tmp_path, "set.json", "ab")
    (tmp_path / "b").unlink()
    with pytest.raises(CheckpointError, match=r"/b: missing; .*set.json \(the checkpoint's manifest\) lists it"):
        open_set(tmp_path, "set.json", "ab")
    (tmp_path / "set.json").write_text("")
    with pytest.raises(CheckpointError, match=r"set.json: the checkpoint's manifest cannot be read"):
        open_set(tmp_path, "set.json", "ab")


@needs_fork
def test_a_folder_swap_killed_between_its_renames_is_put_back(tmp_path):
    folder = tmp_path / "latest"
    replace_folder(folder, lambda d: (d / "w").write_text("old"))
    points = write_points(
        lambda _: replace_folder(folder, lambda d: (d / "w").write_text("new")), [], tmp_path / "points.txt"
    )
    assert points == ["before latest/ aside", "before latest/", "after latest/"]
    for k, want in [(1, "old"), (2, "old"), (3, "new")]:
        replace_folder(folder, lambda d: (d / "w").write_text("old"))
        assert in_child(lambda _: replace_folder(folder, lambda d: (d / "w").write_text("new")), [], kill=k) == -9
        assert folder.exists() == (k != 2)  # between the renames: only the old folder, aside
        durable.remove_stale_temps(tmp_path)  # puts it back, clears the rest
        assert (folder / "w").read_text() == want and not leftovers(tmp_path)


def test_csv_rows_cut_short_or_past_the_checkpoint_are_dropped(tmp_path):
    path = tmp_path / "strength.csv"
    path.write_text("iteration,score\n0,0.5\n2,0.75\n4,1.0\n6,0.")  # an older version's append, cut short
    assert [r["iteration"] for r in read_csv_rows(path, ["iteration", "score"])] == ["0", "2", "4", "6"]
    path.write_text("iteration,score\n0,0.5\n2,0.75\n4,1.0\n6")
    assert durable.keep_csv_rows(path, ["iteration", "score"], lambda r: durable.number(r["iteration"]) <= 2) == 2
    assert path.read_text().splitlines() == ["iteration,score", "0,0.5", "2,0.75"]


# AlphaZero -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def az_reference(tmp_path_factory):
    """An uninterrupted AlphaZero run (run here: its compiled search and imports are inherited by the
    children) and the labels of its write points."""
    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("az")
    points = write_points(alphazero_main, az_args(root / "ref"), root / "points.txt")
    return root / "ref", points


def assert_same_alphazero_run(ref: Path, run: Path) -> None:
    a = torch.load(ref / "checkpoint.pt", weights_only=True)
    b = torch.load(run / "checkpoint.pt", weights_only=True)
    for key in ("net", "optimizer", "iteration", "rng", "torch_rng", "elo", "settings", "teacher"):
        assert equal_state(a[key], b[key]), key
    assert history_rows(a) == history_rows(b)
    for name in ("buffer.npz", "games.npz"):
        with np.load(ref / name) as x, np.load(run / name) as y:
            assert x.files == y.files and all(np.array_equal(x[k], y[k]) for k in x.files), name
    assert (ref / "strength.csv").read_text() == (run / "strength.csv").read_text()
    assert equal_state(
        torch.load(ref / "latest/alphazero.pt", weights_only=True),
        torch.load(run / "latest/alphazero.pt", weights_only=True),
    )
    assert (ref / "latest/alphazero.json").read_text() == (run / "latest/alphazero.json").read_text()
    info, want = json.loads((run / "run.json").read_text()), json.loads((ref / "run.json").read_text())
    assert (info["iterations"], info["samples_added"]) == (want["iterations"], want["samples_added"])
    open_set(run, "checkpoint.json", SET_FILES)
    assert not leftovers(run)


def resume_alphazero(run: Path, kill: int | None = None) -> tuple[int, float]:
    """Go on with a killed run as a user would (``--resume`` when it has a checkpoint, else a new start);
    the exit status and the wall time its checkpoint held."""
    manifest = durable.read_json(run / "checkpoint.json", {}) or {}
    has = (run / "checkpoint.json").exists() or (run / "checkpoint.pt").exists()
    output = run.parent / f"{run.name}.out"
    return in_child(alphazero_main, az_args(run, resume=has), kill=kill, output=output), manifest.get("seconds", 0.0)


@needs_fork
def test_alphazero_killed_at_every_write_resumes_to_the_uninterrupted_run(az_reference, tmp_path):
    ref, points = az_reference
    # the points: iteration 0's strength.csv, then per iteration the checkpoint set, latest/, run.json (and
    # strength.csv at iteration 2), then the command's last run.json
    assert points[:3] == ["before strength.csv", "after strength.csv", "before checkpoint.json"]
    assert {"before buffer.npz", "before games.npz", "before latest/ aside", "before run.json"} <= set(points)
    for k in range(1, len(points) + 1):
        run = tmp_path / f"kill{k}"
        assert in_child(alphazero_main, az_args(run), kill=k) == -9, f"point {k} ({points[k - 1]}) was not reached"
        status, seconds = resume_alphazero(run)
        assert status == 0, (points[k - 1], (tmp_path / f"kill{k}.out").read_text()[-3000:])
        assert_same_alphazero_run(ref, run)
        info = json.loads((run / "run.json").read_text())
        # the killed process's time up to its checkpoint is kept: run.json rounds it to 0.1 s (0.05 at most
        # below), the manifest to 0.001 s (0.0005 at most above), so 0.4496 s shows as 0.4 and 0.45
        assert info["wall_seconds"] >= seconds - 0.0505
        assert "--resume" in info["commands"][-1] or seconds == 0.0


@needs_fork
def test_alphazero_killed_again_while_resuming(az_reference, tmp_path):
    ref, points = az_reference
    for first, second in [(5, 3), (9, 7), (19, 1)]:  # in the first checkpoint set, then in the resume's
        run = tmp_path / f"kill{first}_{second}"
        assert in_child(alphazero_main, az_args(run), kill=first) == -9
        assert resume_alphazero(run, kill=second)[0] == -9
        assert resume_alphazero(run)[0] == 0
        assert_same_alphazero_run(ref, run)


def _refusal(args, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        alphazero_main(args)
    assert e.value.code == 2
    return capsys.readouterr().err


def test_alphazero_resume_refuses_a_damaged_checkpoint_naming_the_file(az_reference, tmp_path, capsys):
    ref, _ = az_reference
    for name, damage, message in [
        ("checkpoint.pt", lambda p: p.write_bytes(p.read_bytes()[:100]), "checkpoint.pt: damaged"),
        ("buffer.npz", lambda p: p.unlink(), "buffer.npz: missing"),
        ("games.npz", lambda p: p.write_bytes(b""), "games.npz: damaged (0 bytes"),
        ("checkpoint.json", lambda p: p.write_text("{"), "checkpoint.json: the checkpoint's manifest cannot be read"),
    ]:
        run = tmp_path / name
        shutil.copytree(ref, run)
        damage(run / name)
        assert message in _refusal(az_args(run, 3, resume=True), capsys), name
    # an older version's checkpoint (no manifest) cut to 0 bytes: the project's error, not torch's traceback
    run = tmp_path / "legacy"
    shutil.copytree(ref, run)
    (run / "checkpoint.json").unlink()
    (run / "checkpoint.pt").write_bytes(b"")
    assert "checkpoint.pt: not a readable checkpoint (EOFError" in _refusal(az_args(run, 3, resume=True), capsys)


def test_alphazero_resume_mends_run_json_and_latest(az_reference, tmp_path):
    from boardgames.envs.registry import make_game
    from boardgames.training.agent_kinds import make_agent

    ref, _ = az_reference
    run = tmp_path / "run"
    shutil.copytree(ref, run)
    (run / "run.json").write_text("")  # an older version killed while writing it
    (run / "latest" / "alphazero.pt").write_bytes(b"")  # ... or while writing latest/
    with contextlib.redirect_stdout(open(os.devnull, "w")):
        alphazero_main(az_args(run, 2, resume=True))  # nothing left to train: it still mends both
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 2 and len(info["commands"]) == 2
    make_agent(str(run / "latest"), make_game("dorix", num_players=2))
    assert_same_alphazero_run(ref, run)


# MaskablePPO (boardgames.training.sb3.train) ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ppo_reference(tmp_path_factory):
    """An uninterrupted PPO run (here, as az_reference) and the labels of its write points."""
    from boardgames.training.sb3.train import main as train_main

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("ppo")
    points = write_points(train_main, ppo_args(root / "ref"), root / "points.txt")
    return root / "ref", points


def _steps(path: Path) -> int:
    return int(path.stem.split("_")[1])


def resume_ppo(run: Path) -> tuple[int, float]:
    """Go on with a killed run as a user would: ``--resume`` its newest checkpoint, else start again; the
    exit status and the wall time that checkpoint held."""
    from boardgames.training.sb3.train import main as train_main

    manifests = sorted((run / "checkpoints").glob("model_*_steps.json"), key=_steps)
    resume = manifests[-1].with_suffix(".zip") if manifests else None
    wall = (durable.read_json(manifests[-1], {}) or {}).get("wall_time_s", 0.0) if manifests else 0.0
    return in_child(train_main, ppo_args(run, resume), output=run.parent / f"{run.name}.out"), wall


def assert_consistent_ppo_run(ref: Path, run: Path, wall_before: float) -> None:
    from boardgames.training.agent_kinds import load_model
    from boardgames.training.sb3.checkpoints import checkpoint_manifest

    assert checkpoint_manifest(run / "final.zip")["steps"] == PPO_STEPS
    assert load_model(run / "final.zip").num_timesteps == PPO_STEPS
    for zip_path in (run / "checkpoints").glob("*.zip"):
        assert checkpoint_manifest(zip_path)["steps"] == _steps(zip_path)
    info = json.loads((run / "run.json").read_text())
    assert info["steps"] == PPO_STEPS and info["wall_time_s"] >= wall_before
    fields = ["steps", "opponent"]
    assert [(r["steps"], r["opponent"]) for r in read_csv_rows(run / "strength.csv", fields)] == [
        (r["steps"], r["opponent"]) for r in read_csv_rows(ref / "strength.csv", fields)
    ]
    assert (run / "results.png").stat().st_size > 0
    empty = [p for p in run.rglob("*") if p.is_file() and "tb" not in p.parts and p.stat().st_size == 0]
    assert not empty and not leftovers(run)


@needs_fork
def test_ppo_killed_at_every_write_resumes_consistently(ppo_reference, tmp_path):
    from boardgames.training.sb3.train import main as train_main

    ref, points = ppo_reference
    assert {
        "before model_256_steps.json",
        "before model_256_steps.zip",
        "before final.zip",
        "before results.png",
        "before run.json",
        "before strength.csv",
    } <= set(points)
    # a kill just after one rename leaves the files as a kill just before the next: one of the two each
    kills = [k for k in range(1, len(points) + 1) if points[k - 1].startswith("before")] + [len(points)]
    for k in kills:
        run = tmp_path / f"kill{k}"
        assert in_child(train_main, ppo_args(run), kill=k) == -9, f"point {k} ({points[k - 1]}) was not reached"
        status, wall = resume_ppo(run)
        assert status == 0, (points[k - 1], (tmp_path / f"kill{k}.out").read_text()[-3000:])
        assert_consistent_ppo_run(ref, run, wall)


def test_ppo_resume_refuses_a_damaged_checkpoint_and_mends_run_json(ppo_reference, tmp_path, capsys):
    from boardgames.training.sb3.train import main as train_main

    ref, _ = ppo_reference
    run = tmp_path / "run"
    shutil.copytree(ref, run)
    checkpoint = run / "checkpoints" / "model_256_steps.zip"
    checkpoint.write_bytes(checkpoint.read_bytes()[:1000])
    with pytest.raises(SystemExit) as e:
        train_main(ppo_args(run, checkpoint))
    assert e.value.code == 2
    assert "model_256_steps.zip: damaged (1000 bytes" in capsys.readouterr().err
    shutil.copy(ref / "checkpoints" / "model_256_steps.zip", checkpoint)
    (run / "run.json").write_text("")  # an older version's run.json, cut short
    train_main(ppo_args(run, checkpoint))
    assert_consistent_ppo_run(
        ref, run, json.loads((ref / "checkpoints" / "model_256_steps.json").read_text())["wall_time_s"]
    )
    assert len(json.loads((run / "run.json").read_text())["commands"]) == 2
