"""boardgames.envs.compiled.views: ``borrowed`` (the row ``array[i]`` without reference counting) and
``scratch`` (a work array on the stack), compiled and plain."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import config, njit

from boardgames.envs.compiled.views import borrowed, scratch


@njit
def _fill_rows(array):
    """Row i of ``array`` set to i + 1 through a borrowed row; returns the sum of row 1 read back."""
    for i in range(array.shape[0]):
        r = borrowed(array, i)
        r[...] = i + 1
    return borrowed(array, 1).sum()


@njit(no_cpython_wrapper=True)
def _touch(r):
    """A callee that may raise (the batch loops' game kernels can): its caller checks its status."""
    if r[0] > 100:
        raise ValueError("row too large")
    r[0] += 1


@njit
def _pass_rows(array):
    """Each borrowed row handed to a compiled function that may raise (what the batch loops do)."""
    for i in range(array.shape[0]):
        _touch(borrowed(array, i))


@njit
def _pass_views(array):
    """The same with the ordinary views ``array[i]``."""
    for i in range(array.shape[0]):
        _touch(array[i])


def _reference_counts(function) -> int:
    """How many reference-count increments the compiled body of ``function`` (called once) makes."""
    llvm = function.inspect_llvm(function.signatures[0])
    return _body(llvm, function.py_func.__name__).count("NRT_incref")


def test_borrowed_rows_are_the_rows_of_the_array():
    two = np.zeros((3, 5), dtype=np.int32)
    assert _fill_rows(two) == 2 * 5
    assert two.tolist() == [[1] * 5, [2] * 5, [3] * 5]
    three = np.zeros((2, 3, 4), dtype=np.uint8)
    assert _fill_rows(three) == 2 * 12
    assert (three[0] == 1).all() and (three[1] == 2).all()


def test_borrowed_row_of_a_strided_array_is_the_ordinary_view():
    base = np.zeros((3, 8), dtype=np.int64)
    strided = base[:, ::2]  # not C-contiguous: the ordinary view, same values
    assert _fill_rows(strided) == 2 * 4
    assert base[:, 0].tolist() == [1, 2, 3] and base[:, 1].tolist() == [0, 0, 0]


def test_borrowed_plain_python_is_indexing():
    array = np.arange(12).reshape(3, 4)
    assert np.shares_memory(borrowed(array, 2), array)
    assert borrowed(array, 2).tolist() == [8, 9, 10, 11]
    assert getattr(_fill_rows, "py_func", _fill_rows)(np.zeros((2, 2))) == 4.0


@pytest.mark.skipif(config.DISABLE_JIT, reason="reads the compiled code")
def test_borrowed_rows_take_no_reference_counts():
    array = np.zeros((4, 3), dtype=np.int32)
    _pass_rows(array)
    assert array[:, 0].tolist() == [1, 1, 1, 1]
    views = np.zeros((4, 3), dtype=np.int32)
    _pass_views(views)
    assert views.tolist() == array.tolist()
    # the argument itself is counted on entry in both; the ordinary view once more, in the loop
    assert _reference_counts(_pass_rows) < _reference_counts(_pass_views)


ROOM = 6  # a module constant, as the rules kernels size their work arrays


@njit
def _squares_on_the_stack(x):
    """Squares of 0..ROOM-1 times ``x`` in a stack array, then read back in reverse into a second one."""
    work = scratch(ROOM, np.int64)
    for i in range(ROOM):
        work[i] = i * i * x
    back = scratch(3, np.float64)
    for i in range(3):
        back[i] = work[ROOM - 1 - i] / 2
    return work.sum(), back[0], back[2]


@njit
def _sized_at_run_time(n):
    work = scratch(n, np.int32)  # not a constant: np.empty
    work[:] = 7
    return work.sum()


def test_scratch_arrays_hold_their_values():
    assert _squares_on_the_stack(2) == (2 * (0 + 1 + 4 + 9 + 16 + 25), 25.0, 9.0)
    assert _sized_at_run_time(5) == 35
    plain = getattr(_squares_on_the_stack, "py_func", _squares_on_the_stack)
    assert plain(2) == (110, 25.0, 9.0)
    assert scratch(4, np.uint8).shape == (4,) and scratch(4, np.uint8).dtype == np.uint8


@pytest.mark.skipif(config.DISABLE_JIT, reason="reads the compiled code")
def test_scratch_arrays_are_not_allocated():
    _squares_on_the_stack(1)
    _sized_at_run_time(1)
    on_stack = _squares_on_the_stack.inspect_llvm(_squares_on_the_stack.signatures[0])
    on_heap = _sized_at_run_time.inspect_llvm(_sized_at_run_time.signatures[0])
    assert "NRT_MemInfo_alloc" not in _body(on_stack, "_squares_on_the_stack") and "alloca" in on_stack
    assert "NRT_MemInfo_alloc" in _body(on_heap, "_sized_at_run_time")


def _body(llvm: str, name: str) -> str:
    return re.search(rf"define [^@]*@\S*{name}\S*\(.*?\n}}\n", llvm, re.S).group(0)
