"""Durable files for training runs: what a run writes survives a kill at any moment.

Every file a trainer writes (checkpoints, the replay buffer, ``run.json``, the ``latest/`` folder, CSVs,
model zips, pictures) goes through this module: the new content is written to ``<name>.tmp-<pid>`` in
the same folder, flushed and fsynced, then renamed over ``<name>`` (one atomic step on POSIX and on
Windows) and the folder is fsynced. A process killed at any moment therefore leaves either the old
file or the new one under the real name, never a truncated one; at worst a stray ``*.tmp-<pid>`` file,
which :func:`remove_stale_temps` clears when the run is resumed.

A checkpoint made of several files is a *set* (:func:`commit_set`): every file of the set is written to
its temporary name first, then a manifest (JSON: the files with their sizes and sha256, plus what the
trainer records with them) is written atomically, and only then are the files renamed into place. The
manifest is the moment the new checkpoint exists: a kill before it leaves the previous set untouched, a
kill after it leaves the new files under their temporary names, which :func:`open_set` renames into
place on resume (each checked against its sha256). :func:`open_set` refuses a set with a missing or
damaged file with a :class:`CheckpointError` naming the file.

Folders (``latest/``, an RLlib checkpoint) are filled under ``<name>.tmp-<pid>`` and swapped in by
:func:`replace_folder`; :func:`recover_folder` puts the previous folder back when a kill fell between
the two renames of the swap.

Fault injection for tests: with the environment variable ``BOARDGAMES_KILL_AT_WRITE=k`` the process
sends itself SIGKILL at the ``k``-th of its write points (one just before and one just after each
rename; ``k = 0`` counts the points without killing). With ``BOARDGAMES_WRITE_LOG=<file>`` each point
appends its number and label to that file, so a test can list the points of a run and then kill a run
at each of them.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import re
import shutil
import signal
from collections.abc import Callable, Iterable
from pathlib import Path

from boardgames.training.settings import SettingError

KILL_ENV = "BOARDGAMES_KILL_AT_WRITE"
LOG_ENV = "BOARDGAMES_WRITE_LOG"
MANIFEST_FORMAT = 1
_TEMP = re.compile(r"\.(tmp|old)-(\d+)(\.[A-Za-z0-9]+)?$")
_points = 0


class CheckpointError(SettingError):
    """A checkpoint that cannot be resumed: a file of its set missing or damaged, or an unreadable
    manifest. The message names the file (the commands print it and exit with status 2)."""


# fault injection ------------------------------------------------------------------------------------
def fault_point(label: str) -> None:
    """One write point (see the module docstring): counted, logged and possibly the process's end when
    the fault-injection variables are set; nothing otherwise."""
    global _points
    target = os.environ.get(KILL_ENV)
    log = os.environ.get(LOG_ENV)
    if target is None and log is None:
        return
    _points += 1
    if log:
        with open(log, "a") as f:
            f.write(f"{_points} {label}\n")
    if target and target.strip().isdigit() and int(target) == _points:
        os.kill(os.getpid(), signal.SIGKILL)


def reset_points() -> None:
    """Start counting write points from zero (a test's forked child does, before it runs a trainer)."""
    global _points
    _points = 0


# single files ---------------------------------------------------------------------------------------
def temp_path(path: str | Path, keep_suffix: bool = False) -> Path:
    """The temporary name of ``path`` for this process: ``<name>.tmp-<pid>`` beside it (with
    ``keep_suffix``, ``<stem>.tmp-<pid><suffix>``, for writers that insist on a suffix)."""
    path = Path(path)
    if keep_suffix and path.suffix:
        return path.with_name(f"{path.stem}.tmp-{os.getpid()}{path.suffix}")
    return path.with_name(f"{path.name}.tmp-{os.getpid()}")


def fsync_dir(folder: str | Path) -> None:
    """Make the renames and new entries of ``folder`` durable (a no-op where folders cannot be opened,
    as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def fsync_file(path: str | Path) -> None:
    """Flush ``path``'s content to the disk."""
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def _install(tmp: Path, path: Path) -> None:
    """Rename the finished temporary file ``tmp`` over ``path``, with a write point on each side."""
    fault_point(f"before {path.name}")
    os.replace(tmp, path)
    fault_point(f"after {path.name}")
    fsync_dir(path.parent)


@contextlib.contextmanager
def replacing(path: str | Path, mode: str = "wb", **open_kwargs):
    """``with replacing(path) as f:`` writes ``f``, a new file under ``path``'s temporary name, which
    replaces ``path`` (flushed, fsynced, renamed) when the block ends normally; an exception removes
    it and leaves ``path`` as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path)
    f = open(tmp, mode, **open_kwargs)
    try:
        yield f
        f.flush()
        os.fsync(f.fileno())
    except BaseException:
        f.close()
        tmp.unlink(missing_ok=True)
        raise
    f.close()
    _install(tmp, path)


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace ``path`` by ``data``, durably."""
    with replacing(path) as f:
        f.write(data)
    return Path(path)


def write_text(path: str | Path, text: str) -> Path:
    """Replace ``path`` by ``text`` (UTF-8), durably."""
    return write_bytes(path, text.encode("utf-8"))


def write_json(path: str | Path, obj, indent: int = 1) -> Path:
    """Replace ``path`` by ``obj`` as JSON (with a final newline), durably."""
    return write_text(path, json.dumps(obj, indent=indent) + "\n")


def write_with(path: str | Path, write: Callable[[Path], object], keep_suffix: bool = False) -> Path:
    """Replace ``path`` by the file ``write(tmp)`` writes at the temporary name ``tmp`` (for writers
    that take a file name, not a file object), durably."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path, keep_suffix)
    try:
        write(tmp)
        fsync_file(tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _install(tmp, path)
    return path


def read_json(path: str | Path, default=None):
    """The JSON content of ``path``; ``default`` when it is missing, empty or not JSON (a file written
    in place by an older version and cut short)."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested too deeply
        return default


# CSV files ------------------------------------------------------------------------------------------
def read_csv_rows(path: str | Path, fields: list) -> list[dict]:
    """The rows of the CSV ``path`` as dicts of strings, those with every one of ``fields`` and nothing
    more (a row cut short by an older version's in-place append is left out); empty when there is no
    such file."""
    return [r for r in _raw_rows(path) if _whole(r, fields)]


def _raw_rows(path) -> list[dict]:
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except (OSError, csv.Error, UnicodeDecodeError):
        return []


def _whole(row: dict, fields: list) -> bool:
    return None not in row and all(row.get(k) is not None for k in fields)


def write_csv(path: str | Path, fields: list, rows: Iterable[dict]) -> Path:
    """Replace the CSV ``path`` by a header of ``fields`` and ``rows``, durably."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
    return write_text(path, buf.getvalue())


def keep_csv_rows(path: str | Path, fields: list, keep: Callable[[dict], bool]) -> int:
    """Rewrite the CSV ``path`` with only its whole rows (dicts of strings) that ``keep`` accepts;
    returns how many rows were dropped (nothing is written when none is, or when there is no such
    file)."""
    path = Path(path)
    if not path.exists():
        return 0
    rows = _raw_rows(path)
    kept = [r for r in rows if _whole(r, fields) and keep(r)]
    if len(kept) != len(rows):
        write_csv(path, fields, kept)
    return len(rows) - len(kept)


def number(text) -> float:
    """A CSV field as a number (``nan`` when it is not one)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


# sets of files with a manifest ---------------------------------------------------------------------
def sha256_of(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_record(path: str | Path) -> dict:
    """``{"size", "sha256"}`` of ``path``, as a manifest lists it."""
    return {"size": Path(path).stat().st_size, "sha256": sha256_of(path)}


def commit_set(folder: str | Path, manifest: str, writers: dict, info: dict | None = None) -> dict:
    """Write a checkpoint set into ``folder``: ``writers`` maps each file name to a function that writes
    that file given an open binary file object; ``manifest`` names the JSON file that lists them (see the
    module docstring for the order of the writes). ``info`` is recorded in the manifest too. Returns the
    manifest."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    temps, files = {}, {}
    try:
        for name, write in writers.items():
            tmp = temp_path(folder / name)
            temps[name] = tmp
            with open(tmp, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            files[name] = {**file_record(tmp), "pending": tmp.name}
    except BaseException:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)
        raise
    fsync_dir(folder)
    record = {"format": MANIFEST_FORMAT, **(info or {}), "files": files}
    write_json(folder / manifest, record)
    for name, tmp in temps.items():
        _install(tmp, folder / name)
    return record


def read_manifest(path: str | Path) -> dict:
    """The manifest at ``path``; :class:`CheckpointError` naming it when it cannot be read."""
    path = Path(path)
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as e:  # RecursionError: JSON nested too deeply
        raise CheckpointError(
            f"{path}: the checkpoint's manifest cannot be read ({type(e).__name__}: {e}); the "
            "checkpoint cannot be resumed"
        ) from None
    if not isinstance(record, dict) or not isinstance(record.get("files"), dict):
        raise CheckpointError(f"{path}: not a checkpoint manifest (no list of files); the checkpoint cannot be resumed")
    return record


def open_set(folder: str | Path, manifest: str, names: Iterable[str]) -> dict:
    """Check the checkpoint set of ``folder`` named by its ``manifest`` and return the manifest: every
    file must have the size and sha256 recorded; a file still under its temporary name (a kill between
    the manifest and the renames) is renamed into place first. ``names`` are the file names the project
    itself writes in such a set: the manifest may list only those, and the only rename ever made is of
    ``<name>.tmp-<pid>`` to ``<name>`` for one of them (:func:`checked_entries`), every entry checked before
    anything is renamed. :class:`CheckpointError` naming the manifest and the entry for a name that is not
    one of them, and naming the first missing or damaged file otherwise."""
    folder = Path(folder)
    record = read_manifest(folder / manifest)
    entries = checked_entries(folder, manifest, record["files"], names)
    for name, want, pending in entries:
        path = folder / name
        if _matches(path, want):
            continue
        if pending is not None and _matches(pending, want):
            os.replace(pending, path)
            fsync_dir(folder)
            continue
        if not path.exists():
            raise CheckpointError(
                f"{path}: missing; {folder / manifest} (the checkpoint's manifest) lists it, so the "
                "checkpoint cannot be resumed"
            )
        raise CheckpointError(
            f"{path}: damaged ({path.stat().st_size} bytes, not the {want.get('size')} bytes and "
            f"sha256 that {folder / manifest} records); the checkpoint cannot be resumed"
        )
    return record


def checked_entries(folder: Path, manifest: str, files: dict, names: Iterable[str]) -> list:
    """``[(name, record, pending path or None)]`` of a manifest's ``files``, each checked before anything is
    opened, renamed or deleted: its name one of ``names`` (plain file names the project writes, so never
    absolute, never with ``..`` or a folder), its record a table, its ``pending`` name, when given, exactly
    ``<name>.tmp-<pid>``, and neither file a link (the project writes none, and one could lead out of the
    folder). :class:`CheckpointError` naming the manifest and the first entry refused; nothing is changed."""
    allowed = set(names)
    where = folder / manifest
    entries = []
    for name, want in files.items():
        _check_member(where, name, allowed)
        if not isinstance(want, dict):
            raise CheckpointError(f"{where}: the entry of {name} is not a record of a file; cannot be resumed")
        pending = _checked_pending(where, name, want.get("pending"))
        pending_path = folder / pending if pending else None
        for path in (folder / name, pending_path):
            if path is not None and path.is_symlink():
                raise CheckpointError(
                    f"{path}: a symbolic link, listed by {where}; a checkpoint's files are never links (one could "
                    "lead out of the folder); refused, nothing changed"
                )
        entries.append((name, want, pending_path))
    return entries


def _check_member(where: Path, name, allowed: set) -> None:
    if name not in allowed or not is_plain_name(name):
        raise CheckpointError(
            f"{where}: lists the file {_shown(name)}, which is not one this checkpoint is made of "
            f"({', '.join(sorted(allowed))}); refused, nothing changed (a checkpoint folder names only its own files)"
        )


def _checked_pending(where: Path, name: str, pending) -> str | None:
    """``pending`` when it is None or exactly a temporary name of ``name`` (``<name>.tmp-<pid>``)."""
    if pending is None or (isinstance(pending, str) and re.fullmatch(re.escape(name) + r"\.tmp-\d{1,10}", pending)):
        return pending
    raise CheckpointError(
        f"{where}: names {_shown(pending)} as the temporary file of {name}, which is not a temporary name "
        f"of it ({name}.tmp-<pid>); refused, nothing changed"
    )


def is_plain_name(name) -> bool:
    """Whether ``name`` is one plain file name: a non-empty string with no folder separator, not ``.`` or
    ``..``, no NUL, at most 255 characters (what a name read from a file must be before it is joined to a
    folder)."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 255
        and name not in (".", "..")
        and not any(c in name for c in "/\\\0")
        and not re.match(r"^[A-Za-z]:", name)
    )


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:297] + "..."


