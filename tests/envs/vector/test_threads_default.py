"""The batches' default ``threads="auto"``: the rule that says how many threads a batch may try (from the
cores, numba's pool, torch's threads and the machine's load, all injected here), the chooser that keeps
threads only while timing shows them faster (its clock injected: no timing in these tests), and the
explicit settings, which are obeyed as they are."""

from __future__ import annotations

import pickle
import sys
from types import SimpleNamespace

import numba
import numpy as np
import pytest

from boardgames.envs.vector import BatchedGames, LearnerBatch
from boardgames.envs.vector import threads as threads_module
from boardgames.envs.vector.loops import CHUNK
from boardgames.envs.vector.threads import (
    AUTO,
    Machine,
    ThreadChooser,
    auto_threads,
    most_auto_threads,
    resolve_threads,
    thread_switch,
)

POOL = numba.config.NUMBA_NUM_THREADS


def machine(cores=16, pool=16, torch=0, load=1.0, own=1.0) -> Machine:
    return Machine(cores=cores, pool=pool, torch_threads=torch, load=load, own_load=own)


def test_small_batches_stay_serial():
    assert auto_threads(CHUNK, machine()) == 1 and most_auto_threads(CHUNK, machine()) == 1
    assert auto_threads(CHUNK + 1, machine()) == 16


def test_never_threads_while_torch_uses_more_than_one_thread():
    assert auto_threads(1024, machine(torch=2)) == 1
    assert auto_threads(1024, machine(torch=16)) == 1
    assert auto_threads(1024, machine(torch=1)) == 15  # torch on one thread: the other cores
    assert auto_threads(1024, machine(torch=0)) == 16  # torch not imported


def test_threads_only_on_the_cores_other_work_leaves_idle():
    # load counts this process's own busy cores too: only the rest is other work
    assert auto_threads(1024, machine(cores=2, pool=2, load=1.0, own=1.0)) == 2  # a quiet machine
    assert auto_threads(1024, machine(cores=2, pool=2, load=2.1, own=2.0)) == 2  # our own two threads
    assert auto_threads(1024, machine(cores=2, pool=2, load=1.4, own=1.0)) == 2  # 0.4 of a core taken
    assert auto_threads(1024, machine(cores=2, pool=2, load=1.6, own=1.0)) == 1  # over half a core: serial
    assert auto_threads(1024, machine(cores=2, pool=2, load=6.0, own=1.0)) == 1  # the loaded machine
    assert auto_threads(1024, machine(cores=16, load=6.0, own=1.0)) == 11  # 5 cores busy elsewhere
    assert auto_threads(1024, machine(cores=16, load=40.0, own=1.0)) == 1


def test_at_most_the_cores_and_numbas_pool():
    assert auto_threads(1024, machine(cores=1, pool=1)) == 1  # one core
    assert auto_threads(1024, machine(cores=8, pool=4)) == 4
    assert most_auto_threads(1024, machine(cores=8, pool=4, load=50.0)) == 4  # whatever the load


def test_resolve_threads_reads_affinity_torch_and_pool(monkeypatch):
    monkeypatch.setattr(threads_module, "available_cores", lambda: 6)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 8)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 1))
    assert resolve_threads(AUTO, 512) == 5  # the most it may use: the 6 cores less torch's one
    assert resolve_threads(AUTO, 64) == 1
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 2))
    assert resolve_threads(AUTO, 512) == 1  # torch on two threads: never
    assert resolve_threads(True, 512) == 4  # True keeps its rule: the cores torch leaves free
    with pytest.raises(ValueError, match="threads"):
        resolve_threads("Auto")


def test_machine_now_reads_the_load(monkeypatch):
    monkeypatch.setattr(threads_module.os, "getloadavg", lambda: (3.5, 2.0, 1.0))
    now = threads_module.machine_now(1.25)
    assert now.load == 3.5 and now.own_load == 1.25 and now.cores == threads_module.available_cores()


