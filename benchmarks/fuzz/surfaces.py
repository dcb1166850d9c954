"""The surfaces campaign: model files, training run folders and the web server, fuzzed within a time
bound (``python -m boardgames.benchmarks.fuzz --surfaces --seconds 300``).

Three parts, each with its kinds of try (docs/reliability.md lists what each covers and its figures):

* ``models`` (:mod:`boardgames.benchmarks.fuzz.model_files`): ``sb3``, ``alphazero``, ``rllib``: a shipped model's
  copy mutated (bytes, zip entries, JSON fields, torch content, SB3's plain ``data`` values, entry sizes:
  :mod:`boardgames.benchmarks.fuzz.bombs`), loaded by its loader and by ``make_agent`` in a bounded child that
  watches what it imports, one move played;
* ``runs`` (:mod:`boardgames.benchmarks.fuzz.run_folders`): ``alphazero-damage``, ``alphazero-kill``, ``ppo-damage``,
  ``ppo-kill``: tiny training runs damaged or killed at a write point, then resumed; ``alphazero-names``,
  ``ppo-names`` (:mod:`boardgames.benchmarks.fuzz.run_names`): run folders whose manifests and links name things
  outside them, resumed beside a canary folder that must stay untouched;
* ``server`` (:mod:`boardgames.benchmarks.fuzz.web_server`): ``requests`` and ``games``: malformed requests sent to
  a loopback server while live games are played on it.

``--seconds`` bounds the whole campaign (the parts share it: models 35%, runs 40%, server 25%, their
set-up included; every kind gets at least one try); ``--kinds`` narrows the models and runs parts to some
of their kinds. Each try has its own seed, drawn from ``--seed``, the
part and the kind, printed with its failures: ``python -m boardgames.benchmarks.fuzz --replay <part> <kind> <seed>``
does that try again and prints what happened (for the server the kind names the config too:
``request@barc``, ``game@barc``, or ``session@barc`` for what a whole session checks). The counts per part
and kind (tries, outcomes, failures, failed checks by cause) print as a table; the exit status is 1 when
any try failed.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import sys
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from boardgames.benchmarks.fuzz.report import MAX_EXAMPLES, PER_KIND, Failure, print_failures

PARTS = {
    "models": ("sb3", "alphazero", "rllib"),
    "runs": ("alphazero-damage", "alphazero-kill", "ppo-damage", "ppo-kill", "alphazero-names", "ppo-names"),
    "server": ("requests", "games"),
}
SHARES = {"models": 0.35, "runs": 0.4, "server": 0.25}
"""Each part's share of ``--seconds``."""
MAX_NOTES = 12


@dataclass
class SurfaceFailure(Failure):
    """A failed try: the part (``config``), the kind (``path``), the try's seed, what was checked and what
    went wrong, what was done (``input``: the mutation, the damage, the request) and where (``position``)."""

    _LABELS = ("what", "where")

    def reproducer(self) -> str:
        kind = self.position if self.config == "server" else self.path
        return f"python -m boardgames.benchmarks.fuzz --replay {self.config} {kind} {self.seed}"


@dataclass
class SurfaceTally:
    """The counts of one kind of try: tries, what they came to (``outcomes``: loaded, refused with which
    error, resumed, answered with which status...), failures (the first few of each kind kept, all
    counted), seconds, and notes (things seen that are not failures)."""

    part: str
    kind: str
    tries: int = 0
    outcomes: dict = field(default_factory=dict)
    failures: int = 0
    seconds: float = 0.0
    examples: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    causes: dict = field(default_factory=dict)  # failed checks by check and place ("make_agent: crash at x.py:29")

    def count(self, outcome: str, n: int = 1) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + n

    def note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES and text not in self.notes:
            self.notes.append(text)

    def record(self, failure: SurfaceFailure, new_try: bool = True) -> None:
        """Keep ``failure`` (the first few of each kind); ``new_try``: the first problem of its try, which
        counts the try as failed."""
        self.failures += int(new_try)
        found = re.findall(r"\(at ([^()]+?):\d+\)|^\w+ from (\S+?):\d+,", failure.problem)
        found = [a or b for a, b in found]
        cause = f"{failure.check} at {found[-1]}" if found else failure.check
        self.causes[cause] = self.causes.get(cause, 0) + 1
        same = sum(1 for f in self.examples if (f.check, f.problem[:50]) == (failure.check, failure.problem[:50]))
        if len(self.examples) < MAX_EXAMPLES and same < PER_KIND:
            self.examples.append(failure)

    def to_dict(self) -> dict:
        return {**asdict(self), "examples": [asdict(f) for f in self.examples]}


