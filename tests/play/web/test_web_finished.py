"""A finished game stays readable (its view, its move list) for the time the server keeps finished games
after their last request, however busy the server: past its limit, the games let go are abandoned games
and finished games past that time (the longest without a request first), else a finished game of the
browser asking for the new game; when none may go, the new game is refused with 503. A request for a
game let go is answered 404 saying when and why (a bounded record of recent ids), each game let go is one
line of the server's log, and a client that disconnects while its body is read leaves no traceback."""

from __future__ import annotations

import logging
import socket
import time

import pytest

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[web-test]')")

from helpers.web import WIN_IN_ONE, Clock  # noqa: E402  (b2 wins at WIN_IN_ONE)
from helpers.web import dorix_table as _table  # noqa: E402
from helpers.web import play_session as _session  # noqa: E402

TOKEN = "X-Boardgames-Token"
LOGGER = "boardgames.play.web"


class Records(logging.Handler):
    """Keeps every record of the loggers it is attached to (their levels lowered to DEBUG meanwhile)."""

    def __init__(self, *names: str):
        super().__init__(logging.DEBUG)
        self.records: list = []
        self.loggers = [logging.getLogger(n) for n in names]
        self.levels = [log.level for log in self.loggers]

    def emit(self, record):
        self.records.append(record)

    def __enter__(self):
        for log in self.loggers:
            log.addHandler(self)
            log.setLevel(logging.DEBUG)
        return self

    def __exit__(self, *exc):
        for log, level in zip(self.loggers, self.levels):
            log.removeHandler(self)
            log.setLevel(level)


def _player(server) -> httpx.Client:
    """A browser of its own (its own cookies)."""
    return httpx.Client(base_url=server.url, timeout=120, headers={TOKEN: server.token})


def _finish(c, gid: str) -> dict:
    view = c.post(f"/api/games/{gid}/move", json={"move": "b2"}).json()
    assert view["result"], view
    return view


# ----- through HTTP ---------------------------------------------------------------------------------
def test_a_just_finished_game_stays_readable_while_a_new_game_is_asked_for(serve):
    """A server holding 2 games: one in progress, one just finished. Another player's new game is
    refused (503) for as long as the finished game is kept, and the finished game stays readable; past
    that time it is the one let go, and its 404 says when and why."""
    clock = Clock()
    server = serve(_table(WIN_IN_ONE), limit=2, idle_timeout=1800, finished_grace=600, clock=clock)
    alice, bob, carol = _player(server), _player(server), _player(server)
    alice.post("/api/games").raise_for_status()  # in progress, played now and then
    b = bob.post("/api/games").json()["id"]
    last = _finish(bob, b)
    refused = carol.post("/api/games")
    assert refused.status_code == 503 and refused.headers["retry-after"] == "60"
    message = refused.json()["error"]
    assert "full" in message and "1 game in progress" in message and "1 finished game" in message
    assert "kept 10 minutes after its last request" in message
    assert bob.get(f"/api/games/{b}").json()["moves"] == last["moves"]  # read right after its last move
    listing = bob.get(f"/api/games/{b}/moves")
    assert listing.status_code == 200 and "1. player_0: b2\n# result:" in listing.text
    clock.now += 599
    assert carol.post("/api/games").status_code == 503  # still within the time it is kept
    assert server.config.app.state.registry.plays.keys() >= {b}
    clock.now += 2  # 601 s without a request: past it
    assert carol.post("/api/games").status_code == 200
    gone = bob.get(f"/api/games/{b}/moves")
    assert gone.status_code == 404
    error = gone.json()["error"]
    assert f"game {b!r} was let go at " in error and " UTC to make room for a new game" in error
    assert "finished and left alone for 10 minutes" in error
    unknown = bob.get("/api/games/0123456789abcdef").json()["error"]
    assert "no play session" in unknown and "no game was started under this id" in unknown
    assert "was let go at" not in unknown


