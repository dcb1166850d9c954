"""Malformed requests sent to the web server while real games are played on it: the server part of the
surfaces campaign.

Each session starts the server of :mod:`boardgames.play.web` (``make_app`` in a thread of this process, on
127.0.0.1 and a free port, playing one game against the random agent) and stops it when its time or
request count is spent (a timer stops it too should the campaign get stuck; the campaign checks that
the port is closed afterwards). Then, at once:

* **live games** (kind ``games``): two clients play whole games as the page does (a random legal move of
  those offered, with the ply seen; now and then the game read again), each game checked at its end:
  every answer was 200 (a 404 is a lost game, a 409 a game moved by another request), and its move list,
  replayed by the engine, ends in the position the server shows (a finished game in a position the
  engine says is over);
* **malformed requests** (kind ``requests``), each written byte by byte on its own connection
  (:func:`build_request`): a request that changes something without the token or with a wrong one; a
  foreign Host header; a method a route does not take; a path to nothing (random segments, unknown game
  and replay ids, bad position indices, ``/static/`` paths climbing out of the folder); a new game, a move
  (at a game of the fuzzer's own, sometimes at a live game) or a move list whose body is malformed (JSON
  nested 1,000 to 100,000 deep, numbers of thousands of digits, NaN, values of the wrong type, unknown
  fields, an illegal action, a move that is no move, both or neither of ``action`` and ``move``, a wrong
  seat or ply, not UTF-8, binary garbage, hostile options in a move list's header); broken headers
  (a Content-Length that is no number or twice, an unsupported Transfer-Encoding, a header line without
  a colon or with control bytes, huge or thousands of headers, bad chunks); bodies past the server's limit
  (declared, or streamed without a length); bytes that are no HTTP at all.

A malformed request passes when it is answered 4xx. It fails when answered 2xx, 3xx or 5xx, when the
connection closes without an answer, when no answer comes within :data:`ANSWER_TIMEOUT`, and when it
moved the fuzzer's own game. After each session: the server holds no game and no replay that a malformed
request made, and its port is closed. Tracebacks the server logs meanwhile are counted (``server log
errors``) and shown, though the client got its 4xx.
"""

from __future__ import annotations

import contextlib
import json
import logging
import select
import socket
import threading
import time

import numpy as np

TOKEN_HEADER = "X-Boardgames-Token"
ANSWER_TIMEOUT = 20.0
"""Seconds a request waits for its answer before it counts as unanswered."""
GAMES = ("dorix-num_players2", "barc", "olix", "dorix-num_players4", "adix")
"""The configs the sessions play, in turn (labels of :func:`boardgames.benchmarks.fuzz.report.configs`)."""
LIVE_CLIENTS = 2
MAX_REQUESTS = 20_000
"""The most malformed requests a session sends (it also ends at its time)."""
ILLEGAL_TEXT = "\u00a7?"
"""Characters no game's notation uses: a move string holding them is never a move."""
CATEGORIES = {
    "token": 12,
    "host": 6,
    "method": 8,
    "path": 14,
    "new game body": 12,
    "move body": 20,
    "move list body": 10,
    "headers": 10,
    "oversized body": 4,
    "not http": 4,
}
"""The kinds of malformed request and their weights."""


def config_of(label: str):
    from boardgames.benchmarks.fuzz.report import configs

    found = {c.label: c for c in configs()}
    if label not in found:
        raise ValueError(f"unknown config {label!r}; configs: {' '.join(found)}")
    return found[label]


# ----- one request on its own connection ---------------------------------------------------------------
def exchange(
    port: int, head: bytes, body: bytes = b"", chunks: list | None = None, timeout: float = ANSWER_TIMEOUT
) -> tuple[int | None, bytes, str]:
    """Send ``head`` (the request line and headers, ending with the blank line), then ``body`` (or the
    ``chunks`` of a chunked body) on a new connection to 127.0.0.1:``port``; ``(status, answer body,
    problem)``: status None with the problem when the connection closed, failed or stayed silent without
    an answer. An answer that comes before the whole body was sent (a refusal by its headers) is read
    at once: the rest is not sent."""
    deadline = time.monotonic() + timeout
    received = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(head)
            pieces = [body[i : i + 65536] for i in range(0, len(body), 65536)] if body else []
            pieces += chunks or []
            for piece in pieces:
                ready, _, _ = select.select([s], [], [], 0.05 if len(body) > 65536 or chunks else 0)
                if ready:
                    break
                try:
                    s.sendall(piece)
                except (BrokenPipeError, ConnectionResetError):
                    break
            while time.monotonic() < deadline:
                s.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    break
                except TimeoutError:
                    return _status(received)[0], b"", f"no answer in {timeout:.0f} s"
                if not chunk:
                    break
                received += chunk
                if _complete(received):
                    break
    except OSError as e:
        if not received:
            return None, b"", f"connection failed: {type(e).__name__}: {e}"
    status, rest = _status(received)
    if status is None:
        return (
            None,
            b"",
            "the connection closed without an answer" if not received else (f"not an HTTP answer: {received[:80]!r}"),
        )
    return status, rest, ""


