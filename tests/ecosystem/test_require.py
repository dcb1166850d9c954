"""The ``require`` fixture of conftest.py: a missing client skips its test, naming the extra, unless
``BOARDGAMES_REQUIRE_CLIENTS=1`` asks for every client, and then it fails."""

from __future__ import annotations

import pytest

MISSING = "boardgames_no_such_client"


def test_a_missing_client_skips_naming_its_extra(require, monkeypatch):
    monkeypatch.delenv("BOARDGAMES_REQUIRE_CLIENTS", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"boardgames_no_such_client .*\[ecosystem\]"):
        require(MISSING, "ecosystem")
    with pytest.raises(pytest.skip.Exception):
        require(f"{MISSING}.sub", "ecosystem")  # a dotted name whose parent is missing


def test_a_missing_client_fails_when_every_client_is_required(require, monkeypatch):
    monkeypatch.setenv("BOARDGAMES_REQUIRE_CLIENTS", "1")
    with pytest.raises(pytest.fail.Exception, match="BOARDGAMES_REQUIRE_CLIENTS=1"):
        require(MISSING, "ecosystem")


def test_an_installed_client_passes(require, monkeypatch):
    monkeypatch.setenv("BOARDGAMES_REQUIRE_CLIENTS", "1")
    require("numpy", "core")  # returns, neither skipping nor failing
