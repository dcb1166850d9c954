"""A folder from anyone writes only inside itself (issue 45, item 1).

A checkpoint manifest read from the folder being resumed (``model.json`` beside a ``--resume`` zip, a run
folder's ``checkpoint.json``) names files; before the fix ``open_set`` joined each name to the folder (an
absolute name replaced the folder, ``../`` climbed out) and renamed the manifest's ``pending`` file over it
when size and sha256 matched, which the folder's author controls. Each test plants a canary file outside
the folder and checks it is never touched, and that the refusal names the manifest and the name.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from helpers.runs import as_flags, tiny_sets

from boardgames.training.alphazero.__main__ import main as alphazero_main
from boardgames.training.alphazero.train import SET_FILES
from boardgames.training.sb3.train import main as train_main
from boardgames.training.storage.durable import CheckpointError, is_plain_name, open_set, refuse_links_out

CANARY = b"the user's own file\n"
PAYLOAD = b"echo pwned\n"


def canary(tmp_path: Path) -> Path:
    path = tmp_path / "home" / ".bashrc"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(CANARY)
    return path


def hostile_manifest(folder: Path, manifest: str, name: str, pending: str, extra: dict | None = None) -> None:
    """A manifest that lists ``name`` with ``pending`` as its temporary file, which holds the payload whose
    size and sha256 it records (so that only the name check can stop the rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    if "/" not in pending:
        (folder / pending).write_bytes(PAYLOAD)
    record = {"size": len(PAYLOAD), "sha256": hashlib.sha256(PAYLOAD).hexdigest(), "pending": pending}
    (folder / manifest).write_text(json.dumps({"format": 1, **(extra or {}), "files": {name: record}}))


@pytest.mark.parametrize("how", ["absolute", "dotdot", "subfolder"])
def test_a_manifest_naming_a_file_outside_its_folder_is_refused_and_nothing_changes(tmp_path, how):
    target = canary(tmp_path)
    folder = tmp_path / "shared" / "run"
    name = {
        "absolute": str(target),
        "dotdot": os.path.relpath(target, folder),
        "subfolder": "sub/checkpoint.pt",
    }[how]
    hostile_manifest(folder, "checkpoint.json", name, "checkpoint.pt.tmp-12345")
    before = sorted(p.name for p in folder.iterdir())
    with pytest.raises(CheckpointError, match=r"checkpoint.json: lists the file .* which is not one this checkpoint"):
        open_set(folder, "checkpoint.json", SET_FILES)
    assert target.read_bytes() == CANARY
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.parametrize("pending", ["../../home/.bashrc", "/etc/hostname", "buffer.npz", "checkpoint.pt.tmp-1/x"])
def test_a_pending_name_that_is_not_the_files_own_temporary_name_is_refused(tmp_path, pending):
    target = canary(tmp_path)
    folder = tmp_path / "run"
    hostile_manifest(folder, "checkpoint.json", "checkpoint.pt", pending)
    (folder / "buffer.npz").write_bytes(PAYLOAD)
    with pytest.raises(CheckpointError, match=r"names .* as the temporary file of checkpoint.pt, which is not"):
        open_set(folder, "checkpoint.json", SET_FILES)
    assert target.read_bytes() == CANARY
    assert (folder / "buffer.npz").read_bytes() == PAYLOAD and not (folder / "checkpoint.pt").exists()


def test_a_link_among_a_sets_files_is_refused(tmp_path):
    target = canary(tmp_path)
    folder = tmp_path / "run"
    hostile_manifest(folder, "checkpoint.json", "checkpoint.pt", "checkpoint.pt.tmp-12345")
    (folder / "checkpoint.pt").symlink_to(target)
    with pytest.raises(CheckpointError, match=r"checkpoint.pt: a symbolic link, listed by .*checkpoint.json"):
        open_set(folder, "checkpoint.json", SET_FILES)
    assert target.read_bytes() == CANARY and (folder / "checkpoint.pt.tmp-12345").exists()


def test_the_sets_own_file_under_its_temporary_name_is_still_put_in_place(tmp_path):
    folder = tmp_path / "run"
    hostile_manifest(folder, "checkpoint.json", "checkpoint.pt", "checkpoint.pt.tmp-12345")
    open_set(folder, "checkpoint.json", SET_FILES)  # the repair a kill after the manifest needs
    assert (folder / "checkpoint.pt").read_bytes() == PAYLOAD and not (folder / "checkpoint.pt.tmp-12345").exists()


@pytest.mark.parametrize(
    "name, plain",
    [
        ("model.zip", True),
        ("..", False),
        (".", False),
        ("", False),
        ("a/b", False),
        ("a\\b", False),
        ("/etc/passwd", False),
        ("a\0b", False),
        ("C:evil", False),
        ("x" * 256, False),
        (3, False),
    ],
)
def test_plain_names(name, plain):
    assert is_plain_name(name) is plain


def test_a_link_leading_out_of_a_run_folder_is_refused_one_inside_is_not(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "checkpoints" / "inside").symlink_to(run / "checkpoints")
    refuse_links_out(run)
    (run / "tb").symlink_to(outside)
    with pytest.raises(CheckpointError, match=r"/run/tb: a symbolic link that leads out of .*run"):
        refuse_links_out(run)


def test_train_resume_of_a_hostile_folder_overwrites_nothing(tmp_path, monkeypatch, capsys):
    """The reproducer: ``boardgames train --resume <folder>/model.zip`` with ``model.json`` naming a file
    outside the folder by absolute name."""
    target = canary(tmp_path)
    folder = tmp_path / "shared"
    hostile_manifest(folder, "model.json", str(target), "model.zip.tmp-12345")
    (folder / "model.zip").write_bytes(b"PK not really")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        train_main(["--game", "dorix", "--resume", str(folder / "model.zip"), "--steps", "64", "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "model.json: lists the file" in err and str(target) in err
    assert target.read_bytes() == CANARY


def test_alphazero_resume_of_a_hostile_run_folder_overwrites_nothing(tmp_path, monkeypatch, capsys):
    """The reproducer: ``boardgames alphazero --resume --run-dir <folder>`` with ``checkpoint.json`` naming
    a file three folders up."""
    target = canary(tmp_path)
    run = tmp_path / "shared" / "a" / "run"
    hostile_manifest(run, "checkpoint.json", os.path.relpath(target, run), "x.tmp-12345")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        alphazero_main(
            ["--game", "dorix", "--players", "2", "--run-dir", str(run), "--iterations", "1", "--resume",
             *as_flags(tiny_sets())]
        )  # fmt: skip
    assert stop.value.code == 2
    assert "checkpoint.json: lists the file" in capsys.readouterr().err
    assert target.read_bytes() == CANARY
