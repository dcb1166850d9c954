"""The web server: a Starlette app over :mod:`boardgames.play.web.session`, its JSON API and the page.

Routes (every answer JSON but the page and its files; an error is ``{"error": message}`` with a 4xx, or
503 when the server is full of games in progress):

=========================================  ========================================================
``GET /``, ``GET /replay``                 the page (``static/index.html``: play, or the replay viewer)
``GET /static/<file>``                     its script and style (package data: no CDN, nothing fetched)
``GET /api/config``                        the game the server plays, the seats, the agents
``POST /api/games``                        a new game (``{"seat": k}`` to sit elsewhere): its view
``GET /api/games/<id>``                    the game's view (picture, squares, legal moves, moves...)
``POST /api/games/<id>/move``              ``{"action": index}`` or ``{"move": "b2"}`` (+ ``"ply"``)
``GET /api/games/<id>/moves``              the move list (the ``--save-moves`` format)
``POST /api/replays``                      a move list as the body: a replay, at its start position
``GET /api/replays/<id>/<index>``          position ``index`` of a replay
=========================================  ========================================================

What keeps it safe to leave running:

* Every request that changes something (any method but GET and HEAD) must carry the server's token in
  the ``X-Boardgames-Token`` header (:data:`TOKEN_HEADER`), else 403. The token is drawn when the server
  starts and written into the page it serves; another web site the user visits can neither read it nor
  send a custom header across origins without the server's consent (which it never gives), so it cannot
  start or play games here.
* It answers only requests addressed to a host it serves (loopback names on a loopback address: no DNS
  rebinding); an IPv6 host is read in its brackets (``[::1]:8765``).
* On an address open to the network (``remote``), every request but the script and style must carry the
  token too (the header, the ``token`` query parameter of the URL the server prints, or the cookie the
  page gets from that URL): it is the password of the server.
* Request bodies are bounded (:data:`MAX_BODY`), only JSON objects with known keys are read, and every
  malformed request (broken or deeply nested JSON, wrong types, huge numbers, a bad position index) is
  answered 4xx with a message. The only thing a request can change is the game it names, by one move the
  engine accepts.
* Games in progress are never let go to make room (:class:`boardgames.play.web.session.Registry`), and a
  finished game stays readable (its view, its move list) for ``finished_grace`` seconds after its last
  request (10 minutes, ``--finished-minutes``): past the limit, the games let go are abandoned games and
  finished games past that time (the longest without a request first), else a finished game of the
  browser asking for the new game (the ``boardgames_player`` cookie, :data:`PLAYER_COOKIE`, set when it
  starts its first game); when none may go, a new game is refused (503). A request for a game let go is
  answered 404 saying when and why; each game let go is one line of the server's log (logger
  ``boardgames.play.web.session``, shown by :func:`boardgames.play.web.serve`).
* A client that disconnects while its request body is read (a broken chunked body the HTTP layer
  refused, a closed connection) ends the request quietly: nothing is answered, a debug line is logged,
  no traceback.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardgames.play.sides import options_text, sides_of, title_of
from boardgames.play.web.session import (
    FINISHED_GRACE,
    IDLE_TIMEOUT,
    MAX_GAMES,
    MoveRefused,
    PlaySession,
    Registry,
    ReplaySession,
    Table,
    short,
)

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024
"""The largest request body read (a move list of the longest game is a few kilobytes)."""
MOVE_KEYS = {"action", "move", "seat", "ply"}
TOKEN_HEADER = "X-Boardgames-Token"
"""The request header carrying the server's token (required on every request that changes something)."""
TOKEN_META = '<meta name="boardgames-token" content="">'
"""The element of ``static/index.html`` the token is written into when the page is served."""
SAFE_METHODS = {"GET", "HEAD"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
PLAYER_COOKIE = "boardgames_player"
"""The cookie naming the browser that starts games (a random value set with its first game): when the
server is full, a new game of that browser may take the place of its own finished games."""
PLAYER_VALUE = re.compile(r"[A-Za-z0-9_-]{22}")
"""A valid :data:`PLAYER_COOKIE` value (what ``secrets.token_urlsafe(16)`` draws); any other is replaced."""

log = logging.getLogger(__name__)


def host_of(header: str) -> str:
    """The host name of a ``Host`` header, without its port, lower case; an IPv6 address without its
    brackets (``[::1]:8765`` -> ``::1``). Empty for a header that names no host."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        rest = header[end + 1 :]
        return header[1:end] if end > 0 and (not rest or rest.startswith(":")) else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else ("" if ":" in header else header)


def _answer(scope, receive, send, status: int, message: str, headers: dict | None = None):
    return JSONResponse({"error": message}, status, headers=headers)(scope, receive, send)


class BodyLimit:
    """ASGI middleware answering 413 to a request whose body is larger than ``limit`` bytes (by its
    Content-Length, or while it streams in without one), 400 to a Content-Length that is no number; a
    request whose client disconnected while its body was read (``ClientDisconnect``) ends with nothing
    answered and a debug line logged."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and not (length.isdigit() and len(length) < 20):
            return await _answer(scope, receive, send, 400, "the Content-Length header is not a number of bytes")
        if length is not None and int(length) > self.limit:
            return await _answer(scope, receive, send, 413, f"the request body is larger than {self.limit} bytes")
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise MoveRefused(f"the request body is larger than {self.limit} bytes", 413)
            return message

        try:
            return await self.app(scope, limited, send)
        except MoveRefused as e:  # a body streamed in without a length: nothing was answered yet
            return await _answer(scope, receive, send, e.status, str(e))
        except ClientDisconnect:  # nobody to answer (the HTTP layer may have answered 400 already)
            log.debug("%s %s: the client disconnected while its body was read", scope["method"], scope["path"][:80])
            return None


class HostCheck:
    """ASGI middleware answering 400 to a request whose ``Host`` header names none of ``hosts`` (``"*"``:
    any). Unlike Starlette's TrustedHostMiddleware it reads an IPv6 host in brackets."""

    def __init__(self, app, hosts: list):
        self.app = app
        self.any = "*" in hosts
        self.hosts = {h.strip("[]").lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.any:
            return await self.app(scope, receive, send)
        header = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if host_of(header) not in self.hosts:
            return await _answer(
                scope,
                receive,
                send,
                400,
                f"invalid Host header {header[:80]!r}: this server "
                f"answers requests for {', '.join(sorted(self.hosts))} only",
            )
        return await self.app(scope, receive, send)


class TokenCheck:
    """ASGI middleware asking for the server's ``token``: in the :data:`TOKEN_HEADER` header of every
    request that changes something (403 otherwise: a page of another site cannot send it), and, when
    ``everywhere`` (a server open to the network), on every request but those for ``/static/``, where it
    may also come as the ``token`` query parameter (the URL printed at start; the answer then sets a
    cookie holding it, which later requests of the same browser carry)."""

    def __init__(self, app, token: str, everywhere: bool = False):
        self.app, self.token, self.everywhere = app, token, everywhere
        self.cookie = "boardgames_" + hashlib.sha256(token.encode()).hexdigest()[:10]

    def _matches(self, value) -> bool:
        return isinstance(value, str) and secrets.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        header_ok = self._matches(request.headers.get(TOKEN_HEADER))
        if request.method not in SAFE_METHODS and not header_ok:
            missing = TOKEN_HEADER not in request.headers
            return await _answer(
                scope,
                receive,
                send,
                403,
                (
                    f"this request changes something and must carry the server's token in the {TOKEN_HEADER} "
                    f"header ({'missing' if missing else 'wrong'}); the page the server serves sends it (reload it)"
                ),
            )
        query_ok = self._matches(request.query_params.get("token"))
        if self.everywhere and not scope["path"].startswith("/static/"):
            if not (header_ok or query_ok or self._matches(request.cookies.get(self.cookie))):
                return await _answer(
                    scope,
                    receive,
                    send,
                    403,
                    (
                        "this server is open to the network and answers only with its token: open the URL it "
                        "printed when it started (it ends in ?token=...)"
                    ),
                )
        if not (self.everywhere and query_ok):
            return await self.app(scope, receive, send)
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode("latin-1")

        async def with_cookie(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + [(b"set-cookie", cookie)]}
            await send(message)

        return await self.app(scope, receive, with_cookie)


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer (the page runs only our script)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def with_headers(message):
            if message["type"] == "http.response.start":
                extra = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        return await self.app(scope, receive, with_headers)


def _error(e: MoveRefused) -> JSONResponse:
    return JSONResponse({"error": str(e)}, e.status, headers={"Retry-After": "60"} if e.status == 503 else None)


async def _json_object(request: Request, keys: set) -> dict:
    """The request's body as a JSON object with only ``keys``; MoveRefused (400) otherwise."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except RecursionError:
        raise MoveRefused("the body is JSON nested too deeply to read", 400) from None
    except (ValueError, UnicodeDecodeError) as e:
        raise MoveRefused(f"the body is not JSON this server reads: {str(e)[:160]}", 400) from None
    if not isinstance(body, dict):
        raise MoveRefused(f"the body must be a JSON object, got {type(body).__name__}", 400)
    unknown = sorted(set(body) - keys)
    if unknown:
        raise MoveRefused(f"unknown fields {[short(k, 30) for k in unknown[:5]]}: expected some of {sorted(keys)}", 400)
    return body


def _position_index(text: str) -> int:
    """A replay's position index from its URL segment; MoveRefused (400) when it is not a whole number,
    -1 (no position: answered 404 by the replay) when it is too long to be one."""
    if not re.fullmatch(r"[0-9]+", text):
        raise MoveRefused(f"a position index is a whole number (0, 1, 2...), got {short(text)}", 400)
    return int(text) if len(text) <= 9 else -1


def _page_with_token(token: str) -> str:
    """The play page with the server's token in its head (what its script sends with every change)."""
    template = (STATIC / "index.html").read_text()
    if TOKEN_META not in template:
        raise RuntimeError(f"static/index.html lacks {TOKEN_META}: the page could not be given the token")
    return template.replace(TOKEN_META, f'<meta name="boardgames-token" content="{token}">')


class _Endpoints:
    """The app's request handlers, over one table of players and one registry of sessions."""

    def __init__(self, table: Table, registry: Registry, page_html: str):
        self.table, self.registry, self.page_html = table, registry, page_html

    def routes(self) -> list:
        """The app's routes: the page, the API and the static files."""
        return [
            Route("/", self.page),
            Route("/replay", self.page),
            Route("/api/config", self.config),
            Route("/api/games", self.new_game, methods=["POST"]),
            Route("/api/games/{sid}", self.get_game),
            Route("/api/games/{sid}/move", self.move, methods=["POST"]),
            Route("/api/games/{sid}/moves", self.move_list),
            Route("/api/replays", self.new_replay, methods=["POST"]),
            Route("/api/replays/{sid}/{index}", self.get_replay),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        ]

    def page(self, request: Request):
        return Response(self.page_html, media_type="text/html", headers={"Cache-Control": "no-store"})

    def config(self, request: Request):
        info, table, registry = self.table.game.info, self.table, self.registry
        return JSONResponse(
            {
                "game": info.name,
                "title": f"{title_of(info)} — you against {table.agent_name}",
                "options": dict(info.options),
                "options_text": options_text(info),
                "seat_names": [side.full for side in sides_of(info)],
                "human_seat": table.human_seat,
                "agent": table.agent_name,
                "agent_thinks": table.agent_thinks,
                "replays": list(request.app.state.replay_ids),
                "max_games": registry.limit,
                "idle_minutes": registry.idle_timeout / 60,
                "finished_minutes": registry.finished_grace / 60,
            }
        )

    async def new_game(self, request: Request):
        try:
            body = await _json_object(request, {"seat"})
            seat = body.get("seat")
            if seat is not None:
                n = self.table.game.info.num_seats
                if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                    raise MoveRefused(f"seat must be an integer in 0..{n - 1}, got {short(seat)}", 400)
            player = request.cookies.get(PLAYER_COOKIE, "")
            known = bool(PLAYER_VALUE.fullmatch(player))
            player = player if known else secrets.token_urlsafe(16)
            self.registry.check_room(player)  # before the agents play their first moves
            session = await _in_thread(PlaySession, self.table, seat)
            sid = self.registry.add(session, player=player)
            answer = JSONResponse({"id": sid, **await _in_thread(session.view)})
            if not known:
                answer.set_cookie(PLAYER_COOKIE, player, path="/", httponly=True, samesite="strict")
            return answer
        except MoveRefused as e:
            return _error(e)

    def get_game(self, request: Request):
        try:
            session = self.registry.get("play", request.path_params["sid"])
            return JSONResponse({"id": request.path_params["sid"], **session.view()})
        except MoveRefused as e:
            return _error(e)

    async def move(self, request: Request):
        try:
            session = self.registry.get("play", request.path_params["sid"])
            body = await _json_object(request, MOVE_KEYS)
            await _in_thread(session.play, body)
            return JSONResponse({"id": request.path_params["sid"], **await _in_thread(session.view)})
        except MoveRefused as e:
            return _error(e)

    def move_list(self, request: Request):
        try:
            session = self.registry.get("play", request.path_params["sid"])
            with session.lock:
                text = session.record.to_text()
            return PlainTextResponse(text)
        except MoveRefused as e:
            return _error(e)

    async def new_replay(self, request: Request):
        try:
            raw = await request.body()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise MoveRefused("the move list is not UTF-8 text", 400) from None
            name = request.query_params.get("name", "game")[:80]
            replay = await _in_thread(ReplaySession.from_text, text, self.table.game, name)
            sid = self.registry.add(replay)
            return JSONResponse({"id": sid, **await _in_thread(replay.view, 0)})
        except MoveRefused as e:
            return _error(e)

    def get_replay(self, request: Request):
        try:
            index = _position_index(request.path_params["index"])
            replay = self.registry.get("replay", request.path_params["sid"])
            return JSONResponse({"id": request.path_params["sid"], **replay.view(index)})
        except MoveRefused as e:
            return _error(e)

    def not_found(self, request: Request, exc):
        return JSONResponse({"error": f"no such page or endpoint: {request.url.path[:200]}"}, 404)

    def not_allowed(self, request: Request, exc):
        return JSONResponse({"error": f"{request.method[:20]} is not accepted at {request.url.path[:200]}"}, 405)


def make_app(
    table: Table,
    replays: list | None = None,
    limit: int = MAX_GAMES,
    allowed_hosts: list | None = None,
    *,
    idle_timeout: float = IDLE_TIMEOUT,
    finished_grace: float = FINISHED_GRACE,
    token: str | None = None,
    remote: bool = False,
    clock=None,
):
    """The Starlette app playing ``table`` (and showing the ``replays``, ReplaySessions opened at start:
    their ids are in ``app.state.replay_ids``, and they are never let go).

    ``limit``, ``idle_timeout`` and ``finished_grace``: how many games it holds, after how many seconds
    without a request a game in progress counts as abandoned, and how many seconds after its last
    request a finished game is kept for its player (:class:`Registry`; ``clock`` its time source, for
    tests).
    ``allowed_hosts``: the Host headers answered (default the loopback names, with any port). ``token``:
    the server's token (``app.state.token``; drawn here by default), required on every request that
    changes something, and on every request when ``remote`` (a server open to the network)."""
    registry = Registry(
        limit=limit, idle_timeout=idle_timeout, finished_grace=finished_grace, **({"clock": clock} if clock else {})
    )
    token = token or secrets.token_urlsafe(32)
    endpoints = _Endpoints(table, registry, _page_with_token(token))
    hosts = allowed_hosts or list(LOOPBACK_NAMES)
    app = Starlette(
        routes=endpoints.routes(),
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(HostCheck, hosts=hosts),
            Middleware(TokenCheck, token=token, everywhere=remote),
            Middleware(BodyLimit),
        ],
        exception_handlers={404: endpoints.not_found, 405: endpoints.not_allowed},
    )
    app.state.registry = registry
    app.state.token = token
    app.state.replay_ids = [registry.add(r, pinned=True) for r in (replays or [])]
    return app


async def _in_thread(fn, *args):
    """``fn(*args)`` in a worker thread (agents search and pictures are drawn off the event loop)."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)


def url_host(host: str) -> str:
    """``host`` as written in a URL: an IPv6 address in brackets (``::1`` -> ``[::1]``)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class ServerThread:
    """A uvicorn server for ``app`` in a background thread (tests, notebooks, the load benchmark):
    ``start()`` returns once it listens; ``url`` is its address, ``token`` the app's token; ``stop()``
    shuts it down."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0):
        import uvicorn

        self.app = app
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.host = host

    def start(self, timeout: float = 30.0) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    @property
    def port(self) -> int:
        return self.server.servers[0].sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://{url_host(self.host)}:{self.port}"

    @property
    def token(self) -> str:
        """The server's token (to send in :data:`TOKEN_HEADER`)."""
        return self.app.state.token

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
