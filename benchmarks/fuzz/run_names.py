"""Run folders whose manifests and files name things outside them: the ``alphazero-names`` and
``ppo-names`` kinds of the surfaces campaign's run-folder part (:mod:`boardgames.benchmarks.fuzz.run_folders`).

A run folder may come from anyone (a shared drive, an archive), and resuming it must write only inside it
(issue 45). Each try copies a finished run folder (AlphaZero: the one-iteration run; PPO: the reference run,
resumed from ``checkpoints/model_256_steps.zip``), makes a **canary** folder beside it (outside the run
folder) holding known files (``.bashrc``, files named as the set's files, as their temporary names, as a
folder set aside, a subfolder), changes the folder in one or two ways at random, and resumes it with the
trainer's own command line in a forked child:

* a manifest entry (``checkpoint.json``; ``checkpoints/model_256_steps.json``) naming a file outside: an
  absolute path into the canary, a ``../`` chain reaching it (short, hundreds of levels past the root,
  ``sub/../`` mixed in, padded with ``./`` to 300 or 10,000 characters), with a temporary file in the folder
  holding a payload whose size and sha256 the entry records, so that only the name check stops the rename
  over the canary's file;
* an entry naming another file of the folder (``run.json``, ``strength.csv``, ``latest/alphazero.pt``,
  ``../final.zip``, the manifest itself), odd names (empty, ``.``, ``..``, ``~/.bashrc``, a trailing slash or
  space, another case, a drive letter, backslashes, a newline), names with NUL bytes, names of 300 and
  10,000 characters;
* an entry's ``pending`` (its temporary name) leading out: to a canary file whose size and sha256 the entry
  records (the rename would move the user's file), to another file of the set, or not quite a temporary
  name (no digits, 11 digits, a folder, a newline, 10,000 characters, NUL);
* values that are no names: ``pending``, an entry or ``files`` of another type (numbers, lists, tables,
  ``null``), the manifest a list, a string or JSON nested 100,000 deep;
* symbolic links: a file of the set, its pending file, the manifest, a run file (``strength.csv``,
  ``run.json``, ``final.zip``, ``latest/alphazero.pt``), a folder (``tb``, ``latest``, ``checkpoints``) or a new
  entry linked into the canary (dangling too), a loop of links, and links that stay inside the folder.

A try passes when the canary is exactly as it was (every name, link and byte; checked even after a
traceback) and the resume either refuses with exit status 2 and a message naming a file of the run folder,
or resumes to a consistent run equal to the uninterrupted one (the checks of
:func:`~boardgames.benchmarks.fuzz.run_folders.az_problems` and ``ppo_problems``). A change that names
something outside, or that is no name, must be refused (``hostile name accepted`` otherwise); a link that
stays inside must not be (``refused a harmless folder``); a loop of links may be either.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardgames.benchmarks.fuzz import run_folders as rf

PAYLOAD = b"echo 'this file was replaced by the author of a run folder'  # fuzz\n"
CANARY_FILES = (
    ".bashrc",
    "notes.txt",
    "checkpoint.pt",
    "buffer.npz",
    "model_256_steps.zip",
    "checkpoint.pt.tmp-4242",
    "model_256_steps.zip.tmp-4242",
    "keep.tmp-4242",
    "strength.csv",
    "sub/deep.txt",
    "latest.old-4242/alphazero.pt",
)
"""The files of a canary folder (named as what a trainer would write, rename, clear or put back, so that a
write led out of the run folder would change one)."""


class Skip(Exception):
    """A change not made: what it would write lies outside the run folder (an earlier change linked it out)."""


REFUSE, RESUME, EITHER = "refused", "resumed", "either"
"""What a change must come to: refused (it names something outside, or no name), resumed (harmless), either."""


def canary_bytes(name: str) -> bytes:
    return f"the user's own {name}, not the run's\n".encode() * (1 + len(name) % 5)


def fill_canary(folder: Path) -> None:
    for name in CANARY_FILES:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(canary_bytes(name))


def snapshot(folder: Path) -> dict:
    """Every entry under ``folder`` (itself included): ``relative name -> ("dir",) | ("link", target) |
    ("file", size, sha256)``; links are not followed."""
    state: dict[str, tuple] = {".": ("dir",) if folder.is_dir() and not folder.is_symlink() else ("missing",)}
    for here, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = Path(here) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                state[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                state[rel] = ("dir",)
            else:
                data = path.read_bytes()
                state[rel] = ("file", len(data), hashlib.sha256(data).hexdigest())
    return state


def changes(before: dict, after: dict) -> list:
    """What differs between two :func:`snapshot` s, as short phrases."""
    found = [f"{name} removed" for name in before if name not in after]
    found += [f"{name} added" for name in after if name not in before]
    found += [f"{name} changed" for name in before if name in after and before[name] != after[name]]
    return found


def sha(data: bytes) -> dict:
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


@dataclass
class Site:
    """Where a try works: the run folder, the folder of the manifest resumed and its name, the names of
    the set it lists, the canary folder, the random generator."""

    run: Path
    folder: Path
    manifest: str
    names: tuple
    canary: Path
    r: np.random.Generator
    az: bool

    def pick(self, options):
        return options[int(self.r.integers(len(options)))]

    def read(self) -> dict | None:
        try:
            record = json.loads((self.folder / self.manifest).read_text())
        except (OSError, ValueError, RecursionError):
            return None
        return record if isinstance(record, dict) and isinstance(record.get("files"), dict) else None

    def mine(self, path: Path) -> Path:
        """``path`` when its folder is inside the run folder; :class:`Skip` when an earlier change made it
        lead out (the fuzzer never writes into the canary itself)."""
        try:
            inside = path.parent.resolve().is_relative_to(self.run.resolve())
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise Skip(f"{path.parent} now leads out of the run folder")
        return path

    def put(self, path: Path, data: bytes) -> None:
        path = self.mine(path)
        if path.is_symlink():
            path.unlink()
        path.write_bytes(data)

    def write(self, record, text: str | None = None) -> None:
        self.put(self.folder / self.manifest, (json.dumps(record) if text is None else text).encode())

    def outside(self) -> tuple[Path, str]:
        """A canary file and a name for it as seen from the manifest's folder (absolute, ``../``, long...)."""
        target = self.canary / self.pick(CANARY_FILES[:5] + ("sub/deep.txt",))
        rel = os.path.relpath(target, self.folder)
        how = self.pick(["absolute", "relative", "deep", "mixed", "long", "long"])
        if how == "absolute":
            return target, str(target)
        if how == "relative":
            return target, rel
        if how == "deep":
            return target, "../" * int(self.r.integers(20, 400)) + str(target).lstrip("/")
        if how == "mixed":  # through a real folder of the run
            folders = sorted(p.name for p in self.folder.iterdir() if p.is_dir() and not p.is_symlink())
            return target, (f"{self.pick(folders)}/./../" if folders else "././") + rel
        length = int(self.pick([300, 10_000]))
        return target, "./" * ((length - len(rel)) // 2 + 1) + rel

    def plant(self, base: str | None = None) -> tuple[str, dict]:
        """A temporary file of a set file (``<name>.tmp-<pid>``) in the manifest's folder holding the payload;
        the entry that names it (size, sha256 and pending), which would rename it over whatever name the
        entry has."""
        pending = f"{base or self.pick(self.names)}.tmp-{int(self.r.integers(100, 10**6))}"
        self.put(self.folder / pending, PAYLOAD)
        return pending, {**sha(PAYLOAD), "pending": pending}

    def entry(self, files: dict, name, value) -> None:
        """Put ``name: value`` into ``files``: in the place of a set file's entry, or added."""
        if files and self.r.random() < 0.5:
            del files[self.pick(sorted(files))]
        files[name] = value

    def link(self, rel: str, target: Path | str) -> None:
        """Make ``rel`` (relative to the run folder) a symbolic link to ``target``, whatever it was."""
        path = self.mine(self.run / rel)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)


