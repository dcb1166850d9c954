"""What the fuzz campaign counts and how it records a failure.

* :class:`Config`: one game with one option set (every ``CONFORMANCE_OPTIONS`` entry of the registry);
* :class:`Tally`: turns, games, malformed inputs tried and failures of one config through one path,
  with the first few failures of each kind kept as :class:`Failure` (with their reproducer);
* :class:`Probe`: what a fuzzed game checks with: ``need`` (a condition that must hold, else the game
  stops with a failure) and ``refused`` (a call that must raise a given error and leave the state as
  it was).
"""

from __future__ import annotations

import traceback
from dataclasses import asdict, dataclass, field

import numpy as np

from boardgames.envs.registry import env_module, game_names

MAX_EXAMPLES = 40  # failures kept per tally (all are counted)
PER_KIND = 3  # failures kept per (check, problem) pair


@dataclass(frozen=True)
class Config:
    """One game (a registered name) with one option set."""

    name: str
    options: tuple = ()  # (key, value) pairs

    @property
    def label(self) -> str:
        """``dorix-num_players3``, ``olix``, ``barc-max_turns12`` (the conformance suite's test ids)."""
        opts = dict(self.options)
        return f"{self.name}-" + "-".join(f"{k}{v}" for k, v in opts.items()) if opts else self.name

    @property
    def kwargs(self) -> dict:
        return dict(self.options)

    @property
    def module(self):
        return env_module(self.name)

    def make_game(self):
        return self.module.make_game(**self.kwargs)


def configs() -> list[Config]:
    """Every registered game with every option set its ``_v0`` module lists in ``CONFORMANCE_OPTIONS``."""
    return [
        Config(name, tuple(options.items()))
        for name in game_names()
        for options in env_module(name).CONFORMANCE_OPTIONS
    ]


@dataclass
class Failure:
    """One check that did not hold: where (config, path, the game's seed), what was checked, what went
    wrong, the position (notation) and the input."""

    config: str
    path: str
    seed: int
    check: str
    problem: str
    position: str = ""
    input: str = ""

    def reproducer(self) -> str:
        return f"python -m boardgames.benchmarks.fuzz --replay {self.config} {self.path} {self.seed}"

    _LABELS = ("input", "position")  # the names of the input's and the position's lines (no field)

    def __str__(self) -> str:
        lines = [f"[{self.config} / {self.path} / seed {self.seed}] {self.check}: {self.problem}"]
        if self.input:
            lines.append(f"    {self._LABELS[0] + ':':<10}{self.input}")
        if self.position:
            lines.append(f"    {self._LABELS[1] + ':':<10}{self.position}")
        lines.append(f"    replay:   {self.reproducer()}")
        return "\n".join(lines)


@dataclass
class Tally:
    """The counts of one config through one path."""

    config: str
    path: str
    turns: int = 0
    games: int = 0
    inputs: int = 0  # malformed or illegal inputs tried
    failures: int = 0
    seconds: float = 0.0
    examples: list = field(default_factory=list)

    def record(self, failure: Failure) -> None:
        self.failures += 1
        same = sum(1 for f in self.examples if (f.check, f.problem[:50]) == (failure.check, failure.problem[:50]))
        if len(self.examples) < MAX_EXAMPLES and same < PER_KIND:
            self.examples.append(failure)

    def add(self, other: Tally) -> None:
        """Add the counts (and kept failures) of ``other``, a tally of the same config and path."""
        self.turns += other.turns
        self.games += other.games
        self.inputs += other.inputs
        self.seconds += other.seconds
        failures = self.failures + other.failures
        for f in other.examples:
            self.record(f)
        self.failures = failures

    def to_dict(self) -> dict:
        return {**asdict(self), "examples": [asdict(f) for f in self.examples]}

    @classmethod
    def from_dict(cls, d: dict) -> Tally:
        return cls(**{**d, "examples": [Failure(**f) for f in d.get("examples", [])]})


