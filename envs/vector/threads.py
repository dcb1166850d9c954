"""How many threads the batched environments' compiled loops use, and running a loop with that many.

The rule for ``threads=True``, the default of the batches (:func:`default_threads`): the cores this
process may run on, less the threads torch uses for its own work when torch is imported
(``torch.get_num_threads()``), at least 1 and at most numba's pool (``NUMBA_NUM_THREADS``). A learner then
steps its environments on the cores its network leaves free. A batch of one chunk of games
(``boardgames.envs.vector.loops.CHUNK``, 64) or fewer runs serially under ``True``: one thread takes a chunk whole,
so the others would only wait. ``threads=False`` or 1: the serial loops (for a machine whose cores are
busy with other work: threads that wait for each other at every step lose there); an int: that many.
"""

from __future__ import annotations

import numbers
import os
import sys

import numba

from boardgames.envs.vector.loops import CHUNK


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_threads() -> int:
    """The threads of ``threads=True``: the cores torch is not using (see the module docstring)."""
    torch = sys.modules.get("torch")
    used = torch.get_num_threads() if torch is not None else 0
    return max(1, min(available_cores() - used, numba.config.NUMBA_NUM_THREADS))


def resolve_threads(threads, num_games: int | None = None) -> int:
    """The thread count for a ``threads`` argument: False/None/0/1 -> 1, True -> :func:`default_threads`
    (1 for a batch of ``num_games`` <= ``CHUNK``, one chunk: see the module docstring), an int -> that
    many, at most numba's pool (``NUMBA_NUM_THREADS``)."""
    if threads is None or threads is False:
        return 1
    if threads is True:
        return 1 if num_games is not None and num_games <= CHUNK else default_threads()
    if not isinstance(threads, numbers.Integral) or threads < 0:
        raise ValueError(f"threads is True, False or a number of threads >= 0, got {threads!r}")
    return max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))


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