def _status(data: bytes) -> tuple[int | None, bytes]:
    """The final status of an HTTP answer (interim 1xx answers skipped) and its body."""
    while data.startswith(b"HTTP/"):
        head, sep, rest = data.partition(b"\r\n\r\n")
        parts = head.split(b" ", 2)
        try:
            status = int(parts[1])
        except (IndexError, ValueError):
            return None, b""
        if 100 <= status < 200 and sep:
            data = rest
            continue
        return status, rest
    return None, b""


def _complete(data: bytes) -> bool:
    """Whether ``data`` holds a whole final answer (by its Content-Length), so the read can stop."""
    status, rest = _status(data)
    if status is None or b"\r\n\r\n" not in data:
        return False
    head = data[: data.rfind(b"\r\n\r\n", 0, len(data) - len(rest)) + 4].lower()
    for line in head.split(b"\r\n"):
        if line.startswith(b"content-length:"):
            with contextlib.suppress(ValueError):
                return len(rest) >= int(line.split(b":", 1)[1])
    return False


# ----- the requests ------------------------------------------------------------------------------------
class Context:
    """What a request may aim at on the running server: the token, the fuzzer's own games (their ids,
    plies and legal actions: they never move), a replay, the live games' ids, the game's sizes."""

    def __init__(self, port: int, token: str, game, own: list, replay: tuple, live: list):
        self.port, self.token, self.game = port, token, game
        self.own = own  # [{"id", "ply", "seat", "legal": [actions], "texts": [moves]}]
        self.replay = replay  # (id, positions)
        self.live = live  # ids, updated by the live clients
        self.num_actions = game.info.num_actions
        self.num_seats = game.info.num_seats


def _pick(r, options):
    """One of ``options`` (any values: ``Generator.choice`` would make them one numpy array)."""
    return options[int(r.integers(len(options)))]


def _junk(r, size: int | None = None) -> str:
    """A path segment that names nothing (it always holds a character no id has)."""
    alphabet = list("abcxyz019_-.~!$&'()*+,;=:@") + [
        "%00",
        "%ff",
        "%2f",
        "%2e%2e",
        "%c0%af",
        "\u00e9",
        "\u4e2d",
        "%20",
        "%",
        "%%",
        "\t",
    ]
    n = size or int(_pick(r, [1, 3, 8, 40, 300, 3000]))
    # ends in a letter: a path ending in "/" (or %2f) is redirected to the one without it (Starlette), not refused
    return "~" + "".join(str(_pick(r, alphabet)) for _ in range(n)) + "z"


def _deep(r) -> str:
    d = int(_pick(r, [1000, 3000, 20_000, 100_000]))
    return "[" * d + "]" * d


def _big(r) -> str:
    return ("-" if r.random() < 0.3 else "") + "7" * int(_pick(r, [20, 400, 4000, 4300, 5000]))


def _bad_move_text(r) -> str:
    pick = int(r.integers(6))
    if pick == 0:
        return "A" * int(_pick(r, [65, 1000, 100_000]))
    if pick == 1:
        return ILLEGAL_TEXT + "\u0000"
    if pick == 2:
        return "b2" + ILLEGAL_TEXT
    if pick == 3:
        return ILLEGAL_TEXT + "\u202e" * 3
    if pick == 4:
        return ""
    return "".join(chr(int(c)) for c in r.integers(0x21, 0x2FFF, int(r.integers(1, 30)))) + ILLEGAL_TEXT


def _json(value) -> bytes:
    return json.dumps(value).encode()


def _garbage_json(r) -> bytes:
    pick = int(r.integers(6))
    if pick == 0:
        return r.bytes(int(r.integers(1, 2000))).replace(b"{", b"x") + b"\xff"  # never UTF-8, never an object
    if pick == 1:
        return b"\x00\x01\x02"
    if pick == 2:
        return b"{" * int(_pick(r, [10, 10_000]))
    if pick == 3:
        return b'{"action": 1,}'
    if pick == 4:
        return b"x" + r.bytes(10)
    return b'{"\xc0\xaf": 1}'


def new_game_body(r, ctx: Context) -> tuple[bytes, str]:
    """A body for ``POST /api/games`` that must be refused (no valid seat, nothing else)."""
    n = ctx.num_seats
    options = [
        (lambda: _deep(r).encode(), "JSON nested deep"),
        (lambda: b'{"seat": ' + _deep(r).encode() + b"}", "seat nested deep"),
        (lambda: b'{"seat": ' + _big(r).encode() + b"}", "seat of thousands of digits"),
        (lambda: _json({"seat": int(_pick(r, [-1, n, n + 5, 2**63]))}), "seat out of range"),
        (lambda: _json({"seat": _pick(r, [1.0, 0.5, "0", [0], {"s": 0}, True, False])}), "seat of a wrong type"),
        (
            lambda: b'{"seat": ' + str(_pick(r, ["NaN", "Infinity", "-Infinity", "1e999"])).encode() + b"}",
            "seat not finite",
        ),
        (lambda: _json({"seat": 0, _junk(r, 5): 1}), "an unknown field"),
        (lambda: _json({"k" * int(_pick(r, [10, 100_000])): 1}), "an unknown long field"),
        (lambda: _json(_pick(r, [[], [0], 1, "x", True])), "JSON that is no object"),
        (lambda: b"null", "null"),
        (lambda: _garbage_json(r), "bytes that are not JSON"),
    ]
    make, what = options[int(r.integers(len(options)))]
    return make(), what