class CheckFailed(Exception):
    """A check that did not hold; the game being played stops there."""


def _short(x, limit: int = 300) -> str:
    s = x if isinstance(x, str) else repr(x)
    return s if len(s) <= limit else s[: limit - 3] + "..."


class Probe:
    """The checks of one fuzzed game (``seed`` replays it), counted in ``tally``. ``position`` is the
    notation of the position being checked (set by the game loop; shown with a failure)."""

    def __init__(self, tally: Tally, seed: int, verbose: bool = False):
        self.tally, self.seed, self.verbose = tally, seed, verbose
        self.position = ""

    def fail(self, check: str, problem: str, input_=None, fatal: bool = False) -> None:
        failure = Failure(
            self.tally.config,
            self.tally.path,
            self.seed,
            check,
            _short(problem),
            _short(self.position, 2000),
            "" if input_ is None else _short(input_),
        )
        self.tally.record(failure)
        if self.verbose:
            print(failure)
        if fatal:
            raise CheckFailed(problem)

    def need(self, condition, check: str, problem) -> None:
        """Stop the game with a failure unless ``condition`` (``problem``: a string or a function
        returning one, called only on failure)."""
        if not condition:
            self.fail(check, problem() if callable(problem) else problem, fatal=True)

    def refused(self, call, expected: type[BaseException], check: str, input_, snapshot) -> bool:
        """Count one malformed input: ``call()`` must raise ``expected`` and leave ``snapshot()`` (a copy
        of the state's arrays) as it was; a changed state stops the game. True when it was refused."""
        self.tally.inputs += 1
        before = snapshot()
        problem = None
        try:
            call()
        except expected:
            pass
        except Exception as e:  # noqa: BLE001 - any other error is the finding
            problem = f"raised {type(e).__name__}({_short(str(e), 150)}) instead of {expected.__name__}"
        else:
            problem = f"accepted (expected {expected.__name__})"
        changed = not np.array_equal(snapshot(), before)
        if changed:
            problem = (problem + "; " if problem else "") + "the state changed"
        if problem:
            self.fail(check, problem, input_, fatal=changed)
        return problem is None

    def crashed(self, error: BaseException) -> None:
        """Record an exception that escaped the game's checks (a crash of the code under test)."""
        where = traceback.extract_tb(error.__traceback__)[-1]
        self.fail("crash", f"{type(error).__name__}: {error} (at {where.filename}:{where.lineno})")


def format_table(tallies: list[Tally]) -> str:
    """The summary table: one row per config and path."""
    head = f"{'config':<22} {'path':<9} {'turns':>10} {'games':>8} {'inputs':>9} {'failures':>8} {'seconds':>8}"
    rows = [head, "-" * len(head)]
    for t in tallies:
        rows.append(
            f"{t.config:<22} {t.path:<9} {t.turns:>10,} {t.games:>8,} {t.inputs:>9,} {t.failures:>8,} {t.seconds:>8.1f}"
        )
    total = Tally("total", "")
    for t in tallies:
        total.turns, total.games, total.inputs = total.turns + t.turns, total.games + t.games, total.inputs + t.inputs
        total.failures, total.seconds = total.failures + t.failures, total.seconds + t.seconds
    rows.append("-" * len(head))
    rows.append(
        f"{'total':<22} {'':<9} {total.turns:>10,} {total.games:>8,} {total.inputs:>9,} {total.failures:>8,} "
        f"{total.seconds:>8.1f}"
    )
    return "\n".join(rows)


def print_failures(tallies: list) -> int:
    """The first failure of each kind in ``tallies`` printed; the exit status: 1 if any try failed, else 0."""
    failures = [f for t in tallies for f in t.examples]
    if failures:
        print(f"\n{sum(t.failures for t in tallies)} failures; the first of each kind:")
        for f in failures:
            print(f)
    return 1 if any(t.failures for t in tallies) else 0
