"""Signed run folders: a checkpoint that must be unpickled is restored only when this user's runs wrote it.

Restoring an RLlib checkpoint (``boardgames rllib --resume DIR``: RLlib's ``restore_from_path`` of
``DIR/checkpoint``) unpickles its files, and unpickling runs whatever code the file's author chose. A run
folder from someone else (a shared drive, an archive, a pull request) must therefore never reach Ray. So
every checkpoint folder a run writes is signed, and a resume checks the signature before Ray sees the
folder:

* **the key**: 32 random bytes (64 hex digits) in ``run-key`` in the user's configuration folder
  (:func:`config_dir`: ``$BOARDGAMES_CONFIG_DIR``, else ``%APPDATA%\\boardgames`` on Windows, else
  ``$XDG_CONFIG_HOME/boardgames``, else ``~/.config/boardgames``), made on first use: written to a
  temporary file created with mode 0600 (the folder 0700), fsynced and linked into place, so that two runs
  starting at once end with the same key and a kill never leaves a part of one. A key that others may
  read, or that is damaged, is refused with a message saying what to do.
* **the signature**: :data:`SIGNATURE_NAME` inside the checkpoint folder, a JSON record of every file
  (relative path, size, sha256) and every folder under it, and the HMAC-SHA256 of that record under the
  key (:func:`sign_folder`). :func:`replace_signed_folder` signs the new folder before
  :func:`boardgames.training.storage.durable.replace_folder` swaps it in, so a checkpoint and its
  signature appear together: a kill at any moment leaves the old signed folder or the new signed one.
* **the check**: :func:`restorable` copies the folder into a private temporary folder while it hashes
  what it copies, and hands Ray that copy only when the copy is exactly what was signed with this user's
  key: no symbolic link, nothing but plain files and folders, no file added, removed or changed. What Ray
  reads is therefore what was checked, even if the run folder changes meanwhile. Anything else raises
  :class:`UnsignedCheckpointError` (a :class:`~boardgames.training.settings.SettingError`: the command
  prints it and exits with status 2) saying why and naming :data:`TRUST_FLAG`, which restores the folder as
  it is, for a run the user wrote before checkpoints were signed or on another account or machine.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import reprlib
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from boardgames.training.storage.durable import (
    CheckpointError,
    fault_point,
    fsync_dir,
    replace_folder,
    write_json,
)

CONFIG_ENV = "BOARDGAMES_CONFIG_DIR"
"""The environment variable naming the configuration folder that holds the key (tests point it at a
temporary folder)."""
KEY_NAME = "run-key"
SIGNATURE_NAME = "boardgames-signature.json"
TRUST_FLAG = "--trust-checkpoint"
SIGNATURE_FORMAT = 1
PURPOSE = "boardgames checkpoint folder"
"""Signed with the record, so that a signature made for something else never stands for a checkpoint."""
MAX_SIGNATURE_BYTES = 32 << 20
MAX_ENTRIES = 200_000
"""At most this many files and folders in a signed folder (a checkpoint has tens)."""
_KEY_HEX = 64
_NO_ROOM = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EROFS}


class UnsignedCheckpointError(CheckpointError):
    """A checkpoint folder that this user's runs did not sign (or that changed since): not restored.
    The message says why and names :data:`TRUST_FLAG`."""


# the key --------------------------------------------------------------------------------------------
def config_dir() -> Path:
    """The user's configuration folder of the library: ``$BOARDGAMES_CONFIG_DIR``, else
    ``%APPDATA%\\boardgames`` on Windows, else ``$XDG_CONFIG_HOME/boardgames`` (when it is an absolute
    path, as the XDG specification asks), else ``~/.config/boardgames``."""
    named = os.environ.get(CONFIG_ENV)
    if named:
        return Path(named).expanduser()
    if os.name == "nt":
        base = os.environ.get("APPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Roaming")
        return Path(base) / "boardgames"
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "boardgames"


def key_path() -> Path:
    """Where this user's key is: ``<config_dir()>/run-key``."""
    return config_dir() / KEY_NAME