class Steps:
    """A batch's steps on a clock that moves by ``cost(threads, step)`` seconds per step (a dict: the same
    for every step)."""

    def __init__(self, cost, machines=None):
        self.time = 0.0
        self.cost = cost if callable(cost) else (lambda count, step: cost[count])
        self.machines = machines or (lambda own: machine(cores=2, pool=2, load=own, own=own))
        self.chooser = ThreadChooser(1024, machine=self.machines, clock=lambda: self.time, cpu_clock=lambda: 0.0)
        self.used = []
        self.seconds = {1: 0.0, 2: 0.0}

    def run(self, steps: int) -> list[int]:
        start = len(self.used)
        for _ in range(steps):
            count = self.chooser.before_step()
            seconds = self.cost(count, len(self.used))
            self.used.append(count)
            self.seconds[count] += seconds
            self.time += seconds
            self.chooser.after_step(seconds)
        return self.used[start:]

    def run_for(self, seconds: float) -> None:
        end = self.time + seconds
        while self.time < end:
            self.run(1)


def test_the_chooser_keeps_threads_where_they_are_faster():
    steps = Steps({1: 0.002, 2: 0.0011})
    trial = steps.run(ThreadChooser.ROUNDS * 2 * ThreadChooser.BLOCK)
    assert trial == [1] * 4 + [2] * 4 + [2] * 4 + [1] * 4 + [1] * 4 + [2] * 4  # alternating blocks
    assert steps.run(50) == [2] * 50 and steps.chooser.count == steps.chooser.choice == 2
    steps.run_for(300)
    assert steps.seconds[1] < 0.01 * steps.seconds[2]  # a trial now and then, a minute apart at most


def test_the_chooser_stays_serial_where_threads_are_slower():
    steps = Steps({1: 0.0003, 2: 0.030})  # a loaded machine: a threaded step waits for a thread that is not running
    steps.run(200)
    assert steps.used.count(2) == 3  # the trial stopped after three threaded steps (one untimed, two timed)...
    assert steps.used[200 - 190 :] == [1] * 190  # ... and the rest ran serial
    steps.run_for(300)
    assert steps.seconds[2] < 0.01 * steps.seconds[1]  # trials, further and further apart


def test_not_clearly_faster_is_serial():
    steps = Steps({1: 0.002, 2: 0.00195})  # within MARGIN: not worth the threads
    steps.run(25)
    assert steps.run(100) == [1] * 100


def test_a_few_long_threaded_steps_decide_against_threads():
    """On a busy machine most threaded steps are fast and a few wait out a time slice: the mean decides,
    and the steps after a trial that saw none of the slow ones are watched."""

    def cost(count, step):
        if count == 1:
            return 0.001
        return 0.05 if step % 10 == 0 else 0.0003  # mean 0.0053 s: five times the serial step

    steps = Steps(cost)
    steps.run_for(600)
    assert steps.seconds[2] < 0.02 * steps.seconds[1]


def test_threads_turning_slow_are_dropped_before_the_next_check():
    slow = {"from": 10**9}
    steps = Steps(lambda count, step: 0.001 if count == 1 else (0.0005 if step < slow["from"] else 0.05))
    steps.run_for(100)
    assert steps.chooser.count == 2 and steps.chooser._next_check - steps.time > 10  # a long wait ahead
    slow["from"] = len(steps.used)
    steps.run(ThreadChooser.GUARD_STEPS + 1)
    assert steps.run(40)[-20:] == [1] * 20  # the guard saw it: serial again, without waiting for the check


def test_serial_checks_back_off():
    steps = Steps({1: 0.001, 2: 0.05})
    starts = []  # when each trial began: its first threaded step
    for _ in range(200_000):
        steps.run(1)
        if steps.used[-1] == 2 and steps.used[-2] == 1 and steps.chooser._deciding:
            starts.append(steps.time)
    gaps = [round(b - a) for a, b in zip(starts, starts[1:])]
    assert gaps[:5] == [2, 4, 8, 16, 32] and set(gaps[5:]) == {ThreadChooser.LONGEST_WAIT}


def test_no_trial_without_idle_cores():
    busy = Steps({1: 0.001, 2: 0.0001}, machines=lambda own: machine(cores=2, pool=2, load=5.0, own=own))
    assert busy.run(5000) == [1] * 5000  # threads are never tried, however fast they would be
    torch = Steps({1: 0.001, 2: 0.0001}, machines=lambda own: machine(cores=2, pool=2, torch=2, load=0, own=own))
    assert torch.run(100) == [1] * 100
    # the load is read again every FIRST_WAIT: when the cores become idle, threads are tried
    loads = {"now": 5.0}
    later = Steps({1: 0.001, 2: 0.0001}, machines=lambda own: machine(cores=2, pool=2, load=loads["now"], own=own))
    later.run_for(10)
    loads["now"] = 1.0
    later.run_for(ThreadChooser.FIRST_WAIT + 0.1)
    assert later.chooser.count == 2


