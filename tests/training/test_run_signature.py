"""Signed checkpoint folders (training/storage/run_signature.py): a folder that must be unpickled to be restored
(an RLlib checkpoint) is handed on only when this user's key signed exactly what it holds; anything else is
refused saying why and naming --trust-checkpoint, which hands the folder on as it is. The key lives in a
temporary configuration folder here (BOARDGAMES_CONFIG_DIR), never in the real home."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import pytest

from boardgames.training.storage import durable
from boardgames.training.storage import run_signature as rs
from boardgames.training.storage.durable import CheckpointError

posix_only = pytest.mark.skipif(os.name == "nt", reason="file modes, owners and FIFOs of POSIX")


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    """A configuration folder of this test's own."""
    folder = tmp_path / "config"
    monkeypatch.setenv(rs.CONFIG_ENV, str(folder))
    return folder


def fill(folder: Path, version: str = "one") -> Path:
    """A checkpoint-like folder: files at the top and in nested folders, one empty."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "algorithm_state.pkl").write_bytes(b"state " + version.encode())
    (folder / "learner_group" / "learner").mkdir(parents=True)
    (folder / "learner_group" / "learner" / "module_state.pt").write_bytes(bytes(range(256)) * 40)
    (folder / "learner_group" / "metadata.json").write_text('{"v": "' + version + '"}')
    (folder / "empty").mkdir()
    return folder


def signed(tmp_path: Path, name: str = "checkpoint") -> Path:
    folder = fill(tmp_path / "run" / name)
    rs.sign_folder(folder)
    return folder


def refusal(folder: Path, trusted: bool = False) -> str:
    with pytest.raises(rs.UnsignedCheckpointError) as e, rs.restorable(folder, trusted):
        pass
    message = str(e.value)
    assert message.startswith(f"{folder}: not restored: ") and message.endswith(
        f"pass {rs.TRUST_FLAG} to restore it as it is"
    )
    assert str(rs.key_path()) in message
    with pytest.raises(rs.UnsignedCheckpointError):
        rs.check_folder(folder)
    return message


def content(folder: Path) -> dict:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
        if p.name != rs.SIGNATURE_NAME
    }


# the key ----------------------------------------------------------------------------------------------
def test_the_configuration_folder_follows_the_platform_rules(monkeypatch, tmp_path):
    assert rs.config_dir() == tmp_path / "config"
    monkeypatch.delenv(rs.CONFIG_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if os.name == "nt":
        monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
        assert rs.config_dir() == tmp_path / "appdata" / "boardgames"
        return
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert rs.key_path() == tmp_path / "xdg" / "boardgames" / "run-key"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/xdg")  # ignored, as the XDG specification asks
    assert rs.config_dir() == tmp_path / "home" / ".config" / "boardgames"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert rs.config_dir() == tmp_path / "home" / ".config" / "boardgames"


@posix_only
def test_the_key_is_made_once_readable_by_its_owner_alone(config):
    assert not config.exists()
    key = rs.run_key()
    path = config / "run-key"
    assert len(key) == 32 and rs.run_key() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) & 0o077 == 0
    assert [p.name for p in config.iterdir()] == ["run-key"]  # no temporary file left


@posix_only
def test_a_key_others_may_read_or_a_damaged_key_is_refused(config):
    rs.run_key()
    path = config / "run-key"
    path.chmod(0o644)
    with pytest.raises(CheckpointError, match=r"may be read or changed by others .*chmod 600"):
        rs.run_key()
    path.chmod(0o600)
    path.write_text("not a key\n")
    with pytest.raises(CheckpointError, match="damaged .*remove it to make a new one .*--trust-checkpoint"):
        rs.run_key()


def test_a_key_made_while_another_process_made_one_is_that_one(config):
    config.mkdir()
    (config / "run-key").write_text("ab" * 32 + "\n")
    os.chmod(config / "run-key", 0o600)
    assert rs.run_key() == bytes.fromhex("ab" * 32)


# signing and checking ---------------------------------------------------------------------------------
def test_a_signed_folder_is_handed_on_as_a_private_checked_copy(tmp_path):
    folder = signed(tmp_path)
    assert rs.check_folder(folder)["files"].keys() == {
        "algorithm_state.pkl",
        "learner_group/learner/module_state.pt",
        "learner_group/metadata.json",
    }
    with rs.restorable(folder) as copy:
        assert copy != folder and not copy.is_relative_to(folder.parent)
        assert content(copy) == content(folder)
        if os.name != "nt":
            assert stat.S_IMODE(copy.stat().st_mode) == 0o700
    assert not copy.exists()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (
            lambda f: (f / "algorithm_state.pkl").write_bytes(b"state three"),
            r"'algorithm_state.pkl' changed .*another size",
        ),
        (lambda f: (f / "algorithm_state.pkl").write_bytes(b"payload!!"), r"changed since it was signed \(another sha"),
        (lambda f: (f / "learner_group" / "extra.pkl").write_bytes(b"x"), "'learner_group/extra.pkl' in it was not"),
        (lambda f: (f / "learner_group" / "new").mkdir(), "the folder 'learner_group/new' in it was not signed"),
        (lambda f: (f / "learner_group" / "metadata.json").unlink(), "'learner_group/metadata.json', signed, is miss"),
        (lambda f: (f / "empty").rmdir(), "'empty', signed, is missing"),
        (lambda f: (f / rs.SIGNATURE_NAME).unlink(), "it has no signature .*before checkpoints were signed"),
        (lambda f: (f / rs.SIGNATURE_NAME).write_text("{"), "its signature .* cannot be read"),
    ],
    ids=["size", "sha256", "added file", "added folder", "removed file", "removed folder", "unsigned", "unreadable"],
)
def test_a_changed_folder_is_refused_saying_why(tmp_path, change, why):
    folder = signed(tmp_path)
    change(folder)
    assert re.search(why, refusal(folder)), refusal(folder)


def test_a_signature_whose_listing_was_edited_is_refused(tmp_path):
    folder = signed(tmp_path)
    record = durable.read_json(folder / rs.SIGNATURE_NAME)
    (folder / "algorithm_state.pkl").write_bytes(b"evil")
    record["files"]["algorithm_state.pkl"] = durable.file_record(folder / "algorithm_state.pkl")
    durable.write_json(folder / rs.SIGNATURE_NAME, record)
    assert "does not match its content: it was altered" in refusal(folder)


def test_a_folder_signed_with_another_key_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(rs.CONFIG_ENV, str(tmp_path / "stranger"))
    folder = signed(tmp_path)  # a stranger's key
    monkeypatch.setenv(rs.CONFIG_ENV, str(tmp_path / "config"))
    assert "signed with another key than this user's" in refusal(folder)
    # a stranger who copies this user's key id into a signature still cannot make its MAC
    record = durable.read_json(folder / rs.SIGNATURE_NAME)
    durable.write_json(folder / rs.SIGNATURE_NAME, {**record, "key_id": rs.key_id(rs.run_key())})
    assert "it was altered" in refusal(folder)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symbolic_links_are_refused_and_never_followed(tmp_path):
    outside = tmp_path / "outside.pkl"
    outside.write_bytes(b"a stranger's pickle")
    folder = signed(tmp_path)
    (folder / "learner_group" / "link.pkl").symlink_to(outside)
    assert "'learner_group/link.pkl' in it is a symbolic link (to " in refusal(folder)
    folder = signed(tmp_path, "other")
    (folder / "algorithm_state.pkl").unlink()
    (folder / "algorithm_state.pkl").symlink_to(outside)  # a signed name, now a link out
    assert "'algorithm_state.pkl' in it is a symbolic link" in refusal(folder)
    folder = signed(tmp_path, "third")
    (folder / "learner_group" / "outer").symlink_to(tmp_path, target_is_directory=True)
    assert "'learner_group/outer' in it is a symbolic link" in refusal(folder)
    link = tmp_path / "run" / "linked"  # the checkpoint folder itself a link to a signed folder elsewhere
    link.symlink_to(signed(tmp_path, "elsewhere"), target_is_directory=True)
    assert "it is a symbolic link (to " in refusal(link)
    with pytest.raises(CheckpointError, match="cannot be signed: 'learner_group/outer' in it is a symbolic link"):
        rs.sign_folder(tmp_path / "run" / "third")


@posix_only
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_anything_but_plain_files_and_folders_is_refused(tmp_path):
    folder = signed(tmp_path)
    os.mkfifo(folder / "pipe")
    assert "'pipe' in it is not a plain file or folder" in refusal(folder)


def test_the_flag_hands_on_any_folder_as_it_is(tmp_path):
    folder = fill(tmp_path / "old-run" / "checkpoint")  # written before checkpoints were signed
    assert "it has no signature" in refusal(folder)
    with rs.restorable(folder, trusted=True) as path:
        assert path == folder
    assert folder.exists()


def test_a_refused_copy_leaves_nothing_behind(tmp_path, monkeypatch):
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(rs.tempfile, "tempdir", str(temp))
    folder = signed(tmp_path)
    (folder / "learner_group" / "learner" / "module_state.pt").write_bytes(b"\0" * 10240)
    refusal(folder)
    assert list(temp.iterdir()) == []


def test_no_room_for_the_copy_is_said_as_such_not_as_a_refusal(tmp_path, monkeypatch):
    monkeypatch.setattr(rs.tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    folder = signed(tmp_path)
    with pytest.raises(CheckpointError, match="cannot be copied into .* set TMPDIR") as e, rs.restorable(folder):
        pass
    assert not isinstance(e.value, rs.UnsignedCheckpointError)


# a kill at any write point --------------------------------------------------------------------------
def run_killed(fn, kill: int) -> int:
    """``fn()`` in a forked child that sends itself SIGKILL at its ``kill``-th write point; its exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.environ[durable.KILL_ENV] = str(kill)
            durable.reset_points()
            fn()
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill test forks the test process")
def test_a_checkpoint_killed_at_any_write_point_is_the_old_or_the_new_one_signed(tmp_path, monkeypatch):
    run = tmp_path / "run"
    key = rs.run_key()
    log = tmp_path / "points.txt"
    rs.replace_signed_folder(run / "checkpoint", lambda d: fill(d, "old"), key)
    monkeypatch.setenv(durable.LOG_ENV, str(log))
    durable.reset_points()
    rs.replace_signed_folder(run / "checkpoint", lambda d: fill(d, "new"), key)
    monkeypatch.delenv(durable.LOG_ENV)
    points = [line.split(" ", 1)[1] for line in log.read_text().splitlines()]
    assert points == [
        f"before {rs.SIGNATURE_NAME}",
        f"after {rs.SIGNATURE_NAME}",
        "before checkpoint/ aside",
        "before checkpoint/",
        "after checkpoint/",
    ]
    for k in range(1, len(points) + 1):
        rs.replace_signed_folder(run / "checkpoint", lambda d: fill(d, "old"), key)
        assert run_killed(lambda: rs.replace_signed_folder(run / "checkpoint", lambda d: fill(d, "new"), key), k) == -9
        durable.remove_stale_temps(run)  # what --resume does first
        rs.check_folder(run / "checkpoint", key)
        want = "new" if k == len(points) else "old"
        assert (run / "checkpoint" / "algorithm_state.pkl").read_bytes() == b"state " + want.encode(), k
        assert sorted(p.name for p in run.iterdir()) == ["checkpoint"], k
