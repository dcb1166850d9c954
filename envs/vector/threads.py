"""How many threads the batched environments' compiled loops use, and running a loop with that many.

``threads="auto"``, the default of the batches, uses threads only where they help, and stays serial where
they would get in the way:

* serial for a batch of one chunk of games (``boardgames.envs.vector.loops.CHUNK``, 64) or fewer (one thread
  takes a chunk whole, so the others would only wait), when torch in this process uses more than one
  thread (``torch.get_num_threads()``, read only when torch is imported: its threads and ours would take
  turns on the same cores), and on a machine with a single core;
* otherwise the batch may use up to ``min(cores - torch's threads, NUMBA_NUM_THREADS)`` threads (its
  ``threads`` attribute), but tries them only on cores that other work leaves idle: the 1-minute load
  average less this process's own recent share of it (:func:`auto_threads`); on a busy machine that is
  none, and the steps stay serial;
* where threads are worth trying, the batch times a dozen steps each way, serial and threaded,
  alternating, and keeps the faster (threads only when their mean step is clearly shorter); it goes on
  timing the threaded steps, and checks again after 2 s, then after twice as long each time the choice
  stands, up to about a minute, or at once when the threaded steps turn slower than the serial ones were
  (:class:`ThreadChooser`). A machine that becomes busy, or a torch that starts more threads, sends the
  batch back to serial.

Why: at every threaded step the threads hand the rows out and wait for each other. numba's OpenMP pool
waits by spinning for a while; on a machine whose cores are busy a thread that waits for one that is not
running spins out its time slice, and a step that takes a fraction of a millisecond serially takes tens of
milliseconds (docs/performance.md, "Threads on a loaded machine").

Explicit settings are obeyed as they are: ``threads=False``, 0 or 1: the serial loops; ``True``: the
cores this process may run on less torch's threads when torch is imported, at least 1, at most numba's
pool (:func:`default_threads`; serial for one chunk of games or fewer); an int: that many, at most numba's
pool. The results are the same whatever the count: each game has its own random generator.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
import time
from dataclasses import dataclass

import numba

from boardgames.envs.vector.loops import CHUNK

AUTO = "auto"


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def torch_threads() -> int:
    """The threads torch uses for its operations, 0 when torch is not imported (it is never imported here)."""
    torch = sys.modules.get("torch")
    return torch.get_num_threads() if torch is not None else 0


def numba_threads() -> int:
    """``NUMBA_NUM_THREADS``: the most threads numba's parallel loops run."""
    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]  # numba.config sets it at run time


def default_threads() -> int:
    """The threads of ``threads=True``: the cores torch is not using (see the module docstring)."""
    return max(1, min(available_cores() - torch_threads(), numba_threads()))


@dataclass(frozen=True)
class Machine:
    """What ``threads="auto"`` decides from: ``cores`` this process may run on, numba's ``pool``,
    ``torch_threads`` (0: torch not imported), the machine's 1-minute ``load`` average (runnable threads)
    and ``own_load``, the part of it that is this process's own (its busy cores, averaged the same way)."""

    cores: int
    pool: int
    torch_threads: int
    load: float
    own_load: float


def machine_now(own_load: float = 1.0) -> Machine:
    """The :class:`Machine` as it is now; ``own_load`` as measured by the caller (1.0: the thread that
    steps the batch). Without ``os.getloadavg`` (Windows) the load is taken to be this process's own."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = own_load
    return Machine(available_cores(), numba_threads(), torch_threads(), load, own_load)


def most_auto_threads(num_games: int | None, machine: Machine) -> int:
    """The most threads a ``threads="auto"`` batch of ``num_games`` may use on ``machine`` whatever the
    load: 1 (always serial) for one chunk of games or fewer, when torch uses more than one thread or on one
    core; else the cores torch leaves free, at most numba's pool."""
    if num_games is not None and num_games <= CHUNK:
        return 1
    if machine.torch_threads > 1:
        return 1
    return max(1, min(machine.cores - machine.torch_threads, machine.pool))


def auto_threads(num_games: int | None, machine: Machine) -> int:
    """The threads a ``threads="auto"`` batch tries now (1: none, serial): :func:`most_auto_threads`, at most
    the cores that other work leaves idle (``cores`` less ``load - own_load``, rounded to the nearest)."""
    most = most_auto_threads(num_games, machine)
    others = max(0.0, machine.load - machine.own_load)
    idle = math.floor(machine.cores - others + 0.5)
    return max(1, min(most, idle))