# ----- the changes: each (site) -> (what was done, what it must come to) -------------------------------
def name_outside(site: Site):
    record = site.read()
    if record is None:
        return "(manifest already unreadable)", EITHER
    target, name = site.outside()
    pending, value = site.plant()
    site.entry(record["files"], name, value)
    site.write(record)
    what = f"{site.manifest} lists {_show(name)} (the canary's {target.name}), pending {pending} holding a payload"
    return what, REFUSE


def name_inside(site: Site):
    record = site.read()
    if record is None:
        return "(manifest already unreadable)", EITHER
    if site.az:
        others = ["run.json", "strength.csv", "latest/alphazero.pt", "latest", "tb", site.manifest]
    else:
        others = ["../final.zip", "../run.json", "final.zip", "../strength.csv", site.manifest, "../checkpoints"]
    odd = [
        "",
        ".",
        "..",
        "~/.bashrc",
        "$HOME/.bashrc",
        f"{site.names[0]}/",
        f"./{site.names[0]}",
        f"{site.names[0]} ",
        site.names[0].upper(),
        f"C:{site.names[0]}",
        f"..\\..\\{site.names[0]}",
        f"{site.names[0]}\n",
        f"{site.names[0]}\x00/../../.bashrc",
        "\x00",
        f"{site.canary / '.bashrc'}\x00",
        "x" * 300,
        site.names[0] + "x" * 9_990,
        "\u2215etc\u2215passwd",
    ]
    name = site.pick(others if site.r.random() < 0.4 else odd)
    pending, value = site.plant()
    site.entry(record["files"], name, value)
    site.write(record)
    return f"{site.manifest} lists {_show(name)}, pending {pending} holding a payload", REFUSE