def move_body(r, ctx: Context, own: dict | None) -> tuple[bytes, str]:
    """A body for ``POST /api/games/<id>/move`` that must be refused: for the fuzzer's own game (``own``:
    its ply, seat and legal actions known) anything but a legal move; for a live game, only what is
    refused in any position."""
    n = ctx.num_actions
    always = [
        (lambda: _deep(r).encode(), "JSON nested deep"),
        (lambda: b'{"action": ' + _deep(r).encode() + b"}", "action nested deep"),
        (lambda: b'{"action": ' + _big(r).encode() + b"}", "action of thousands of digits"),
        (lambda: _json({"action": int(_pick(r, [n, n + 1, 2**31, 2**63, -1, -(2**63)]))}), "action out of range"),
        (
            lambda: _json({"action": _pick(r, ["5", [1], {"a": 1}, None, True, False, 1.5, ""])}),
            "action of a wrong type",
        ),
        (
            lambda: b'{"action": ' + str(_pick(r, ["NaN", "Infinity", "1e999", "-0.0e1"])).encode() + b"}",
            "action not a whole number",
        ),
        (lambda: _json({"move": _pick(r, [None, 1, [], {"b2": 1}, True])}), "move not a string"),
        (lambda: _json({"move": _bad_move_text(r)}), "move that is no move"),
        (lambda: b'{"move": "\\ud800' + ILLEGAL_TEXT.encode("utf-8") + b'"}', "move with a lone surrogate"),
        (lambda: _json({"action": 0, "move": "b2"}), "both action and move"),
        (lambda: _json({"ply": 0}), "neither action nor move"),
        (lambda: _json({"action": 0, _junk(r, 4): 1}), "an unknown field"),
        (lambda: _json({"action": 0, "ply": _pick(r, ["1", 1.0, [1], None])}), "ply of a wrong type"),
        (lambda: _json({"action": 0, "seat": _pick(r, ["0", 0.0, [0], True])}), "seat of a wrong type"),
        (lambda: _json(_pick(r, [[], [0], "x", 1])), "JSON that is no object"),
        (lambda: _garbage_json(r), "bytes that are not JSON"),
    ]
    if own is not None and own["legal"]:
        legal = int(_pick(r, own["legal"]))
        illegal = sorted(set(range(n)) - set(own["legal"]))
        always += [
            (lambda: _json({"action": legal, "ply": own["ply"] + int(_pick(r, [1, 2, 1000]))}), "a stale ply"),
            (lambda: _json({"action": legal, "ply": -1}), "a negative ply"),
            (lambda: _json({"action": legal, "seat": (own["seat"] + 1) % ctx.num_seats}), "another seat"),
            (lambda: _json({"action": legal, "move": own["texts"][0]}), "a legal action and a legal move"),
            (lambda: b"", "an empty body"),
        ]
        if illegal:
            always.append((lambda: _json({"action": int(_pick(r, illegal))}), "an illegal action in range"))
    make, what = always[int(r.integers(len(always)))]
    return make(), what


def move_list_body(r, ctx: Context) -> tuple[bytes, str]:
    """A move list for ``POST /api/replays`` that must be refused."""
    name = ctx.game.info.name
    options = [
        (lambda: r.bytes(int(r.integers(1, 3000))) + b"\xff\xfe", "bytes that are not UTF-8"),
        (lambda: f'# {name} {{"num_players": {_deep(r)}}}\n1. b2\n'.encode(), "options nested deep"),
        (lambda: f'# {name} {{"max_turns": {_big(r)}}}\n'.encode(), "an option of thousands of digits"),
        (lambda: f'# {name} {{"max_turns": 1e999}}\n'.encode(), "an option not finite"),
        (lambda: f'# {name} {{"": 1, "nonsuch": [1]}}\n'.encode(), "unknown options"),
        (lambda: f"# {name} [1, 2]\n".encode(), "options that are no object"),
        (lambda: f"# {name} ".encode() + b"{" * int(_pick(r, [100, 100_000])) + b"\n", "options not JSON"),
        (lambda: f"# {name} {{}}\n1. {ILLEGAL_TEXT}\n".encode(), "an illegal move"),
        (lambda: f"# {name} {{}}\n1. {'a' * 100_000}{ILLEGAL_TEXT}\n".encode(), "a move 100,000 long"),
        (lambda: f"# {name} {{}}\n{'9' * 5000}. {ILLEGAL_TEXT}\n".encode(), "a move number of 5,000 digits"),
        (lambda: b"\x00" * int(_pick(r, [1, 1000, 100_000])), "NUL bytes"),
        (lambda: f"1. {_bad_move_text(r)}{ILLEGAL_TEXT}\n".encode("utf-8", "surrogatepass"), "no header, no move"),
    ]
    make, what = options[int(r.integers(len(options)))]
    return make(), what


def _target(r, ctx: Context) -> tuple[str, str, bytes, dict | None]:
    """A request that changes something and would be accepted with the token: (method, path, body, the
    fuzzer's game it would move or None)."""
    own = ctx.own[int(r.integers(len(ctx.own)))]
    pick = int(r.integers(4))
    if pick == 0:
        return "POST", "/api/games", b"", None
    if pick == 1:
        body = _json({"action": int(own["legal"][0])} if own["legal"] else {})
        return "POST", f"/api/games/{own['id']}/move", body, own
    if pick == 2:
        from boardgames.envs.tools.replay import random_record

        text = random_record(ctx.game, seed=int(r.integers(100)), max_moves=3).to_text()
        return "POST", "/api/replays", text.encode(), None
    return str(_pick(r, ["PUT", "DELETE", "PATCH"])), f"/api/games/{own['id']}/move", b"{}", own


