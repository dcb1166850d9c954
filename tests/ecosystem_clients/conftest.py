"""What the tests of the recipes whose clients live in ``.venv-clients`` share (Tianshou and AgileRL:
AgileRL pins ``pettingzoo<1.27``, so they cannot share the main venv): ``recipe(name)``, the module of
``examples/ecosystem/<name>.py``, imported once its client is found. A missing client skips its test,
naming ``make test-clients``; ``BOARDGAMES_REQUIRE_CLIENTS=clients`` (set by ``make test-clients``) fails
it instead. The main venv's ``BOARDGAMES_REQUIRE_CLIENTS=1`` (tests/ecosystem) leaves these skipped, since
the main venv is not meant to have them."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

RECIPES = Path(__file__).resolve().parents[2] / "examples" / "ecosystem"
REQUIRE_CLIENTS = "BOARDGAMES_REQUIRE_CLIENTS"


def load_recipe(name: str, client: str):
    """``examples/ecosystem/<name>.py`` as a module, or a skip (a failure under
    ``BOARDGAMES_REQUIRE_CLIENTS=clients``) when ``client`` is not installed."""
    if importlib.util.find_spec(client) is None:
        reason = f"{client} is not installed: it runs in .venv-clients (make test-clients)"
        if os.environ.get(REQUIRE_CLIENTS) == "clients":
            pytest.fail(f"{reason}, and {REQUIRE_CLIENTS}=clients asks for it", pytrace=False)
        pytest.skip(reason)
    spec = importlib.util.spec_from_file_location(f"recipe_{name}", RECIPES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tianshou_recipe():
    return load_recipe("tianshou_dqn", "tianshou")


@pytest.fixture(scope="module")
def agilerl_recipe():
    return load_recipe("agilerl_selfplay", "agilerl")
