"""What keeps the web server safe to leave running: the per-server token on every request that changes
something (another site's blind POSTs are refused), the token on every request of a server open to the
network, the host it listens on (loopback unless ``--allow-remote``, which warns; IPv6 loopback served
and printed as a valid URL), the Host check reading an IPv6 host in brackets, and every malformed request
answered 4xx with a message, never 500."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time

import pytest
from helpers.web import refused as _refused

from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import random_record

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[web-test]')")

TOKEN = "X-Boardgames-Token"


def _table(name="dorix", **options):
    from boardgames.play.web.session import Table

    return Table(make_game(name, **options), "random")


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


# ----- the token ------------------------------------------------------------------------------------
def test_the_page_carries_the_servers_own_token(serve):
    a, b = serve(_table()), serve(_table())
    page = httpx.get(a.url + "/").text
    (token,) = re.findall(r'<meta name="boardgames-token" content="([^"]+)">', page)
    assert token == a.token and len(token) >= 40 and a.token != b.token
    assert httpx.get(a.url + "/replay").text == page
    assert httpx.get(a.url + "/").headers["cache-control"] == "no-store"


def test_a_request_that_changes_something_needs_the_token(serve):
    server = serve(_table())
    c = httpx.Client(base_url=server.url, timeout=60)
    registry = server.config.app.state.registry
    _refused(c.post("/api/games"), 403, TOKEN, "missing")
    _refused(c.post("/api/games", headers={TOKEN: "guess"}), 403, TOKEN, "wrong")
    _refused(c.post("/api/games", headers={TOKEN: server.token[:-1]}), 403, "wrong")
    _refused(c.post("/api/replays", content=random_record(make_game("dorix"), seed=1).to_text()), 403, TOKEN)
    assert not registry.plays and not registry.replays
    view = c.post("/api/games", headers={TOKEN: server.token}).json()
    before = c.get(f"/api/games/{view['id']}").json()  # reading needs no token on loopback
    move = {"action": view["legal"][0]["action"]}
    _refused(c.post(f"/api/games/{view['id']}/move", json=move), 403, TOKEN)
    _refused(c.request("PUT", f"/api/games/{view['id']}/move", json=move), 403, TOKEN)
    assert c.get(f"/api/games/{view['id']}").json() == before
    after = c.post(f"/api/games/{view['id']}/move", json=move, headers={TOKEN: server.token})
    assert after.status_code == 200 and after.json()["ply"] > before["ply"]


def test_blind_cross_site_posts_start_and_play_nothing(serve):
    """What a page of another site can send without the server's consent: a form POST, or a fetch in
    no-cors mode with a simple content type, with its own Origin; no custom header, no token."""
    server = serve(_table(), limit=64)
    c = httpx.Client(base_url=server.url, timeout=60)
    gid = c.post("/api/games", headers={TOKEN: server.token}).json()["id"]
    before = c.get(f"/api/games/{gid}/moves").text
    site = {"origin": "https://attacker.example", "referer": "https://attacker.example/page"}
    for _ in range(70):
        _refused(
            c.post(
                "/api/games", headers={**site, "content-type": "application/x-www-form-urlencoded"}, content=b"seat=0"
            ),
            403,
            TOKEN,
        )
    for kind in ("text/plain", "multipart/form-data; boundary=x"):
        _refused(
            c.post(f"/api/games/{gid}/move", headers={**site, "content-type": kind}, content=b'{"action": 0}'), 403
        )
    registry = server.config.app.state.registry
    assert list(registry.plays) == [gid] and c.get(f"/api/games/{gid}/moves").text == before


def test_a_server_open_to_the_network_asks_every_request_for_the_token(serve):
    server = serve(_table(), allowed_hosts=["*"], remote=True)
    c = httpx.Client(base_url=server.url, timeout=60)
    _refused(c.get("/"), 403, "token")
    _refused(c.get("/api/config"), 403, "token")
    _refused(c.get("/?token=guess"), 403)
    assert c.get("/static/app.js").status_code == 200  # the script and style hold no secret
    page = c.get(f"/?token={server.token}")  # the URL the server prints
    assert page.status_code == 200 and server.token in page.text
    assert "HttpOnly" in page.headers["set-cookie"] and "SameSite=Strict" in page.headers["set-cookie"]
    assert c.get("/api/config").status_code == 200  # the browser carries the cookie from now on
    _refused(c.post("/api/games"), 403, TOKEN)  # the cookie alone does not change anything
    view = c.post("/api/games", headers={TOKEN: server.token}).json()
    assert c.get(f"/api/games/{view['id']}/moves").status_code == 200
    stranger = httpx.Client(base_url=server.url, timeout=60)
    _refused(stranger.get(f"/api/games/{view['id']}"), 403, "token")
    assert stranger.get(f"/api/games/{view['id']}", headers={TOKEN: server.token}).status_code == 200


# ----- hosts ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("127.0.0.1:8765", "127.0.0.1"),
        ("LOCALHOST", "localhost"),
        ("[::1]:8765", "::1"),
        ("[::1]", "::1"),
        ("example.org:80", "example.org"),
        ("[::1", ""),
        ("::1", ""),
        ("[::1]x", ""),
        ("", ""),
    ],
)
def test_host_of_reads_a_host_header(header, host):
    from boardgames.play.web.app import host_of

    assert host_of(header) == host


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.3.2.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("example.org", False),
        ("", False),
    ],
)
def test_which_hosts_are_loopback(host, loopback):
    from boardgames.play.web import allowed_hosts, is_loopback

    assert is_loopback(host) == loopback
    assert (allowed_hosts(host) == ["*"]) != loopback


def test_the_host_check_reads_ipv6_in_brackets_and_refuses_others(serve):
    server = serve(_table())
    for good in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"[::1]:{server.port}", "[::1]"):
        assert httpx.get(server.url + "/api/config", headers={"host": good}).status_code == 200, good
    for bad in ("attacker.example", "attacker.example:80", "[::2]:80", "[::1", "127.0.0.1.attacker.example"):
        _refused(httpx.get(server.url + "/api/config", headers={"host": bad}), 400, "Host")


@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_a_server_on_ipv6_loopback_answers(serve):
    server = serve(_table(), host="::1")
    assert server.url.startswith("http://[::1]:")
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    assert c.get("/").status_code == 200
    view = c.post("/api/games").json()
    assert c.post(f"/api/games/{view['id']}/move", json={"action": view["legal"][0]["action"]}).status_code == 200


@pytest.fixture
def no_listening(monkeypatch):
    """uvicorn's ``Server.run`` replaced by a recorder: ``serve()`` binds its socket (nothing listens on
    it) and prints its lines, but serves nothing; the list holds each run's sockets."""
    uvicorn = pytest.importorskip("uvicorn")
    runs = []

    def run(self, sockets=None):
        runs.append([s.getsockname() for s in sockets or []])
        for s in sockets or []:
            s.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    return runs