class _Request:
    """A request being built: its line, headers and body, or ``raw`` bytes that are not HTTP; ``own``: the
    fuzzer's game it aims at; ``what``: what is wrong with it, in words."""

    def __init__(self, host: str):
        self.host = host
        self.headers: list[tuple[str, str | None]] = [("Host", host), ("Connection", "close")]
        self.method, self.path, self.body, self.what = "GET", "/", b"", ""
        self.chunks: list[bytes] | None = None
        self.own: dict | None = None
        self.raw: bytes | None = None


def build_request(seed: int, ctx: Context) -> dict:
    """The malformed request of seed ``seed`` for the server of ``ctx``: ``{"category", "what", "head",
    "body", "chunks", "own"}`` (``own``: the fuzzer's game it aims at, which must not move)."""
    r = np.random.default_rng(seed)
    names = list(CATEGORIES)
    weights = np.array([CATEGORIES[k] for k in names], dtype=float)
    category = names[int(r.choice(len(names), p=weights / weights.sum()))]
    req = _Request(f"127.0.0.1:{ctx.port}")
    _BUILDERS[category](r, ctx, req)
    if req.raw is None:
        req.raw = _http_bytes(req)
    return {
        "category": category,
        "what": req.what,
        "head": req.raw,
        "body": req.body,
        "chunks": req.chunks,
        "own": None if req.own is None else req.own["id"],
    }


def _http_bytes(req: _Request) -> bytes:
    """The request line and headers of ``req`` (a Content-Length added for a body that declares none)."""
    declared = any(k.lower() in ("content-length", "transfer-encoding") for k, _ in req.headers)
    if req.body and req.chunks is None and not declared:
        req.headers.append(("Content-Length", str(len(req.body))))
    lines = [f"{req.method} {req.path} HTTP/1.1".encode("utf-8", "surrogatepass")]
    for name, value in req.headers:
        lines.append(name.encode("utf-8") if value is None else f"{name}: {value}".encode())
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _token_request(r, ctx: Context, req: _Request) -> None:
    """An API call with the session token missing, wrong, cut, too long, or only in the query or a cookie."""
    token = ctx.token
    req.method, req.path, req.body, req.own = _target(r, ctx)
    pick = int(r.integers(6))
    if pick == 1:
        req.headers.append((TOKEN_HEADER, _junk(r, 20)[1:]))
    elif pick == 2:
        req.headers.append((TOKEN_HEADER, token[:-1]))
    elif pick == 3:
        req.headers.append((TOKEN_HEADER, token + "x"))
    elif pick == 4:
        req.path += f"?token={token}"
    elif pick == 5:
        req.headers.append(("Cookie", f"token={token}; boardgames={token}"))
    what = ["missing", "wrong", "cut", "too long", "in the query only", "in a cookie only"][pick]
    req.what = f"{req.method} {req.path[:40]} with the token {what}"


BAD_HOSTS = ["evil.example", "127.0.0.2", "localhost.evil.example", "[::1", "", "127.0.0.1:80:80", "user@127.0.0.1",
             "0.0.0.0", "127.0.0.1.", "\u217docalhost", "[::2]"]  # fmt: skip
"""Host headers the server must refuse (DNS rebinding and malformed ones)."""


def _host_request(r, ctx: Context, req: _Request) -> None:
    """A call with the right token under a Host header that is not the server's."""
    req.method, req.path, req.body, req.own = ("GET", "/api/config", b"", None) if r.random() < 0.4 else _target(r, ctx)
    bad = str(_pick(r, BAD_HOSTS))
    req.headers = [("Host", bad), ("Connection", "close"), (TOKEN_HEADER, ctx.token)]
    req.what = f"{req.method} {req.path[:40]} for Host {bad!r}"


METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO", "get", "G3T", "M" * 300]
"""Request methods, the wrong ones for each page drawn from here."""


def _method_request(r, ctx: Context, req: _Request) -> None:
    """A page asked with a method it does not take."""
    own = ctx.own[0]
    path, allowed = [
        ("/api/games", ["POST"]),
        ("/api/config", ["GET", "HEAD"]),
        (f"/api/games/{own['id']}", ["GET", "HEAD"]),
        (f"/api/games/{own['id']}/move", ["POST"]),
        ("/api/replays", ["POST"]),
        ("/", ["GET", "HEAD"]),
    ][int(r.integers(6))]
    req.path = path
    req.method = str(_pick(r, [m for m in METHODS if m not in allowed]))
    req.headers.append((TOKEN_HEADER, ctx.token))
    req.body = b"{}" if req.method not in ("GET", "HEAD") else b""
    req.own = ctx.own[0] if "/move" in path else None
    req.what = f"{req.method[:20]} {path[:40]}"


STATIC_TRICKS = ["../app.py", "%2e%2e/session.py", "..%2f..%2f..%2fpyproject.toml", "../../../../../../etc/passwd",
                 "app.js%00", "nonsuch.js", "", "..", "%2e%2e%2f%2e%2e%2fboard.py"]  # fmt: skip