def resolve_threads(threads, num_games: int | None = None) -> int:
    """The thread count for a ``threads`` argument: False/None/0/1 -> 1, True -> :func:`default_threads`
    (1 for a batch of ``num_games`` <= ``CHUNK``, one chunk: see the module docstring), ``"auto"`` -> the
    most it may use (:func:`most_auto_threads`), an int -> that many, at most numba's pool
    (``NUMBA_NUM_THREADS``)."""
    if threads is None or threads is False:
        return 1
    if threads is True:
        return 1 if num_games is not None and num_games <= CHUNK else default_threads()
    if isinstance(threads, str) and threads == AUTO:
        return most_auto_threads(num_games, machine_now())
    if not isinstance(threads, numbers.Integral) or threads < 0:
        raise ValueError(f"threads is 'auto', True, False or a number of threads >= 0, got {threads!r}")
    return max(1, min(int(threads), numba_threads()))


def run_threaded(count: int, fn, *args):
    """``fn(*args)`` (a numba ``parallel=True`` function) on ``count`` threads; the calling thread's
    setting is restored after."""
    before = numba.get_num_threads()
    if before == count:
        return fn(*args)
    numba.set_num_threads(count)
    try:
        return fn(*args)
    finally:
        numba.set_num_threads(before)


class ThreadChooser:
    """For a ``threads="auto"`` batch: before each step, how many threads it runs on (1 or the count that
    :func:`auto_threads` gives), chosen by timing both (see the module docstring).

    A check reads the machine (``machine``, a function of this process's own load like
    :func:`machine_now`); where it allows threads, the next steps are a trial: ``ROUNDS`` rounds of
    ``BLOCK`` steps serial and ``BLOCK`` threaded (the first step of each block, which pays for the switch,
    not counted). Threads win when their mean step time is below ``MARGIN`` times the serial one (the
    mean, not the median: on a busy machine most threaded steps are fast and a few wait a whole time slice
    for a thread that is not running, and those few decide the throughput); the trial stops early once
    every threaded step took over ``GIVE_UP`` times the serial mean. While threads run, their steps keep
    being timed, ``GUARD_STEPS`` at a time: the last of them count in the next trial, and a mean over
    ``GUARD_STEPS`` steps that is no longer below the serial one brings the next check forward to the next
    step.

    The next check: after threads win, ``FIRST_WAIT`` seconds later, twice as long each time they win again
    (at most ``LONGEST_WAIT``); after serial wins, ``FIRST_WAIT``, then twice as long each time, until
    threads win twice in a row; where the machine has no idle cores, ``FIRST_WAIT`` (reading the load costs
    next to nothing). ``clock`` and ``cpu_clock`` (wall and this process's CPU seconds) can be given for
    tests; :meth:`after_step` is given each step's duration."""

    BLOCK = 4
    ROUNDS = 3
    MARGIN = 0.95
    GIVE_UP = 2.0
    GUARD_STEPS = 32
    FIRST_WAIT = 2.0
    LONGEST_WAIT = 64.0
    LOAD_SECONDS = 60.0  # the load average's time constant: the own load is averaged the same way

    def __init__(self, num_games: int, machine=machine_now, clock=time.perf_counter, cpu_clock=time.process_time):
        self.num_games = num_games
        self.clock = clock
        self.count = 1  # the threads of the steps now
        self.choice = 1  # the threads the last check or trial chose
        self._machine = machine
        self._cpu_clock = cpu_clock
        self._plan: list[tuple[int, bool]] = []  # the trial's next steps: (threads, timed), last first
        self._timed = False  # whether the step under way is a timed step of the trial
        self._times: dict[int, list[float]] = {}
        self._deciding = False
        self._next_check = -math.inf  # the first step checks
        self._thread_wait = self.FIRST_WAIT
        self._serial_wait = self.FIRST_WAIT
        self._serial_mean = math.inf  # a serial step's mean time in the last trial
        self._window = (0.0, 0)  # the threaded steps since threads won, GUARD_STEPS at a time: time, number
        self._last_window = (0.0, 0)  # the window before
        self._prior = (0.0, 0)  # the last two windows of the last period of threads, for the trial under way
        self._own_load = 1.0
        self._cpu_then: float | None = None
        self._wall_then: float | None = None

    def before_step(self) -> int:
        """The threads for the step about to run (call it once per step, right before it)."""
        now = self.clock()
        if self._deciding and (not self._plan or self._threads_clearly_slower()):
            self._plan = []
            self._decide(now)
        if not self._plan and now >= self._next_check:
            self._check(now)
        if self._plan:
            self.count, self._timed = self._plan.pop()
        return self.count

    def after_step(self, seconds: float) -> None:
        """The step just run took ``seconds``."""
        if self._timed:
            self._times[self.count].append(seconds)
            self._timed = False
        elif not self._plan and self.count > 1:
            total, steps = self._window
            total, steps = total + seconds, steps + 1
            self._window = (total, steps)
            if steps == self.GUARD_STEPS:
                if total > steps * self._serial_mean:
                    self._next_check = -math.inf  # threads slower than serial was: check at the next step
                self._last_window, self._window = self._window, (0.0, 0)

    def _check(self, now: float) -> None:
        """Read the machine; start a trial where it leaves idle cores for threads, else stay serial."""
        count = auto_threads(self.num_games, self._machine(self._measure_own_load(now)))
        if count <= 1:  # no idle cores (or torch took more threads): serial, and a look again soon
            self.count = self.choice = 1
            self._next_check = now + self.FIRST_WAIT
            return
        block = lambda threads: [(threads, False)] + [(threads, True)] * (self.BLOCK - 1)  # noqa: E731
        plan = []
        for round_ in range(self.ROUNDS):  # the order alternates from round to round
            plan += block(1) + block(count) if round_ % 2 == 0 else block(count) + block(1)
        self._plan = plan[::-1]
        # the threaded steps since the last trial count with the trial's (where threads ran on as many)
        (a, m), (b, n) = self._window, self._last_window
        self._prior = (a + b, m + n) if self.choice == count else (0.0, 0)
        self._times = {1: [], count: []}
        self._deciding = True

    def _threaded_times(self) -> tuple[int, list[float]]:
        return next((count, times) for count, times in self._times.items() if count != 1)

    def _threads_clearly_slower(self) -> bool:
        """Whether the trial can stop early: each threaded step of the trial so far took over ``GIVE_UP``
        times the serial mean (on a busy machine threaded steps take tens of times as long)."""
        serial = self._times[1]
        if len(serial) < self.BLOCK - 1:
            return False
        trial = self._threaded_times()[1]
        return len(trial) >= 2 and min(trial) > self.GIVE_UP * _mean(serial)

    def _decide(self, now: float) -> None:
        """The trial is over: keep the faster."""
        self._deciding = False
        self._serial_mean = _mean(self._times[1])
        count, trial = self._threaded_times()
        seconds, steps = self._prior
        threaded = (seconds + sum(trial)) / (steps + len(trial))
        self._settle(now, count if threaded < self.MARGIN * self._serial_mean else 1)

    def _settle(self, now: float, count: int) -> None:
        """Run on ``count`` threads until the next check (see the class docstring for when)."""
        if count > 1:
            won_again = self.choice == count
            self._thread_wait = min(2 * self._thread_wait, self.LONGEST_WAIT) if won_again else self.FIRST_WAIT
            if won_again:
                self._serial_wait = self.FIRST_WAIT
            wait = self._thread_wait
        else:
            wait = self._serial_wait
            self._serial_wait = min(2 * self._serial_wait, self.LONGEST_WAIT)
        self.count = self.choice = count
        self._window = self._last_window = (0.0, 0)
        self._next_check = now + wait

    def __reduce__(self):
        """Pickled without its timings (another process has other clocks): it checks again at the next step."""
        return type(self), (self.num_games, self._machine, self.clock, self._cpu_clock)

    def _measure_own_load(self, now: float) -> float:
        """This process's busy cores since the last check, averaged as the load average is (1.0 at first)."""
        cpu = self._cpu_clock()
        if self._wall_then is not None and now > self._wall_then:
            busy = (cpu - self._cpu_then) / (now - self._wall_then)
            keep = math.exp(-(now - self._wall_then) / self.LOAD_SECONDS)
            self._own_load = keep * self._own_load + (1.0 - keep) * busy
        self._cpu_then, self._wall_then = cpu, now
        return self._own_load


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.inf


def thread_switch(serial, threaded, count: int, chooser: ThreadChooser | None, timed: bool = True):
    """The function a batch calls for a loop: ``serial`` for one thread, ``threaded`` (its ``parallel=True``
    form) on ``count`` threads, or, with a ``chooser`` (``threads="auto"``), whichever it picks for each
    call. ``timed``: the calls are the batch's steps, which the chooser times (its other loops follow the
    choice of the last step)."""
    if count <= 1:
        return serial
    if chooser is None:
        return lambda *args: run_threaded(count, threaded, *args)

    clock = chooser.clock

    def switched(*args):
        if not timed:
            count = chooser.count
            return serial(*args) if count <= 1 else run_threaded(count, threaded, *args)
        count = chooser.before_step()
        start = clock()
        result = serial(*args) if count <= 1 else run_threaded(count, threaded, *args)
        chooser.after_step(clock() - start)
        return result

    return switched