def refuse_links_out(folder: str | Path) -> None:
    """Before a run folder is resumed (written into): :class:`CheckpointError` naming the first symbolic
    link in it, at any depth, that leads out of it, since what the trainer writes through such a link would
    land outside the folder. Links that stay inside are left alone; nothing is changed."""
    folder = Path(folder)
    root = folder.resolve()
    for here, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = Path(here) / name
            if path.is_symlink() and not _inside(path, root):
                raise CheckpointError(
                    f"{path}: a symbolic link that leads out of {folder} (to {_shown(os.readlink(path))}); a run "
                    "folder being resumed writes only inside itself, so it is refused; nothing changed"
                )


def _inside(link: Path, root: Path) -> bool:
    try:
        return link.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a loop of links
        return False


def _matches(path: Path, want: dict) -> bool:
    try:
        return path.is_file() and path.stat().st_size == want.get("size") and sha256_of(path) == want.get("sha256")
    except OSError:
        return False


# folders --------------------------------------------------------------------------------------------
def replace_folder(folder: str | Path, fill: Callable[[Path], object]) -> Path:
    """Replace the folder ``folder`` by the one ``fill(tmp)`` fills at a temporary name: every file in it
    fsynced, then the old folder renamed aside, the new one renamed into place, the old one removed. A kill
    between the two renames leaves no ``folder`` but ``<folder>.old-<pid>``: :func:`recover_folder`."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    old = folder.with_name(f"{folder.name}.old-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        fill(tmp)
        for root, _dirs, names in os.walk(tmp):
            for name in names:
                fsync_file(Path(root) / name)
            fsync_dir(root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    fsync_dir(folder.parent)
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        fault_point(f"before {folder.name}/ aside")
        os.replace(folder, old)
    fault_point(f"before {folder.name}/")
    os.replace(tmp, folder)
    fault_point(f"after {folder.name}/")
    fsync_dir(folder.parent)
    shutil.rmtree(old, ignore_errors=True)
    return folder


def recover_folder(folder: str | Path) -> bool:
    """Put back the previous ``folder`` when a kill left it aside during :func:`replace_folder`;
    whether one was put back."""
    folder = Path(folder)
    if folder.exists():
        return False
    aside = sorted(
        (p for p in folder.parent.glob(f"{glob_escape(folder.name)}.old-*") if p.is_dir() and not p.is_symlink()),
        key=lambda p: p.stat().st_mtime,
    )
    if not aside:
        return False
    os.replace(aside[-1], folder)
    fsync_dir(folder.parent)
    return True


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[\]])", r"[\1]", name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_temps(folder: str | Path) -> list[Path]:
    """Remove the temporary files and folders (``*.tmp-<pid>``, ``*.old-<pid>``) that killed processes
    left in ``folder`` (not its subfolders), after putting back a folder left aside
    (:func:`recover_folder`); those of live processes stay. Call it after :func:`open_set`, which may still
    need a checkpoint's files under their temporary names. Returns what was removed."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    for p in list(folder.iterdir()):
        m = _TEMP.search(p.name)
        if m and m.group(1) == "old" and not _alive(int(m.group(2))):
            recover_folder(p.parent / p.name[: m.start()])
    removed = []
    for p in list(folder.iterdir()):
        m = _TEMP.search(p.name)
        if not m or _alive(int(m.group(2))):
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        removed.append(p)
    return removed