"""Static file names that try to leave the static folder, or name nothing."""


def _path_request(r, ctx: Context, req: _Request) -> None:
    """A GET of a page, game, replay position or static file that does not exist or tries to escape."""
    own = req.own = ctx.own[int(r.integers(len(ctx.own)))]
    rid, positions = ctx.replay
    live = ctx.live[int(r.integers(len(ctx.live)))] if ctx.live else own["id"]
    index = str(_pick(r, ["-1", "1.5", "abc", "%20", "\uff11", "9" * 5000, str(positions), "0x1", "1e3", "+1"]))
    req.path = [
        "/" + _junk(r),
        "/api/" + _junk(r),
        "/api/games/" + _junk(r),
        "/api/games/" + _junk(r) + "/moves",
        f"/api/games/{live}/{_junk(r)}",
        f"/api/games/{own['id']}{_junk(r, 2)}",
        "/api/replays/" + _junk(r) + "/0",
        f"/api/replays/{rid}/{index}",
        "/static/" + str(_pick(r, STATIC_TRICKS)),
    ][int(r.integers(9))]
    if r.random() < 0.2:
        req.path += "?" + _junk(r, 20)
    req.what = f"GET {req.path[:60]}"


def _new_game_request(r, ctx: Context, req: _Request) -> None:
    """A new game whose settings are malformed."""
    req.method, req.path = "POST", "/api/games"
    req.headers.append((TOKEN_HEADER, ctx.token))
    req.body, req.what = new_game_body(r, ctx)


def _move_request(r, ctx: Context, req: _Request) -> None:
    """A malformed move, at one of the fuzzer's games or at a live game of another player."""
    req.method = "POST"
    at_live = ctx.live and r.random() < 0.2
    if at_live:
        req.own, gid = None, ctx.live[int(r.integers(len(ctx.live)))]
    else:
        req.own = ctx.own[int(r.integers(len(ctx.own)))]
        gid = req.own["id"]
    req.path = f"/api/games/{gid}/move"
    req.headers.append((TOKEN_HEADER, ctx.token))
    req.body, what = move_body(r, ctx, req.own)
    req.what = f"a move at {'a live game' if at_live else 'its own game'}: {what}"


def _move_list_request(r, ctx: Context, req: _Request) -> None:
    """A replay whose list of moves is malformed."""
    req.method, req.path = "POST", "/api/replays"
    req.headers.append((TOKEN_HEADER, ctx.token))
    req.body, req.what = move_list_body(r, ctx)


HEADER_BASES = ["no token", "no such page", "a foreign host", "a new game"]
"""What the request of a bad-headers case is, whatever its headers do (see :func:`_headers_request`)."""


def _headers_request(r, ctx: Context, req: _Request) -> None:
    """A request refused whatever its headers do (no token, no such page, a bad host), or a new game whose
    chunked body is broken, with one kind of malformed header (:func:`_bad_header`)."""
    base = int(r.integers(4))
    if base == 3:
        req.method, req.path, req.body = "POST", "/api/games", b""
        req.headers.append((TOKEN_HEADER, ctx.token))
    elif base == 0:
        req.method, req.path, req.body = "POST", "/api/games", b"{}"
    elif base == 1:
        req.path = "/" + _junk(r, 8)
    else:
        req.method, req.path, req.body = "POST", "/api/games", b"{}"
        req.headers[0] = ("Host", "evil.example")
        req.headers.append((TOKEN_HEADER, ctx.token))
    what = _bad_header(r, req, 8 if base == 3 else int(r.integers(11)))
    req.what = f"{req.method} {req.path[:30]} ({HEADER_BASES[base]}) with {what}"


def _bad_header(r, req: _Request, pick: int) -> str:
    """Add the malformed header (or headers, or chunk) ``pick`` to ``req``; what it is, in words."""
    headers = req.headers
    if pick == 0:
        cl = str(_pick(r, ["12abc", "-1", "9" * 30, "2, 3", "0x10", "+5", "", " ", "1e3"]))
        headers.append(("Content-Length", cl))
        return f"Content-Length {cl!r}"
    if pick == 1:
        headers += [("Content-Length", str(len(req.body))), ("Content-Length", str(len(req.body) + 1))]
        return "two Content-Lengths"
    if pick == 2:
        te = str(_pick(r, ["gzip", "chunked, gzip", "identity", "x" * 100, "chunked;x=1"]))
        headers.append(("Transfer-Encoding", te))
        return f"Transfer-Encoding {te!r}"
    if pick == 3:
        headers.append(("X-Junk" + str(_pick(r, ["", " x", "\x01", "\u00e9"])), "1"))
        return "a bad header name"
    if pick == 4:
        headers.append(("X-Junk", str(_pick(r, ["\x00", "a\x7fb", "\x01\x02", "\u00e9\u00e8", "\r"]))))
        return "control bytes in a header value"
    if pick == 5:
        size = int(_pick(r, [8_000, 20_000, 70_000]))
        headers.append(("X-Big", "a" * size))
        return f"a header of {size:,} bytes"
    if pick == 6:
        count = int(_pick(r, [100, 1000, 5000]))
        headers += [(f"X-H{i}", "1") for i in range(count)]
        return f"{count:,} headers"
    if pick == 7:
        headers.append(("Cookie", "=; ;;=;" * int(_pick(r, [1, 3000])) + "\u00e9"))
        return "a malformed cookie"
    if pick == 8:
        headers += [("Transfer-Encoding", "chunked")]
        req.chunks = [b"zz\r\nab\r\n0\r\n\r\n"] if r.random() < 0.5 else [b"5\r\nab\r\n0\r\n\r\n"]
        req.body = b""
        return "a bad chunk"
    if pick == 9:
        headers.append(("Expect", str(_pick(r, ["100-continue", "999-nonsense"]))))
        return "an Expect header"
    headers.append(("Junk line without a colon", None))
    return "a header line without a colon"