def pending_out(site: Site):
    record = site.read()
    if record is None:
        return "(manifest already unreadable)", EITHER
    name = site.pick(site.names)
    pick = site.r.random()
    if pick < 0.6:  # the canary's file, recorded: the rename would move the user's file into the run
        target, shown = site.outside()
        if site.r.random() < 0.3:
            target = site.canary / f"{name}.tmp-4242" if name in ("checkpoint.pt", "model_256_steps.zip") else target
            shown = str(target) if site.r.random() < 0.5 else os.path.relpath(target, site.folder)
        record["files"][name] = {**sha(target.read_bytes()), "pending": shown}
        what = f"{name}'s pending is {_show(shown)} (the canary's {target.name}, size and sha256 recorded)"
    else:
        other = [n for n in site.names if n != name]
        pending = site.pick(
            [
                *(other or [site.manifest]),
                f"{name}.tmp-",
                f"{name}.tmp-99999999999",
                f"{name}.tmp-12/x",
                f"{name}.tmp-12\n",
                f"{name}.tmp-" + "1" * 10_000,
                f"{name}.tmp-12\x00",
                f"x{name}.tmp-12",
            ]
        )
        path = site.folder / pending if "\x00" not in pending and len(pending) < 255 else None
        body = path.read_bytes() if path is not None and path.is_file() else PAYLOAD
        if path is not None and not path.exists() and "/" not in pending:
            site.put(path, body)
        record["files"][name] = {**sha(body), "pending": pending}
        what = f"{name}'s pending is {_show(pending)} (its size and sha256 recorded)"
    site.write(record)
    return what, REFUSE


def no_name(site: Site):
    record: Any = site.read()  # a manifest, replaced below by any value
    if record is None:
        return "(manifest already unreadable)", EITHER
    deep = "[" * 100_000 + "]" * 100_000
    values = [123, 1.5, True, None, [], {}, ["x"], {"a": 1}, "x", -1, 2**63, deep]
    value = site.pick(values)
    where = site.pick(["pending", "entry", "files", "manifest"])
    name = site.pick(site.names)
    if where == "pending":
        record["files"][name] = {**record["files"].get(name, {}), "pending": value}
    elif where == "entry":
        record["files"][name] = value
    elif where == "files":
        if value is None or value == {}:
            value = [[name, record["files"].get(name)]]
        record["files"] = value
    else:
        record = value if value not in (None, {}) else [record]
    site.write(None, json.dumps(record).replace(json.dumps(deep), deep))
    shown = "JSON nested 100,000 deep" if value is deep else _show(value)
    must = EITHER if where == "pending" and value is None else REFUSE  # no pending: a set already in place
    return f"{site.manifest}: {where if where != 'entry' else name + ' entry'} = {shown}", must


def links(site: Site):
    set_files = [str((site.folder / n).relative_to(site.run)) for n in site.names]
    manifest = str((site.folder / site.manifest).relative_to(site.run))
    pick = site.r.random()
    if pick < 0.12:  # a file of the set links into the canary, its content recorded
        rel = site.pick(set_files)
        target = site.canary / site.pick(CANARY_FILES[:5])
        record = site.read()
        if record is not None:
            name = Path(rel).name
            if site.r.random() < 0.5:
                record["files"][name] = {**sha(target.read_bytes())}
            else:  # or its pending holds the payload: the rename would replace the link's target if followed
                pending, record["files"][name] = site.plant(name)
            site.write(record)
        site.link(rel, target)
        return f"{rel} a link to the canary's {target.name}", REFUSE
    if pick < 0.22:  # the pending file is a link to the canary's file, recorded
        record = site.read()
        if record is None:
            return "(manifest already unreadable)", EITHER
        name = site.pick(site.names)
        target = site.canary / site.pick(CANARY_FILES[:5])
        pending = f"{name}.tmp-{int(site.r.integers(100, 10**6))}"
        record["files"][name] = {**sha(target.read_bytes()), "pending": pending}
        site.write(record)
        site.link(str((site.folder / pending).relative_to(site.run)), target)
        return f"{name}'s pending {pending} a link to the canary's {target.name}, recorded", REFUSE
    if pick < 0.3:
        site.link(manifest, site.canary / ".bashrc")
        return f"{manifest} a link to the canary's .bashrc", REFUSE
    if pick < 0.55:  # a folder of the run
        rel = site.pick(["tb", "latest"] if site.az else ["tb", "checkpoints", "tb/run_1"])
        target = site.pick([site.canary, site.canary / "sub", site.canary / "latest.old-4242"])
        site.link(rel, target)
        return f"{rel}/ a link to the canary folder {target.relative_to(site.canary.parent)}", REFUSE
    if pick < 0.75:  # a run file, or a new entry, into the canary (sometimes to nothing there yet)
        files = ["strength.csv", "run.json", "latest/alphazero.pt", "latest/alphazero.json", "evil"]
        if not site.az:
            files = ["strength.csv", "run.json", "final.zip", "final.json", "results.png", "checkpoints/evil"]
        rel = site.pick(files)
        target = site.canary / site.pick([*CANARY_FILES[:5], "strength.csv", "nothing-yet.csv"])
        site.link(rel, target if site.r.random() < 0.5 else os.path.relpath(target, (site.run / rel).parent))
        return f"{rel} a link to the canary's {target.name}", REFUSE
    if pick < 0.82:
        site.link("loop-a", "loop-b")
        site.link("loop-b", "loop-a")
        return "loop-a and loop-b links to each other", EITHER
    # links that stay inside the folder
    inside = [("tb-link", "tb"), ("notes", "run.json"), ("checkpoints/again", "."), ("strength-copy", "strength.csv")]
    rel, target = site.pick(inside)
    site.link(rel, target)
    return f"{rel} a link to {target} (inside the folder)", RESUME


