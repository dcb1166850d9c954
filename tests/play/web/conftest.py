"""Fixtures of the web tests: a server on a free port of 127.0.0.1 in a thread, and headless
Chromium from the system's packages (``/usr/bin/chromium``) driven by Playwright. Without the ``[web]``
extra, Playwright or Chromium, the tests that need them are skipped with the reason (CI installs all
three: see the Makefile)."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def serve():
    """``serve(table, replays=None, host="127.0.0.1", **make_app_options) -> ServerThread``: the app of
    ``table`` listening on a free port of ``host``; stopped after."""
    for module in ("starlette", "uvicorn"):
        pytest.importorskip(module, reason="the web extra is not installed (pip install -e '.[web-test]')")
    from boardgames.play.web.app import ServerThread, make_app

    servers = []

    def start(table, replays=None, host="127.0.0.1", **options):
        server = ServerThread(make_app(table, replays, **options), host=host).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium (a fresh profile), launched by Playwright; never a downloaded build."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; CI does it in the Makefile)")
    profile = tempfile.mkdtemp(prefix="boardgame-web-chromium-")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
