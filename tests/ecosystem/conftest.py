"""What the tests of the ecosystem recipes (examples/ecosystem/) share: the ``require`` fixture, which skips a
test whose client library is not installed, naming the extra that brings it, or fails it when the environment
variable ``BOARDGAMES_REQUIRE_CLIENTS=1`` is set (``make test`` sets it, so that CI cannot skip a recipe
silently)."""

from __future__ import annotations

import importlib.util
import os

import pytest

REQUIRE_CLIENTS = "BOARDGAMES_REQUIRE_CLIENTS"
"""The environment variable that turns a missing client from a skip into a failure."""


def require_module(module_name: str, extra: str) -> None:
    """Skip the calling test unless ``module_name`` can be imported (found without importing it, so that a
    heavy client costs nothing here); fail instead where ``BOARDGAMES_REQUIRE_CLIENTS=1``. ``extra`` is the
    optional dependency group of pyproject.toml that installs it."""
    try:
        found = importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # a dotted name whose parent package is missing
        found = False
    if found:
        return
    reason = f"{module_name} is not installed (pip install -e '.[{extra}]')"
    if os.environ.get(REQUIRE_CLIENTS) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_CLIENTS}=1 asks for every client", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def require():
    """``require(module_name, extra)``: see :func:`require_module`."""
    return require_module