def test_a_host_open_to_the_network_needs_allow_remote_and_warns(no_listening, capsys):
    from boardgames.play.cli import main

    assert main(["--game", "dorix", "--web", "--host", "0.0.0.0", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "not a loopback address" in err and "--allow-remote" in err and not no_listening
    assert main(["--game", "dorix", "--web", "--host", "0.0.0.0", "--port", "0", "--allow-remote"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("warning: --host 0.0.0.0 opens this server to the network") and "token" in err
    (bound,) = no_listening[0]
    url = re.search(r"open (http://\S+) ", out).group(1)
    assert url == f"http://127.0.0.1:{bound[1]}/?token=" + url.split("=", 1)[1] and len(url.split("=")[1]) >= 40


def test_a_loopback_host_needs_no_flag_and_prints_a_valid_url(no_listening, capsys):
    from boardgames.play.cli import main

    assert main(["--game", "dorix", "--web", "--host", "127.0.0.1", "--port", "0"]) == 0
    out, err = capsys.readouterr()
    assert not err and re.search(r"open http://127\.0\.0\.1:\d+/ to play", out)
    assert not no_listening[0][0][1] == 0  # port 0: the free port bound is the one printed
    assert f"127.0.0.1:{no_listening[0][0][1]}/" in out
    if _ipv6_loopback():
        assert main(["--game", "dorix", "--web", "--host", "::1", "--port", "0"]) == 0
        out, err = capsys.readouterr()
        assert not err and f"open http://[::1]:{no_listening[1][0][1]}/ to play" in out


@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_python_m_training_web_serves_on_ipv6_loopback():
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames.play.web", "--game", "olix", "--host", "::1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        url = re.search(r"open (http://\[::1\]:\d+/) to play", line)
        assert url, line
        deadline = time.monotonic() + 60
        while True:
            try:
                page = httpx.get(url.group(1), timeout=30)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "the server printed its URL but does not answer"
                time.sleep(0.2)
        token = re.search(r'name="boardgames-token" content="([^"]+)"', page.text).group(1)
        view = httpx.post(url.group(1) + "api/games", headers={TOKEN: token}, timeout=30)
        assert view.status_code == 200 and view.json()["game"] == "olix"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# ----- malformed requests ---------------------------------------------------------------------------
def _game(c) -> str:
    gid = c.post("/api/games").json()["id"]
    assert c.post(f"/api/games/{gid}/move", json={"move": "b2"}).status_code == 200
    return gid


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, 400, ["nested too deeply"]),
        (b'{"action": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", 400, ["nested too deeply"]),
        (b'{"action": ' + b"[" * 500 + b"]" * 500 + b"}", 422, ["integer"]),
        (b'{"action": {"a": {"b": {"c": {"d": 1}}}}}', 422, ["integer"]),
        (b'{"action": ' + b"7" * 5_000 + b"}", 400, ["not JSON", "digits"]),
        (b'{"action": ' + b"7" * 4_000 + b"}", 422, ["out of range", "of 4000 digits"]),
        (b'{"action": -' + b"7" * 4_000 + b"}", 422, ["out of range"]),
        (b'{"action": 1e999}', 422, ["integer"]),
        (b'{"action": NaN}', 422, ["integer"]),
        (b'{"action": null}', 422, ["integer"]),
        (b'{"move": null}', 400, ["string"]),
        (b'{"move": {"b2": 1}}', 400, ["string"]),
        (b'{"move": "b2", "ply": "1"}', 400, ["ply", "whole number"]),
        (b'{"move": "b2", "ply": 1.0}', 400, ["ply", "whole number"]),
        (b'{"move": "b2", "ply": ' + b"9" * 4_000 + b"}", 409, ["of 4000 digits"]),
        (b'{"move": "b2", "seat": [0]}', 400, ["seat", "whole number"]),
        (b'{"move": "b2", "' + b"k" * 100_000 + b'": 1}', 400, ["unknown fields"]),
        (b'{"move": "\\ud800"}', 422, ["illegal move"]),
        (b"\x00\x01\x02", 400, ["not JSON"]),
    ],
)
def test_a_malformed_move_is_a_4xx_with_a_short_message(serve, raw, status, words):
    server = serve(_table())
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    gid = _game(c)
    before = c.get(f"/api/games/{gid}/moves").text
    message = _refused(c.post(f"/api/games/{gid}/move", content=raw), status, *words)
    assert len(message) < 400
    assert c.get(f"/api/games/{gid}/moves").text == before


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (b'{"seat": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", 400, ["nested too deeply"]),
        (b'{"seat": ' + b"1" * 4_000 + b"}", 400, ["0..1", "digits"]),
        (b'{"seat": [[[[[[[[1]]]]]]]]}', 400, ["0..1"]),
        (b'{"seat": 0.0}', 400, ["0..1"]),
        (b"[]", 400, ["JSON object"]),
    ],
)
def test_a_malformed_new_game_is_a_4xx(serve, raw, status, words):
    server = serve(_table())
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    assert len(_refused(c.post("/api/games", content=raw), status, *words)) < 400
    assert not server.config.app.state.registry.plays


def test_a_bad_position_index_is_a_4xx(serve):
    server = serve(_table())
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    rid = c.post("/api/replays", content=random_record(make_game("dorix"), seed=1, max_moves=5).to_text()).json()["id"]
    assert c.get(f"/api/replays/{rid}/5").status_code == 200
    _refused(c.get(f"/api/replays/{rid}/{'9' * 5_000}"), 404, "not in this game", "0..5")
    _refused(c.get(f"/api/replays/{rid}/{'0' * 5_000}1"), 404, "not in this game")
    for bad in ("-1", "1.5", "abc", "%20", "１"):
        _refused(c.get(f"/api/replays/{rid}/{bad}"), 400, "whole number")
    _refused(c.get(f"/api/replays/{'x' * 5_000}/0"), 404, "no replay session")


@pytest.mark.parametrize(
    "text",
    [
        '# dorix {"num_players": ' + "[" * 5_000 + "]" * 5_000 + "}\n1. b2\n",
        '# dorix {"num_players": ' + "2" * 4_000 + "}\n1. b2\n",
        '# dorix {"num_players": 1e999}\n1. b2\n',
        '# dorix {"num_players": 2, "": 1}\n1. b2\n',
        "# dorix " + "{" * 100_000 + "\n",
        "# dorix {}\n" + "1. b2\n" * 2 + "9" * 5_000 + ". c3\n",
        "# olix {}\n1. " + "a" * 100_000 + "\n",
        "\x00" * 1000,
    ],
)
def test_a_malformed_move_list_is_a_4xx(serve, text):
    server = serve(_table())
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    response = c.post("/api/replays", content=text.encode())
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    assert len(response.json()["error"]) < 1000


def _raw(server, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """The status and the body of the answer to a request written by hand (``head``: its first lines)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(f"{head}\r\nHost: 127.0.0.1\r\n{TOKEN}: {server.token}\r\nConnection: close\r\n\r\n".encode() + body)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2]


def test_malformed_headers_and_methods_are_4xx(serve):
    server = serve(_table())
    for length in ("12abc", "9" * 30, "-1", "2, 3"):
        status, _ = _raw(server, f"POST /api/games HTTP/1.1\r\nContent-Length: {length}", b"{}")
        assert 400 <= status < 500, (length, status)
    status, body = _raw(server, "POST /api/games HTTP/1.1\r\nContent-Length: 1000000", b"{}")
    assert status == 413 and b"larger than" in body
    assert _raw(server, "GET /api/config HTTP/1.0")[0] == 200
    assert _raw(server, "GET /api/games/%ff%fe HTTP/1.1")[0] == 404
    assert 400 <= _raw(server, "GET /\x01 HTTP/1.1")[0] < 500
    c = httpx.Client(base_url=server.url, timeout=60, headers={TOKEN: server.token})
    _refused(c.request("DELETE", "/api/games"), 405, "DELETE")
    _refused(c.request("OPTIONS", "/api/games", headers={TOKEN: ""}), 403)
