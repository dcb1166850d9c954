"""The numba internals the compiled kernels use, checked by name and by signature.

The kernels use a few parts of numba that are not its public API: ``numba.core.extending.intrinsic`` and
``overload``, ``numba.core.cgutils`` (``pack_array``, ``unpack_tuple``, ``pointer_add``, ``alloca_once``),
``numba.np.arrayobj.populate_array`` (``envs/compiled/views.py``), ``numba.core.event`` (the compile events
``envs/compiled/engines.py`` listens to). ``pyproject.toml``
bounds numba above the newest version this test has passed on; when a newer numba moves one of them, this
test fails naming it, before any kernel misbehaves."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numba
import pytest

INTERNALS = {
    "numba.core.extending": {"intrinsic": None, "overload": None},
    "numba.core.cgutils": {
        "pack_array": ("builder", "values"),
        "unpack_tuple": ("builder", "tup"),
        "pointer_add": ("builder", "ptr", "offset"),
        "alloca_once": ("builder", "ty"),
    },
    "numba.np.arrayobj": {"populate_array": ("array", "data", "shape", "strides", "itemsize", "meminfo")},
    "numba.core.event": {"Listener": None, "register": ("kind", "listener")},
    "numba.core.types": {"intp": None, "uint64": None},
}
"""Module -> {name: the leading parameter names the project passes, or None when only its presence counts}."""


@pytest.mark.parametrize("module, names", sorted(INTERNALS.items()))
def test_each_internal_is_where_the_kernels_expect_it(module, names):
    found = importlib.import_module(module)
    for name, parameters in names.items():
        assert hasattr(found, name), f"numba {numba.__version__}: {module}.{name} is gone (used by envs/compiled/)"
        if parameters is not None:
            have = tuple(inspect.signature(getattr(found, name)).parameters)[: len(parameters)]
            assert have == parameters, f"numba {numba.__version__}: {module}.{name}{have} is not {parameters}"


def test_the_compile_event_the_cache_listens_to_still_exists():
    from numba.core import event

    assert "numba:compile" in event._builtin_kinds, f"numba {numba.__version__} has no 'numba:compile' event"


def test_the_bound_on_numba_is_the_version_checked_here():
    """The range in pyproject.toml admits the installed numba, the one the tests above checked (a numba
    past the bound is admitted by raising the bound once they pass on it)."""
    text = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text()
    low, high = re.search(r'"numba>=([\d.]+),<([\d.]+)"', text).groups()
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    assert tuple(int(x) for x in low.split(".")) <= version < tuple(int(x) for x in high.split("."))