def _oversized_request(r, ctx: Context, req: _Request) -> None:
    """A body over the server's limit, declared or streamed in chunks without a length."""
    from boardgames.play.web.app import MAX_BODY

    req.method = "POST"
    req.path = str(_pick(r, ["/api/games", "/api/replays", f"/api/games/{ctx.own[0]['id']}/move"]))
    req.own = ctx.own[0] if "/move" in req.path else None
    req.headers.append((TOKEN_HEADER, ctx.token))
    size = MAX_BODY + int(_pick(r, [1, 1000, 1_000_000]))
    data = b"[" * size
    if r.random() < 0.5:
        req.body = data
        req.what = f"a body of {size:,} bytes (declared)"
        return
    req.headers.append(("Transfer-Encoding", "chunked"))
    parts = (data[i : i + 65536] for i in range(0, size, 65536))
    req.chunks = [b"%x\r\n" % len(part) + part + b"\r\n" for part in parts] + [b"0\r\n\r\n"]
    req.what = f"a body of {size:,} bytes streamed without a length"


NOT_HTTP = ["random bytes", "a TLS hello", "the HTTP/2 preface", "a bad HTTP version", "control bytes in the path",
            "three random words"]  # fmt: skip
"""The kinds of bytes that are not an HTTP/1.1 request."""


def _not_http_request(r, ctx: Context, req: _Request) -> None:
    """Bytes that are not an HTTP/1.1 request."""
    pick = int(r.integers(6))
    host = req.host.encode()
    req.raw = [
        r.bytes(int(r.integers(1, 2000))).replace(b"\r", b"").replace(b"\n", b"") + b"\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + r.bytes(64).replace(b"\n", b"") + b"\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        b"GET / HTTP/1.1.1\r\nHost: " + host + b"\r\n\r\n",
        b"GET /\x01\x02 HTTP/1.1\r\nHost: " + host + b"\r\n\r\n",
        b" ".join(_junk(r, 5).encode() for _ in range(3)) + b"\r\n\r\n",
    ][pick]
    req.what = NOT_HTTP[pick]


_BUILDERS = {
    "token": _token_request,
    "host": _host_request,
    "method": _method_request,
    "path": _path_request,
    "new game body": _new_game_request,
    "move body": _move_request,
    "move list body": _move_list_request,
    "headers": _headers_request,
    "oversized body": _oversized_request,
    "not http": _not_http_request,
}
"""Each category of :data:`CATEGORIES` -> what builds its requests."""


# ----- a session ---------------------------------------------------------------------------------------
class LogErrors(logging.Handler):
    """Counts the error records (tracebacks) the server logs, keeping the first few."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.count, self.examples = 0, []

    def emit(self, record):
        self.count += 1
        if len(self.examples) < 3:
            text = record.getMessage().strip()
            if record.exc_info and record.exc_info[1] is not None:
                error = record.exc_info[1]
                text += f" ({type(error).__name__}{': ' + str(error)[:100] if str(error) else ''})"
            self.examples.append(text[:300])


@contextlib.contextmanager
def server_for(label: str, seed: int, limit_seconds: float):
    """The server of config ``label`` on 127.0.0.1 (a free port) for the block, with its log errors
    counted; stopped at the end, and by a timer ``limit_seconds`` after its start whatever happens."""
    from boardgames.play.web.app import ServerThread, make_app
    from boardgames.play.web.session import Table

    game = config_of(label).make_game()
    app = make_app(Table(game, "random", seed=seed), limit=32)
    server = ServerThread(app, host="127.0.0.1", port=0)  # uvicorn configures its loggers here
    errors = LogErrors()
    log = logging.getLogger("uvicorn.error")
    level, propagate = log.level, log.propagate
    log.addHandler(errors)
    log.setLevel(logging.ERROR)  # "Invalid HTTP request received." (a warning) is the expected answer here
    log.propagate = False  # counted and shown by the campaign, not printed as they come
    timer = threading.Timer(limit_seconds, lambda: setattr(server.server, "should_exit", True))
    timer.daemon = True
    try:
        server.start()
        timer.start()
        yield server, app, game, errors
    finally:
        timer.cancel()
        server.stop()
        log.removeHandler(errors)
        log.setLevel(level)
        log.propagate = propagate


def port_closed(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return False
    except OSError:
        return True


def own_game(client) -> dict:
    """A game of the fuzzer's own (never played): its id, ply, seat and legal moves."""
    view = client.post("/api/games").json()
    return {
        "id": view["id"],
        "ply": view["ply"],
        "seat": view["seat"],
        "legal": [m["action"] for m in view["legal"]],
        "texts": [m["text"] for m in view["legal"]],
        "moves": "\n".join(view["moves"]),
    }


