"""A second compiled form of a function with numba cache files of its own (:func:`njit_variant`)."""

from __future__ import annotations

import types

import numba


def njit_variant(fn, suffix: str, **options):
    """``njit(cache=True, **options)`` of a copy of the plain function ``fn`` named ``<its name><suffix>``: a
    second compiled form of the same code (``parallel=True`` beside the serial one) with numba cache files of
    its own. numba names a function's cache files after its module, name and first line, and checks only the
    signature and the code, so two forms of one function would read each other's cached code."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + suffix, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + suffix
    copy.__module__, copy.__doc__ = fn.__module__, fn.__doc__
    return numba.njit(cache=True, **options)(copy)