def test_the_chooser_measures_its_own_load():
    cpu = {"t": 0.0}
    seen = []

    def machines(own):
        seen.append(own)
        return machine(cores=2, pool=2, load=own, own=own)

    clock = {"t": 0.0}
    chooser = ThreadChooser(1024, machine=machines, clock=lambda: clock["t"], cpu_clock=lambda: cpu["t"])
    chooser.before_step()
    assert seen == [1.0]  # at first: the thread that steps
    for _ in range(100):  # two busy cores for a long while: the own load tends to 2
        clock["t"] += 10.0
        cpu["t"] += 20.0
        chooser._measure_own_load(clock["t"])
    assert chooser._own_load == pytest.approx(2.0, abs=0.01)


def test_the_chooser_pickles_without_its_timings():
    chooser = ThreadChooser(300)
    chooser.before_step()
    chooser.after_step(0.001)
    copy = pickle.loads(pickle.dumps(chooser))
    assert copy.num_games == 300 and copy.count == 1 and copy._next_check == -np.inf


def test_thread_switch():
    serial, threaded = (lambda: "serial"), (lambda: "threaded")
    assert thread_switch(serial, threaded, 1, None) is serial
    seen = []
    chooser = SimpleNamespace(count=1, before_step=lambda: 1, after_step=seen.append, clock=lambda: 5.0)
    assert thread_switch(serial, threaded, 2, chooser)() == "serial" and seen == [0.0]  # timed
    assert thread_switch(serial, threaded, 2, chooser, timed=False)() == "serial" and seen == [0.0]


def test_explicit_settings_are_obeyed(monkeypatch):
    monkeypatch.setattr(threads_module.os, "getloadavg", lambda: (50.0, 50.0, 50.0))  # busy, for "auto"
    for cls in (BatchedGames, LearnerBatch):
        assert cls("dorix", 128, seed=0, threads=False).threads == 1
        assert cls("dorix", 128, seed=0, threads=False)._chooser is None
        if POOL >= 2:
            b = cls("dorix", 128, seed=0, threads=2)
            assert b.threads == 2 and b._chooser is None  # always two, whatever the load
            b = cls("dorix", 128, seed=0, threads=True)
            assert b.threads == threads_module.default_threads() and b._chooser is None
        with pytest.raises(ValueError, match="threads"):
            cls("dorix", 128, seed=0, threads="many")


def test_auto_is_the_default(monkeypatch):
    monkeypatch.setattr(threads_module, "available_cores", lambda: 2)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    for cls in (BatchedGames, LearnerBatch):
        batch = cls("dorix", 128, seed=0)
        assert batch.threads == 2 and isinstance(batch._chooser, ThreadChooser)  # may use two, chooses
        assert cls("dorix", 64, seed=0)._chooser is None  # one chunk: serial, nothing to choose
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(get_num_threads=lambda: 2))
    assert BatchedGames("dorix", 1024, seed=0)._chooser is None  # torch on two threads: serial


@pytest.mark.skipif(POOL < 2, reason="needs numba's pool of two threads")
@pytest.mark.parametrize("cls", [BatchedGames, LearnerBatch])
def test_switching_threads_between_steps_plays_the_same_games(cls, monkeypatch):
    """The chooser switches between serial and threaded steps in the middle of a run: the games, masks
    and observations are those of the serial loops."""
    monkeypatch.setattr(threads_module, "available_cores", lambda: 2)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    auto = cls("adix", 3 * CHUNK + 5, seed=3)
    plain = cls("adix", 3 * CHUNK + 5, seed=3, threads=False)
    if cls is LearnerBatch:
        auto.reset()
        plain.reset()
    pattern = iter([1, 2, 2, 1, 2, 1, 1, 2] * 10)
    auto._chooser.before_step = lambda: setattr(auto._chooser, "count", next(pattern)) or auto._chooser.count
    for _ in range(40):
        if cls is BatchedGames:
            actions, expected = auto.random_actions(), plain.random_actions()
            assert np.array_equal(actions, expected)
        else:
            actions = np.array([np.flatnonzero(m)[-1] for m in plain.masks])
        auto.step(actions.copy())
        plain.step(actions.copy())
        assert np.array_equal(auto.states, plain.states) and np.array_equal(auto.masks, plain.masks)
        assert np.array_equal(auto.obs, plain.obs)
