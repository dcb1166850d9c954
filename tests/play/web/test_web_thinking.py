"""The page says the agents are thinking while they choose their moves (a new game where they move first,
a move sent), when they search or run a network; ``/api/config`` tells the page whether they do; and
``serve`` gets such an agent ready before it prints the URL."""

from __future__ import annotations

import time

import pytest

from boardgames.envs.agents import Agent
from boardgames.envs.registry import make_game

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[web-test]')")


class Slow(Agent):
    """An agent that takes its time (it counts as thinking: neither random nor greedy)."""

    def __init__(self, seconds: float):
        super().__init__(0)
        self.name, self.seconds = "slowpoke", seconds

    def act(self, state, seat):
        time.sleep(self.seconds)
        return int(state.legal_actions(seat)[0])


def _config(serve, table) -> dict:
    server = serve(table)
    return httpx.get(server.url + "/api/config", headers={"X-Boardgames-Token": server.token}).json()


def test_the_config_says_whether_the_agents_think(serve):
    from boardgames.play.web.session import Table

    assert _config(serve, Table(make_game("olix"), "random"))["agent_thinks"] is False
    config = _config(serve, Table(make_game("olix"), Slow(0.0)))
    assert config["agent_thinks"] is True and config["agent"] == "slowpoke"


def test_the_page_says_the_agent_is_thinking_while_it_moves_first(serve, browser):
    from boardgames.play.web.session import Table

    server = serve(Table(make_game("olix"), Slow(2.0), human_seat=1))
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_function("() => document.body.dataset.thinking === '1'", timeout=30_000)
    assert page.text_content("#status") == "slowpoke is thinking…"
    page.wait_for_function("() => document.body.dataset.busy === '0'", timeout=60_000)
    assert page.evaluate("document.body.dataset.thinking") == "0"
    assert page.text_content("#status") == "Your move."
    assert page.text_content("#you") == "You play player_1 (dark)."
    # a move sent: thinking again until the agent has answered
    move = page.evaluate("window.boardPage.view.legal[0]")
    page.evaluate(f"() => {{ submit({{action: {move['action']}}}); }}")  # not awaited: the request goes on
    page.wait_for_function("() => document.body.dataset.thinking === '1'", timeout=10_000)
    assert page.text_content("#status") == "slowpoke is thinking…"
    page.wait_for_function("() => document.body.dataset.busy === '0'", timeout=60_000)
    assert page.evaluate("document.body.dataset.ply") == "3"
    page.close()


def test_serve_gets_the_agent_ready_before_printing_the_url(monkeypatch, capsys):
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    import uvicorn

    from boardgames.play.web import serve

    readied = []
    agent = Slow(0.0)
    agent.warm_up = readied.append
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # no serving: only the start
    serve(make_game("olix"), agent, port=0)
    out = capsys.readouterr().out.splitlines()
    assert len(readied) == 1
    assert out[0].startswith("slowpoke: getting ready") and out[1].startswith("slowpoke is ready (")
    assert "open http://127.0.0.1:" in out[2]