class LiveClient(threading.Thread):
    """A client playing whole games on the server until ``stop`` is set, as the page does; each game's
    result goes to ``results``: ``(seed, outcome, moves, problem or None)``."""

    def __init__(self, url: str, token: str, game, seed: int, stop: threading.Event, ids: list, results: list):
        super().__init__(daemon=True)
        self.url, self.token, self.game, self.seed = url, token, game, seed
        self.stop_event, self.ids, self.results = stop, ids, results

    def run(self):
        import httpx

        rng = np.random.default_rng(self.seed)
        with httpx.Client(base_url=self.url, headers={TOKEN_HEADER: self.token}, timeout=60.0) as client:
            while not self.stop_event.is_set():
                game_seed = int(rng.integers(2**31))
                self.results.append(
                    (game_seed, *play_live_game(client, self.game, game_seed, self.stop_event, self.ids))
                )


def play_live_game(client, game, seed: int, stop: threading.Event | None = None, ids: list | None = None):
    """One whole game (until ``stop`` is set): ``(outcome, moves played, problem or None)``."""
    import httpx

    from boardgames.envs.tools.replay import GameRecord

    rng = np.random.default_rng(seed)
    try:
        response = client.post("/api/games")
        while response.status_code == 503 and not (stop and stop.is_set()):
            time.sleep(0.5)
            response = client.post("/api/games")
        if response.status_code != 200:
            return "refused", 0, f"new game answered {response.status_code}: {response.text[:200]}"
        view = response.json()
        gid = view["id"]
        if ids is not None:
            ids.append(gid)
        moves = 0
        while not view["result"] and not (stop and stop.is_set()):
            move = view["legal"][int(rng.integers(len(view["legal"])))]
            response = client.post(f"/api/games/{gid}/move", json={"action": move["action"], "ply": view["ply"]})
            if response.status_code != 200:
                what = {404: "lost (404 while in progress)", 409: "moved by another request (409)"}.get(
                    response.status_code, f"answered {response.status_code}"
                )
                return "failed", moves, f"game {gid} at ply {view['ply']}: {what}: {response.text[:200]}"
            moves += 1
            view = response.json()
            if rng.random() < 0.1:
                again = client.get(f"/api/games/{gid}")
                if again.status_code != 200 or again.json()["ply"] != view["ply"]:
                    return "failed", moves, f"game {gid} read again: {again.status_code} {again.text[:200]}"
        listing = client.get(f"/api/games/{gid}/moves")
        if listing.status_code != 200:
            return "failed", moves, f"game {gid}'s move list: {listing.status_code} {listing.text[:200]}"
        state = GameRecord.from_text(game, listing.text).last
        if state.to_text() != view["position"]:
            return (
                "failed",
                moves,
                f"game {gid}: its move list replays to {state.to_text()!r}, the server shows {view['position']!r}",
            )
        if bool(view["result"]) != state.is_terminal():
            return (
                "failed",
                moves,
                f"game {gid}: the server says {view['result']!r}, the engine is_terminal() {state.is_terminal()}",
            )
        return ("finished" if view["result"] else "unfinished at the end"), moves, None
    except httpx.TransportError as e:
        return "failed", 0, f"connection failed: {type(e).__name__}: {e}"


def judge_answer(request: dict, status, problem: str) -> tuple[str, str | None]:
    """``(outcome, problem)`` of a malformed request's answer: a 4xx passes."""
    if status is None:
        return "no answer", problem
    if 400 <= status < 500:
        return str(status), None
    return str(status), f"answered {status}"