def run_key(create: bool = True) -> bytes:
    """This user's key (made first when there is none and ``create``); :class:`CheckpointError` naming the
    file when it cannot be made or read, is damaged, or may be read by others."""
    path = key_path()
    if not path.exists() and not path.is_symlink():
        if not create:
            raise CheckpointError(f"{path}: no key of this user's runs there")
        _make_key(path)
    try:
        info = path.stat()
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointError(f"{path}: this user's run key cannot be read ({type(e).__name__}: {e})") from None
    if os.name != "nt" and (info.st_mode & 0o077 or info.st_uid != os.getuid()):
        raise CheckpointError(
            f"{path}: this user's run key may be read or changed by others (mode {stat.filemode(info.st_mode)}, "
            f"owner {info.st_uid}); anyone who reads it can sign a checkpoint this user would then restore. "
            f"Make it yours alone (chmod 600 {path}) or remove it to make a new one (checkpoints signed "
            f"with the old key then need {TRUST_FLAG})"
        )
    if len(text) != _KEY_HEX or any(c not in "0123456789abcdef" for c in text):
        raise CheckpointError(
            f"{path}: this user's run key is damaged (not {_KEY_HEX} hex digits); remove it to make a new one "
            f"(checkpoints signed with the old key then need {TRUST_FLAG})"
        )
    return bytes.fromhex(text)