def test_a_player_starting_another_game_on_a_full_server_takes_the_place_of_its_finished_one(serve):
    """The browser that finished a game (its cookie) may start another on a full server: its finished
    game goes, and its 404 says so; another browser is still refused."""
    server = serve(_table(WIN_IN_ONE), limit=2)
    alice, bob, carol = _player(server), _player(server), _player(server)
    a = alice.post("/api/games").json()["id"]
    b = bob.post("/api/games").json()["id"]
    _finish(bob, b)
    assert carol.post("/api/games").status_code == 503  # bob's finished game is kept for bob
    again = bob.post("/api/games")
    assert again.status_code == 200
    gone = bob.get(f"/api/games/{b}")
    assert gone.status_code == 404 and "the browser that played it started another game" in gone.json()["error"]
    assert alice.get(f"/api/games/{a}").status_code == 200
    assert carol.post("/api/games").status_code == 503  # two games in progress now
    assert server.config.app.state.registry.plays.keys() == {a, again.json()["id"]}


def test_the_config_says_how_long_a_finished_game_is_kept(serve):
    server = serve(_table(), finished_grace=90)
    assert _player(server).get("/api/config").json()["finished_minutes"] == 1.5


# ----- the registry ---------------------------------------------------------------------------------
def test_a_finished_game_past_its_time_goes_first_and_one_within_it_is_kept():
    from boardgames.play.web.session import MoveRefused, Registry

    clock = Clock()
    registry = Registry(limit=3, idle_timeout=600, finished_grace=100, clock=clock)
    won, live = _table(WIN_IN_ONE), _table()
    old = registry.add(_session(won, finished=True), player="x")
    clock.now += 50
    new = registry.add(_session(won, finished=True), player="y")
    a = registry.add(_session(live), player="z")
    clock.now += 51  # old: 101 s without a request, new and a: 51 s
    d = registry.add(_session(live), player="w")
    assert registry.plays.keys() == {new, a, d} and registry.let_go[old][1] == "finished"
    with pytest.raises(MoveRefused, match="full") as refused:
        registry.add(_session(live), player="w")  # new is kept for y, a and d are played
    assert refused.value.status == 503
    with pytest.raises(MoveRefused):
        registry.check_room("w")
    registry.check_room("y")  # y's own finished game would make room for y
    registry.get("play", new)  # read again: kept 100 s from now
    clock.now += 99
    with pytest.raises(MoveRefused):
        registry.check_room("w")
    clock.now += 2
    e = registry.add(_session(live), player="w")
    assert registry.plays.keys() == {a, d, e}


def test_abandoned_games_and_finished_games_past_their_time_go_the_longest_without_a_request_first():
    from boardgames.play.web.session import Registry

    clock = Clock()
    registry = Registry(limit=2, idle_timeout=200, finished_grace=100, clock=clock)
    a = registry.add(_session(_table()))
    clock.now += 50
    f = registry.add(_session(_table(WIN_IN_ONE), finished=True))
    clock.now += 210  # a: 260 s without a request (abandoned), f: 210 s (past its 100 s)
    b = registry.add(_session(_table()))
    assert registry.plays.keys() == {f, b}
    c = registry.add(_session(_table()))
    assert registry.plays.keys() == {b, c}
    assert [(sid, reason) for sid, (_, reason) in registry.let_go.items()] == [(a, "abandoned"), (f, "finished")]


def test_games_let_go_are_logged_and_remembered_within_a_bound(caplog):
    from boardgames.play.web.session import MoveRefused, Registry

    clock = Clock()
    registry = Registry(limit=1, idle_timeout=10, finished_grace=5, clock=clock, wall=lambda: 1_800_000_000.0)
    ids = []
    with Records(LOGGER + ".session") as log:
        for k in range(6):
            ids.append(registry.add(_session(_table() if k % 2 else _table(WIN_IN_ONE), finished=k % 2 == 0)))
            clock.now += 11
    let_go = [r for r in log.records if "let go" in r.getMessage()]
    assert len(let_go) == 5 and all(r.levelno == logging.INFO for r in let_go)
    for sid, record in zip(ids, let_go):
        assert record.getMessage().startswith(f"let go game {sid} to make room for a new game: ")
    assert "finished and left alone for 5 seconds" in let_go[0].getMessage()
    assert "in progress but left alone for 10 seconds, so counted as abandoned" in let_go[1].getMessage()
    registry.let_go_memory = 3
    registry.add(_session(_table()))
    assert list(registry.let_go) == ids[3:]  # the last 3 let go: a bounded record
    for sid in ids[3:]:
        with pytest.raises(MoveRefused, match="was let go at 2027-01-15 08:00:00 UTC") as gone:
            registry.get("play", sid)
        assert gone.value.status == 404
    for sid in ids[:3]:
        with pytest.raises(MoveRefused, match="no game was started under this id"):
            registry.get("play", sid)