CHANGES = {
    "name outside": name_outside,
    "name inside": name_inside,
    "pending": pending_out,
    "no name": no_name,
    "links": links,
}
WEIGHTS = (0.3, 0.2, 0.15, 0.1, 0.25)


def names_try(kind: str, seed: int, refs, work: Path, forced: tuple | None = None) -> tuple[str, list, str]:
    """A run folder changed as seed ``seed`` says (or by the changes ``forced``, names of :data:`CHANGES`),
    resumed with a canary folder beside it; ``(outcome, problems, what was done)``."""
    r = np.random.default_rng(seed)
    az = kind.startswith("alphazero")
    run = work / f"{kind}-{seed}"
    canary = work / f"canary-{kind}-{seed}"
    for folder in (run, canary):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(refs.az_base if az else refs.ppo_ref, run, symlinks=True)
    fill_canary(canary)
    before = snapshot(canary)
    if az:
        site = Site(run, run, "checkpoint.json", rf.AZ_SET, canary, r, True)
    else:
        folder, name = run / Path(rf.PPO_CHECKPOINT).parent, Path(rf.PPO_CHECKPOINT).name
        site = Site(run, folder, f"{name}.json", (f"{name}.zip",), canary, r, False)
    names = forced or [str(r.choice(list(CHANGES), p=WEIGHTS)) for _ in range(int(r.choice([1, 1, 2])))]
    done, musts = [], []
    for change in names:
        try:
            what, must = CHANGES[change](site)
        except Skip as e:
            what, must = f"({change} not made: {e})", EITHER
        done.append(what)
        musts.append(must)
    must = REFUSE if REFUSE in musts else EITHER if EITHER in musts else RESUME
    what = "; ".join(done)
    output = work / f"{kind}-{seed}.out"
    output.unlink(missing_ok=True)
    if az:  # resumed as a user resumes a folder: with --resume, whatever the folder holds
        result = rf.run_trainer(rf._az_main, rf.az_args(run, resume=True), output)
    else:
        result = rf.run_trainer(rf._ppo_main, rf.ppo_args(run, run / f"{rf.PPO_CHECKPOINT}.zip"), output)
    problems = []
    touched = changes(before, snapshot(canary))
    if touched:
        problems.append(("canary touched", f"the folder outside the run changed: {', '.join(touched[:6])}"))
    if result.status == 0:
        outcome = "resumed"
        if must == REFUSE:
            problems.append(("hostile name accepted", "resumed although the folder names something outside or no name"))
        found = rf.az_problems(refs.az_ref, run, True, True) if az else rf.ppo_problems(refs.ppo_ref, run, True)
        problems += [("inconsistent", p) for p in found]
    elif result.status == 2:
        outcome = "refused"
        problem = rf._refusal(result, output, run)
        if problem:
            problems.append(("refusal", problem))
        if must == RESUME:
            problems.append(("refused a harmless folder", f"links inside the folder only: {rf._tail(output, 2)}"))
    else:
        outcome = "hang" if result.timed_out else "traceback"
        problems.append((outcome, rf._status_problem(result, output)))
    if not problems:
        for folder in (run, canary):
            shutil.rmtree(folder, ignore_errors=True)
        output.unlink(missing_ok=True)
    return outcome, problems, what


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 90 else f"{text[:60]}...({len(text)} characters)"