def session(
    label: str, seconds: float, seed: int, max_requests: int | None, tally_requests, tally_games, record
) -> None:
    """One server session of config ``label``: live games and malformed requests for ``seconds`` (or
    ``max_requests`` requests), counted in the two tallies; ``record(tally, seed, check, problem, where,
    what)`` keeps a failure."""
    rng = np.random.default_rng([seed, 7])
    start = time.monotonic()
    with server_for(label, seed, seconds + 120) as (server, app, game, errors):
        port = server.port
        registry = app.state.registry
        try:
            client, ctx = set_up(server, game, seed)
        except SetUpFailed as e:
            record(tally_requests, seed, "set-up", str(e), f"session@{label}", "")
            return
        token, own, replay = ctx.token, ctx.own, {"id": ctx.replay[0]}
        stop = threading.Event()
        results: list = []
        live = [
            LiveClient(server.url, token, game, int(rng.integers(2**31)), stop, ctx.live, results)
            for _ in range(LIVE_CLIENTS)
        ]
        for c in live:
            c.start()
        sent = 0
        first_logged: list = []
        limit = MAX_REQUESTS if max_requests is None else max_requests
        while time.monotonic() - start < seconds and sent < limit:
            request_seed = int(rng.integers(2**31))
            request = build_request(request_seed, ctx)
            logged = errors.count
            status, _, problem = exchange(port, request["head"], request["body"], request["chunks"])
            if errors.count > logged and not first_logged:
                first_logged.append(f"{label}: after request seed {request_seed} ({request['what']}): ")
            sent += 1
            tally_requests.tries += 1
            outcome, verdict = judge_answer(request, status, problem)
            tally_requests.count(outcome)
            where = f"request@{label}"
            if verdict:
                record(
                    tally_requests, request_seed, f"{request['category']}: {outcome}", verdict, where, request["what"]
                )
            if request["own"] is not None:
                mine = next(g for g in own if g["id"] == request["own"])
                after = client.get(f"/api/games/{mine['id']}")
                if after.status_code != 200 or "\n".join(after.json()["moves"]) != mine["moves"]:
                    record(
                        tally_requests,
                        request_seed,
                        f"{request['category']}: moved",
                        f"the fuzzer's own game changed or went ({after.status_code})",
                        where,
                        request["what"],
                        not verdict,
                    )
        stop.set()
        for c in live:
            c.join(timeout=120)
            if c.is_alive():
                record(
                    tally_games,
                    seed,
                    "live client stuck",
                    "a live client did not stop within 120 s",
                    f"session@{label}",
                    "",
                )
        for game_seed, outcome, moves, problem in results:
            tally_games.tries += 1
            tally_games.count(outcome)
            tally_games.count("moves", moves)
            if problem:
                record(tally_games, game_seed, "live game", problem, f"game@{label}", "")
        made = set(registry.plays) - {g["id"] for g in own} - set(ctx.live)
        if made:
            record(
                tally_requests,
                seed,
                "a game made",
                f"{len(made)} game(s) that no valid request made",
                f"session@{label}",
                "",
            )
        if set(registry.replays) - {replay["id"]}:
            record(tally_requests, seed, "a replay made", "a replay that no valid request made", f"session@{label}", "")
        client.close()
        log_errors = errors
    tally_requests.note(
        f"session {label}: {time.monotonic() - start:.0f} s, {sent:,} requests, "
        f"{sum(1 for r in results if r[1] != 'refused'):,} live games"
    )
    if not port_closed(port):
        record(tally_requests, seed, "server did not stop", f"127.0.0.1:{port} still answers", f"session@{label}", "")
    if log_errors.count:
        tally_requests.count("server log errors", log_errors.count)
        where = first_logged[0] if first_logged else f"{label}: "
        tally_requests.note(f"{where}the server logged {log_errors.examples[0]!r} (the client got its 4xx)")


class SetUpFailed(Exception):
    """The server did not give what a session needs (its page and token, a game, a replay)."""


def set_up(server, game, seed: int):
    """What a session needs on a new server: a client carrying the token read from the page (as a browser
    does), two games of the fuzzer's own and a replay; ``(client, Context)``. :class:`SetUpFailed`
    when the server does not give them."""
    import httpx

    from boardgames.envs.tools.replay import random_record

    try:
        page = httpx.get(server.url + "/", timeout=60)
        token = page.text.split('<meta name="boardgames-token" content="', 1)[1].split('"', 1)[0]
        client = httpx.Client(base_url=server.url, headers={TOKEN_HEADER: token}, timeout=60)
        own = [own_game(client) for _ in range(2)]
        response = client.post("/api/replays", content=random_record(game, seed=seed, max_moves=4).to_text())
        replay = response.json()
        return client, Context(server.port, token, game, own, (replay["id"], replay["count"]), [])
    except (httpx.HTTPError, IndexError, KeyError, ValueError) as e:
        raise SetUpFailed(f"the server did not start a session: {type(e).__name__}: {str(e)[:200]}") from None


def replay_request(label: str, seed: int) -> int:
    """Send the malformed request of seed ``seed`` to a fresh server of config ``label``, printing it and
    the answer; 1 when it fails (not a 4xx, or its target game moved), else 0."""

    with server_for(label, 0, 300) as (server, app, game, errors):
        client, ctx = set_up(server, game, 0)
        own = ctx.own
        ctx.live.append(own_game(client)["id"])  # a game in progress, as the live clients' are
        request = build_request(seed, ctx)
        print(f"{request['category']}: {request['what']}")
        print(
            "request:",
            repr(request["head"][:600]),
            f"+ {len(request['body']):,} bytes of body" if request["body"] else "",
            "(chunked)" if request["chunks"] else "",
        )
        status, body, problem = exchange(server.port, request["head"], request["body"], request["chunks"])
        print(f"answer: {status} {body[:300]!r} {problem}")
        failed = not (status is not None and 400 <= status < 500)
        if request["own"] is not None:
            mine = next(g for g in own if g["id"] == request["own"])
            if "\n".join(client.get(f"/api/games/{mine['id']}").json()["moves"]) != mine["moves"]:
                print("the fuzzer's own game moved")
                failed = True
        for text in errors.examples:
            print("server log:", text)
    return int(failed)


def replay_game(label: str, seed: int) -> int:
    """Play the live game of seed ``seed`` alone on a fresh server of config ``label`` (the same moves
    chosen from the same offers; the server's agent, shared by every game of a session, may answer
    otherwise); 1 when it fails."""
    import httpx

    with server_for(label, 0, 600) as (server, app, game, errors):
        page = httpx.get(server.url + "/", timeout=60)
        token = page.text.split('<meta name="boardgames-token" content="', 1)[1].split('"', 1)[0]
        with httpx.Client(base_url=server.url, headers={TOKEN_HEADER: token}, timeout=60) as client:
            outcome, moves, problem = play_live_game(client, game, seed)
    print(f"{label} game {seed}: {outcome}, {moves} moves{'; ' + problem if problem else ''}")
    return int(problem is not None)