def test_a_negative_time_for_finished_games_is_refused():
    from boardgames.play.web.session import Registry

    with pytest.raises(ValueError, match="finished game is kept"):
        Registry(finished_grace=-1)


# ----- the command line -----------------------------------------------------------------------------
def test_finished_minutes_reaches_the_server_and_its_log(monkeypatch, capsys):
    """``--finished-minutes`` sets the time a finished game is kept; the server started by the command
    writes one line per game let go to stderr."""
    uvicorn = pytest.importorskip("uvicorn")
    from boardgames.play.cli import main

    apps = []

    def run(self, sockets=None):  # nothing served: the app is kept, the socket closed
        apps.append(self.config.app)
        for s in sockets or []:
            s.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    ours = logging.getLogger(LOGGER)
    saved = ours.handlers[:], ours.level, ours.propagate
    try:
        argv = ["--game", "dorix", "--web", "--port", "0", "--max-games", "1", "--finished-minutes", "2.5"]
        assert main(argv) == 0
        capsys.readouterr()
        registry = apps[0].state.registry
        assert registry.finished_grace == 150 and registry.limit == 1
        first = registry.add(_session(_table()))
        registry.seen[first] -= 10_000  # abandoned
        registry.add(_session(_table()))
        err = capsys.readouterr().err
        assert err.count("let go game") == 1 and f"let go game {first} " in err and "abandoned" in err
    finally:
        ours.handlers[:], ours.level, ours.propagate = saved
    assert main(["--game", "dorix", "--web", "--port", "0", "--finished-minutes", "-1"]) == 2
    assert "finished game is kept" in capsys.readouterr().err


# ----- a client that disconnects while its body is read ---------------------------------------------
def _broken_chunked(server, path: str, chunks: bytes) -> bytes:
    """The answer to a POST to ``path`` whose chunked body is broken (the HTTP layer answers 400 and
    closes the connection while the app reads the body)."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{TOKEN}: {server.token}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(head.encode() + chunks)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


def test_a_client_disconnect_while_the_body_is_read_logs_no_traceback(serve):
    server = serve(_table())
    c = _player(server)
    gid = c.post("/api/games").json()["id"]
    paths = ["/api/games", f"/api/games/{gid}/move", "/api/replays"]
    with Records("uvicorn", "uvicorn.error", LOGGER) as log:
        for path in paths:
            for chunks in (b"zz\r\nab\r\n0\r\n\r\n", b"5\r\nab\r\n0\r\n\r\n"):
                assert _broken_chunked(server, path, chunks).startswith(b"HTTP/1.1 400 ")
        deadline = time.monotonic() + 20
        quiet = [r for r in log.records if r.name == LOGGER + ".app"]
        while len(quiet) < 2 * len(paths) and time.monotonic() < deadline:
            time.sleep(0.05)
            quiet = [r for r in log.records if r.name == LOGGER + ".app"]
        assert c.get("/api/config").status_code == 200
    errors = [r for r in log.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [(r.name, r.getMessage()[:200]) for r in errors]
    assert len(quiet) == 2 * len(paths) and all(r.levelno == logging.DEBUG for r in quiet)
    assert all("disconnected while its body was read" in r.getMessage() for r in quiet)
    assert c.get(f"/api/games/{gid}").json()["ply"] == 0  # nothing was played