def run_folder_try(kind: str, seed: int, refs, work: Path) -> tuple[str, list, str]:
    """One try of a run-folder kind: the names kinds in :mod:`~boardgames.benchmarks.fuzz.run_names` (which
    builds on :mod:`~boardgames.benchmarks.fuzz.run_folders`), the others in ``run_folders``."""
    from boardgames.benchmarks.fuzz import run_folders, run_names

    if kind.endswith("names"):
        return run_names.names_try(kind, seed, refs, work)
    return run_folders.run_try(kind, seed, refs, work)


def _short(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def record_failure(
    tally: SurfaceTally, seed: int, check: str, problem: str, where: str, what: str, new_try: bool = True
) -> None:
    failure = SurfaceFailure(
        tally.part, tally.kind, int(seed), check, _short(problem), _short(where, 200), _short(what)
    )
    tally.record(failure, new_try)


def record_problems(tally: SurfaceTally, seed: int, problems: list, where: str, what: str) -> None:
    """Each ``(check, problem)`` of one try as a failure of ``tally``, the try counted once."""
    for i, (check, problem) in enumerate(problems):
        record_failure(tally, seed, check, problem, where, what, new_try=i == 0)


def _seeds(seed: int, part: str, kind: str):
    rng = np.random.default_rng([seed, zlib.crc32(part.encode()), zlib.crc32(kind.encode())])
    while True:
        yield int(rng.integers(2**31))


class _Progress:
    """A line every few seconds: tries and failures so far (silent when off)."""

    def __init__(self, on: bool):
        self.on, self.last = on, 0.0

    def update(self, tallies: list, force: bool = False) -> None:
        if self.on and (force or time.monotonic() - self.last > 10):
            self.last = time.monotonic()
            text = ", ".join(f"{t.part}/{t.kind} {t.tries}" for t in tallies)
            print(f"surfaces: {text}; {sum(t.failures for t in tallies)} failures", flush=True)


# ----- the parts ---------------------------------------------------------------------------------------
def _round_robin(
    part: str, kinds: tuple, deadline: float, seed: int, tries: int | None, one_try, tallies, progress
) -> None:
    """Tries of every kind in turn until ``deadline`` (every kind at least once) or ``tries`` each."""
    mine = [SurfaceTally(part, k) for k in kinds]
    tallies.extend(mine)
    seeds = {k: _seeds(seed, part, k) for k in kinds}
    while True:
        for tally in mine:
            started = time.perf_counter()
            one_try(tally, next(seeds[tally.kind]))
            tally.tries += 1
            tally.seconds += time.perf_counter() - started
        progress.update(tallies)
        if (tries is not None and mine[0].tries >= tries) or (tries is None and time.monotonic() > deadline):
            return


def models_part(root: Path, deadline: float, seed: int, tries, tallies, progress, sources=None) -> None:
    """The model-file tries, from ``sources`` (a warmed-up :class:`~boardgames.benchmarks.fuzz.model_files.Sources`, or
    the names to copy: kind -> shipped models; default :data:`~boardgames.benchmarks.fuzz.model_files.SOURCES`)."""
    from boardgames.benchmarks.fuzz import model_files

    if not isinstance(sources, model_files.Sources):
        sources = model_files.Sources(root, sources)
        model_files.warm_up(sources)
    work = root / "work"
    work.mkdir(parents=True, exist_ok=True)

    def one(tally, try_seed):
        outcome, problems, plan = model_files.run_try(tally.kind, try_seed, sources, work)
        tally.count(outcome)
        where = f"a copy of models/{plan['source']}; make_agent({'game' if plan['with_game'] else 'no game'})"
        record_problems(tally, try_seed, problems, where, "; ".join(plan["mutations"]))

    _round_robin("models", tuple(sources.names), deadline, seed, tries, one, tallies, progress)


def runs_part(root: Path, deadline: float, seed: int, tries, tallies, progress, kinds=None, refs=None) -> None:
    """The run-folder tries of ``kinds`` (default all), from ``refs`` (the reference runs; made here by
    default)."""
    from boardgames.benchmarks.fuzz import run_folders

    kinds = tuple(kinds or run_folders.KINDS)
    refs = refs or run_folders.References(root / "refs", kinds)
    work = root / "work"
    work.mkdir(parents=True, exist_ok=True)

    def one(tally, try_seed):
        outcome, problems, what = run_folder_try(tally.kind, try_seed, refs, work)
        tally.count(outcome)
        trainer = (
            "boardgames.training.alphazero" if tally.kind.startswith("alphazero") else "boardgames.training.sb3.train"
        )
        record_problems(tally, try_seed, problems, f"a tiny Dorix run ({trainer})", what)

    _round_robin("runs", kinds, deadline, seed, tries, one, tallies, progress)


def server_part(deadline: float, seed: int, tries, tallies, progress, games=None) -> None:
    """Server sessions of the configs ``games`` (default :data:`~boardgames.benchmarks.fuzz.web_server.GAMES`, as
    many as the time allows at about 25 s each), ``tries`` requests each when given."""
    from boardgames.benchmarks.fuzz import web_server

    requests, played = SurfaceTally("server", "requests"), SurfaceTally("server", "games")
    tallies += [requests, played]
    labels = list(games or web_server.GAMES)
    budget = max(0.0, deadline - time.monotonic())
    sessions = labels[: max(1, min(len(labels), int(budget // 25)))]
    for i, label in enumerate(sessions):
        started = time.perf_counter()
        left = max(5.0, (deadline - time.monotonic()) / (len(sessions) - i))
        web_server.session(label, left, seed + i, tries, requests, played, record_failure)
        requests.seconds += time.perf_counter() - started
        progress.update(tallies)


def surfaces(
    parts=None,
    seconds: float = 300.0,
    seed: int = 0,
    tries: int | None = None,
    progress: bool = False,
    options: dict | None = None,
) -> list[SurfaceTally]:
    """Run the campaign: ``parts`` (default all) within ``seconds`` in all, or ``tries`` tries of each kind
    (``requests`` per server session) when given; ``options`` narrow a part for short runs: ``sources``
    (models: kind -> shipped model names), ``run_kinds``, ``server_games``. The tallies per part and kind."""
    parts = list(parts or PARTS)
    options = options or {}
    import torch

    torch.set_num_threads(1)  # the children are forked: one thread, and the machine shared
    root = Path(tempfile.mkdtemp(prefix="boardgames-surfaces-"))
    tallies: list = []
    bar = _Progress(progress)
    total = sum(SHARES[p] for p in parts)
    start = time.monotonic()
    spent = 0.0
    try:
        for part in parts:
            spent += SHARES[part] / total
            deadline = start + seconds * spent
            if part == "models":
                models_part(root / "models", deadline, seed, tries, tallies, bar, options.get("sources"))
            elif part == "runs":
                runs_part(root / "runs", deadline, seed, tries, tallies, bar, options.get("run_kinds"))
            else:
                server_part(deadline, seed, tries, tallies, bar, options.get("server_games"))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    bar.update(tallies, force=True)
    return tallies


def format_table(tallies: list) -> str:
    """One row per part and kind: tries, failures, seconds, and what the tries came to."""
    head = f"{'part':<7} {'kind':<17} {'tries':>7} {'failures':>8} {'seconds':>8}  outcomes"
    rows = [head, "-" * len(head)]
    for t in tallies:
        outcomes = ", ".join(f"{k} {v:,}" for k, v in sorted(t.outcomes.items(), key=lambda kv: -kv[1]))
        rows.append(f"{t.part:<7} {t.kind:<17} {t.tries:>7,} {t.failures:>8,} {t.seconds:>8.1f}  {outcomes}")
    rows.append("-" * len(head))
    rows.append(
        f"{'total':<7} {'':<17} {sum(t.tries for t in tallies):>7,} {sum(t.failures for t in tallies):>8,} "
        f"{sum(t.seconds for t in tallies):>8.1f}"
    )
    return "\n".join(rows)


def save(out: str, tallies: list, settings: dict) -> None:
    data = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        **settings,
        "tallies": [t.to_dict() for t in tallies],
    }
    with open(out + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(out + ".tmp", out)


def narrowed(parts, kinds) -> tuple[list | None, dict]:
    """``(parts, options)`` of :func:`surfaces` for ``--parts`` and ``--kinds`` (kinds of the models and runs
    parts; without ``--parts``, the parts those kinds are of)."""
    if not kinds:
        return parts, {}
    from boardgames.benchmarks.fuzz import model_files, run_folders

    known = model_files.KINDS + run_folders.KINDS
    unknown = [k for k in kinds if k not in known]
    if unknown:
        raise SystemExit(f"--kinds: unknown {' '.join(unknown)}; kinds: {' '.join(known)}")
    options: dict[str, object] = {}
    if any(k in model_files.KINDS for k in kinds):
        options["sources"] = {k: model_files.SOURCES[k] for k in kinds if k in model_files.KINDS}
    if any(k in run_folders.KINDS for k in kinds):
        options["run_kinds"] = [k for k in kinds if k in run_folders.KINDS]
    return parts or [p for p in PARTS if any(k in PARTS[p] for k in kinds)], options


def main(args) -> int:
    """``python -m boardgames.benchmarks.fuzz --surfaces`` (the arguments parsed by
    :func:`boardgames.benchmarks.fuzz.run.main`)."""
    start = time.perf_counter()
    parts, options = narrowed(args.parts, getattr(args, "kinds", None))
    tallies = surfaces(parts, args.seconds, args.seed, progress=not args.no_progress, options=options)
    wall = time.perf_counter() - start
    print(format_table(tallies))
    print(f"wall time {wall:.0f} s (seed {args.seed}, --seconds {args.seconds:g})")
    causes = [(n, t.part, t.kind, cause) for t in tallies for cause, n in t.causes.items()]
    if causes:
        print("\nfailed checks by cause:")
        for n, part, kind, cause in sorted(causes, key=lambda c: (c[1], c[2], -c[0])):
            print(f"  {part}/{kind}: {n:,} x {cause}")
    notes = [n for t in tallies for n in t.notes]
    for text in notes:
        print(f"note: {text}")
    if args.out:
        settings = {"seed": args.seed, "seconds": args.seconds, "wall_seconds": round(wall, 1)}
        save(args.out, tallies, {**settings, **({"kinds": args.kinds} if getattr(args, "kinds", None) else {})})
    return print_failures(tallies)


# ----- doing one try again -----------------------------------------------------------------------------
def replay(part: str, kind: str, seed: int) -> int:
    """Do the try of seed ``seed`` again, printing what happened; the number of problems found."""
    import torch

    torch.set_num_threads(1)
    root = Path(tempfile.mkdtemp(prefix="boardgames-surfaces-"))
    try:
        if part == "models":
            from boardgames.benchmarks.fuzz import model_files

            if kind not in model_files.KINDS:
                raise SystemExit(f"unknown kind {kind!r}; models kinds: {' '.join(model_files.KINDS)}")
            sources = model_files.Sources(root, {kind: model_files.SOURCES[kind]})
            model_files.warm_up(sources)
            work = root / "work"
            work.mkdir()
            outcome, problems, plan = model_files.run_try(kind, seed, sources, work, verbose=True)
            print(
                f"models / {kind} / seed {seed}: a copy of models/{plan['source']}, "
                f"{'; '.join(plan['mutations'])}; make_agent({plan['spec']!r}, "
                f"{'the game' if plan['with_game'] else 'no game'}): {outcome}"
            )
        elif part == "runs":
            from boardgames.benchmarks.fuzz import run_folders

            if kind not in run_folders.KINDS:
                raise SystemExit(f"unknown kind {kind!r}; runs kinds: {' '.join(run_folders.KINDS)}")
            refs = run_folders.References(root / "refs", (kind,))
            work = root / "work"
            work.mkdir()
            outcome, problems, what = run_folder_try(kind, seed, refs, work)
            print(f"runs / {kind} / seed {seed}: {what}: {outcome}")
            for out in work.glob("*.out"):
                print(out.read_text(errors="replace")[-3000:])
        elif part == "server":
            from boardgames.benchmarks.fuzz import web_server

            what, _, label = kind.partition("@")
            if what == "request" and label:
                return web_server.replay_request(label, seed)
            if what == "game" and label:
                return web_server.replay_game(label, seed)
            if what == "session" and label:  # a whole session again (30 s): the same requests, in the same order
                requests, games = SurfaceTally("server", "requests"), SurfaceTally("server", "games")
                web_server.session(label, 30.0, seed, None, requests, games, record_failure)
                print(format_table([requests, games]))
                for f in requests.examples + games.examples:
                    print(f)
                return requests.failures + games.failures
            raise SystemExit(f"unknown server kind {kind!r}: request@<config>, game@<config> or session@<config>")
        else:
            raise SystemExit(f"unknown part {part!r}; parts: {' '.join(PARTS)}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for check, problem in problems:
        print(f"{check}: {problem}")
    return len(problems)