def _make_key(path: Path) -> None:
    """Write a new key at ``path`` unless another process does first (then that one is kept)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(_KEY_HEX // 2) + "\n")
                f.flush()
                os.fsync(f.fileno())
            fault_point(f"before {path.name}")
            try:
                os.link(tmp, path)  # fails when another process made the key first: its key is kept
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links
                if not path.exists():
                    os.replace(tmp, path)
            fault_point(f"after {path.name}")
            fsync_dir(path.parent)
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as e:
        raise CheckpointError(f"{path}: this user's run key cannot be made ({type(e).__name__}: {e})") from None


def key_id(key: bytes) -> str:
    """A short name of ``key`` that tells keys apart and reveals nothing of it."""
    return hashlib.sha256(b"boardgames run key id\0" + key).hexdigest()[:16]


# signing --------------------------------------------------------------------------------------------
def listing(folder: str | Path) -> dict:
    """``{"files": {path: {"size", "sha256"}}, "folders": [path]}`` of everything under ``folder`` (paths
    relative, ``/``-separated; the signature file itself left out); :class:`CheckpointError` for a symbolic
    link or anything that is not a plain file or folder."""
    folder = Path(folder)
    files, folders = {}, []
    for rel, path, kind in _walk(folder, lambda why: CheckpointError(f"{folder}: cannot be signed: {why}")):
        if kind == "dir":
            folders.append(rel)
        else:
            with open(path, "rb") as f:
                files[rel] = _record_of(f, None)
    return {"files": files, "folders": sorted(folders)}


def sign_folder(folder: str | Path, key: bytes | None = None) -> dict:
    """Sign the folder ``folder`` with ``key`` (this user's key when None): write :data:`SIGNATURE_NAME`
    in it, durably. Returns the signature."""
    folder = Path(folder)
    key = run_key() if key is None else key
    record = {"format": SIGNATURE_FORMAT, "purpose": PURPOSE, "key_id": key_id(key), **listing(folder)}
    record["hmac"] = _mac(key, record)
    write_json(folder / SIGNATURE_NAME, record, indent=0)
    return record


def replace_signed_folder(folder: str | Path, fill: Callable[[Path], object], key: bytes | None = None) -> Path:
    """:func:`~boardgames.training.storage.durable.replace_folder` of the folder ``fill(tmp)`` fills, signed
    (:func:`sign_folder`) before it is swapped in."""
    key = run_key() if key is None else key

    def fill_and_sign(tmp: Path) -> None:
        fill(tmp)
        sign_folder(tmp, key)

    return replace_folder(folder, fill_and_sign)


def _mac(key: bytes, record: dict) -> str:
    signed = {k: record.get(k) for k in ("format", "purpose", "key_id", "files", "folders")}
    message = json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


# checking -------------------------------------------------------------------------------------------
def check_folder(folder: str | Path, key: bytes | None = None) -> dict:
    """The signature of ``folder`` when ``folder`` is exactly what this user's key signed; otherwise
    :class:`UnsignedCheckpointError` saying why. Nothing is changed."""
    folder = Path(folder)
    record = _signature(folder, run_key() if key is None else key)
    _compare(folder, record, None)
    return record


@contextlib.contextmanager
def restorable(folder: str | Path, trusted: bool = False, key: bytes | None = None) -> Iterator[Path]:
    """``with restorable(folder) as path:`` the folder to hand to the unpickling loader: a private copy of
    ``folder`` checked against its signature while it is copied (removed after the block), or with
    ``trusted`` (the user passed :data:`TRUST_FLAG`) ``folder`` itself, unchecked."""
    folder = Path(folder)
    if trusted:
        yield folder
        return
    record = _signature(folder, run_key() if key is None else key)
    try:
        copy = Path(tempfile.mkdtemp(prefix="boardgames-checked-"))  # 0700, in the system's temporary folder
    except OSError as e:
        raise _no_room(folder, tempfile.gettempdir(), e) from None
    try:
        _compare(folder, record, copy)
        yield copy
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _signature(folder: Path, key: bytes) -> dict:
    """The signature record of ``folder``, made with ``key`` (checked), or the refusal."""
    if folder.is_symlink():
        raise _refusal(folder, f"it is a symbolic link (to {_shown(os.readlink(folder))})")
    if not folder.is_dir():
        raise _refusal(folder, "it is not a folder")
    path = folder / SIGNATURE_NAME
    if path.is_symlink() or not path.exists():
        raise _refusal(
            folder,
            f"it has no signature ({SIGNATURE_NAME}): this user's runs did not write it, or wrote it before "
            "checkpoints were signed",
        )
    try:
        if not path.is_file() or path.stat().st_size > MAX_SIGNATURE_BYTES:
            raise ValueError(f"not a file of at most {MAX_SIGNATURE_BYTES} bytes")
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError, RecursionError) as e:
        raise _refusal(folder, f"its signature {SIGNATURE_NAME} cannot be read ({type(e).__name__}: {e})") from None
    if record.get("key_id") != key_id(key) or record.get("purpose") != PURPOSE:
        raise _refusal(
            folder,
            f"it was signed with another key than this user's ({key_path()}): another account or machine "
            "wrote it, or someone else",
        )
    if not isinstance(record.get("hmac"), str) or not hmac.compare_digest(record["hmac"], _mac(key, record)):
        raise _refusal(folder, f"its signature {SIGNATURE_NAME} does not match its content: it was altered")
    files, folders = record.get("files"), record.get("folders")
    if (
        record.get("format") != SIGNATURE_FORMAT
        or not isinstance(files, dict)
        or not isinstance(folders, list)
        or not all(isinstance(name, str) for name in folders)
        or not all(isinstance(r, dict) for r in files.values())
    ):
        raise _refusal(folder, f"its signature {SIGNATURE_NAME} is of a format this version does not know")
    return record


def _compare(folder: Path, record: dict, copy: Path | None) -> None:
    """Refuse ``folder`` unless its files and folders are exactly those of ``record``; with ``copy``, copy
    each file there while it is hashed (what is compared is what was copied)."""
    try:
        _compare_entries(folder, record, copy)
    except OSError as e:
        if copy is not None and (e.errno in _NO_ROOM or str(e.filename or "").startswith(str(copy))):
            raise _no_room(folder, copy, e) from None
        # unreadable, or changed into a link while it was read
        raise _refusal(folder, f"it cannot be read as it was signed ({type(e).__name__}: {e})") from None


def _compare_entries(folder: Path, record: dict, copy: Path | None) -> None:
    files, folders = dict(record["files"]), set(record["folders"])
    for rel, path, kind in _walk(folder, lambda why: _refusal(folder, why)):
        if kind == "dir":
            if rel not in folders:
                raise _refusal(folder, f"the folder {_shown(rel)} in it was not signed (added since)")
            folders.discard(rel)
            if copy is not None:
                (copy / rel).mkdir()
            continue
        want = files.pop(rel, None)
        if want is None:
            raise _refusal(folder, f"the file {_shown(rel)} in it was not signed (added since)")
        with _open_plain(path) as f:
            if os.fstat(f.fileno()).st_size != want.get("size"):
                raise _refusal(folder, f"its file {_shown(rel)} changed since it was signed (another size)")
            if copy is None:
                got = _record_of(f, None)
            else:
                with open(copy / rel, "xb") as out:
                    got = _record_of(f, out)
        if got != {"size": want.get("size"), "sha256": want.get("sha256")}:
            raise _refusal(folder, f"its file {_shown(rel)} changed since it was signed (another sha256)")
    missing = sorted(files) + sorted(folders)
    if missing:
        raise _refusal(folder, f"{_shown(missing[0])}, signed, is missing from it")


def _walk(folder: Path, refuse: Callable[[str], Exception]) -> Iterator[tuple[str, Path, str]]:
    """``(relative path, path, "dir" | "file")`` of everything under ``folder``, parents before children,
    the top-level signature file left out; ``refuse(why)`` is raised for a symbolic link, anything else that
    is not a plain file or folder, or more than :data:`MAX_ENTRIES` entries."""
    count = 0
    stack = [(folder, "")]
    while stack:
        here, prefix = stack.pop()
        with os.scandir(here) as entries:
            found = sorted(entries, key=lambda e: e.name)
        for entry in found:
            rel = prefix + entry.name
            if rel == SIGNATURE_NAME:
                continue
            count += 1
            if count > MAX_ENTRIES:
                raise refuse(f"it holds more than {MAX_ENTRIES} files and folders")
            if entry.is_symlink():
                target = _shown(os.readlink(entry.path))
                raise refuse(f"{_shown(rel)} in it is a symbolic link (to {target}), never signed")
            if entry.is_dir(follow_symlinks=False):
                yield rel, Path(entry.path), "dir"
                stack.append((Path(entry.path), rel + "/"))
            elif entry.is_file(follow_symlinks=False):
                yield rel, Path(entry.path), "file"
            else:
                raise refuse(f"{_shown(rel)} in it is not a plain file or folder")


@contextlib.contextmanager
def _open_plain(path: Path):
    """``path`` opened for reading without following a link at its end (where the system can), checked to
    be a plain file once open."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a plain file")
        yield f


def _record_of(f, out) -> dict:
    """``{"size", "sha256"}`` of what is read from ``f`` to its end, written to ``out`` too when given."""
    h, size = hashlib.sha256(), 0
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
        size += len(block)
        if out is not None:
            out.write(block)
    return {"size": size, "sha256": h.hexdigest()}


def _no_room(folder: Path, where, e: OSError) -> CheckpointError:
    return CheckpointError(
        f"{folder}: cannot be copied into {where} to be checked before it is restored ({type(e).__name__}: {e}); "
        "set TMPDIR to a folder of your own with room for it"
    )


def _refusal(folder: Path, why: str) -> UnsignedCheckpointError:
    return UnsignedCheckpointError(
        f"{folder}: not restored: {why}. Restoring this checkpoint unpickles it, which runs any code its "
        f"author put there, so only checkpoints signed with this user's key ({key_path()}) are restored. If you "
        f"wrote this run yourself (before checkpoints were signed, or on another account or machine), pass "
        f"{TRUST_FLAG} to restore it as it is"
    )


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 80
_shown = _repr.repr
