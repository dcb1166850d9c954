"""The web server: a Starlette app over :mod:`training.web.session`, its JSON API and the page.

Routes (every answer JSON but the page and its files; an error is ``{"error": message}`` with a 4xx):

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

The request bodies are bounded (:data:`MAX_BODY`), only JSON objects with known keys are read, and the
only thing a request can change is the game it names, by one move the engine accepts. The server listens
on 127.0.0.1 unless told otherwise, and answers only requests addressed to the host it listens on (no
DNS rebinding).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from training.web.session import MoveRefused, PlaySession, Registry, ReplaySession, Table

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 256 * 1024
"""The largest request body read (a move list of the longest game is a few kilobytes)."""
MOVE_KEYS = {"action", "move", "seat", "ply"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class BodyLimit:
    """ASGI middleware answering 413 to a request whose body is larger than ``limit`` bytes (by its
    Content-Length, or while it streams in without one)."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = JSONResponse({"error": f"the request body is larger than {self.limit} bytes"}, 413)
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await too_big(scope, receive, send)
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
            return await JSONResponse({"error": str(e)}, e.status)(scope, receive, send)


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
    return JSONResponse({"error": str(e)}, e.status)


async def _json_object(request: Request, keys: set) -> dict:
    """The request's body as a JSON object with only ``keys``; MoveRefused (400) otherwise."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise MoveRefused(f"the body is not JSON: {e}", 400) from None
    if not isinstance(body, dict):
        raise MoveRefused(f"the body must be a JSON object, got {type(body).__name__}", 400)
    unknown = sorted(set(body) - keys)
    if unknown:
        raise MoveRefused(f"unknown fields {unknown[:5]}: expected some of {sorted(keys)}", 400)
    return body


def make_app(table: Table, replays: list | None = None, limit: int = 64, allowed_hosts: list | None = None):
    """The Starlette app playing ``table`` (and showing the ``replays``, ReplaySessions opened at start:
    their ids are in ``app.state.replay_ids``). ``allowed_hosts``: the Host headers answered (default
    127.0.0.1 and localhost, with any port)."""
    registry = Registry(limit=limit)

    def page(request: Request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    def config(request: Request):
        info = table.game.info
        return JSONResponse({
            "game": info.name, "options": dict(info.options), "seat_names": list(info.seat_names),
            "human_seat": table.human_seat, "agent": table.agent_name, "replays": list(app.state.replay_ids),
        })

    async def new_game(request: Request):
        try:
            body = await _json_object(request, {"seat"})
            seat = body.get("seat")
            if seat is not None:
                n = table.game.info.num_seats
                if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                    raise MoveRefused(f"seat must be an integer in 0..{n - 1}, got {seat!r}", 400)
            session = await _in_thread(PlaySession, table, seat)
            sid = registry.add(session)
            return JSONResponse({"id": sid, **await _in_thread(session.view)})
        except MoveRefused as e:
            return _error(e)

    def get_game(request: Request):
        try:
            session = registry.get("play", request.path_params["sid"])
            return JSONResponse({"id": request.path_params["sid"], **session.view()})
        except MoveRefused as e:
            return _error(e)

    async def move(request: Request):
        try:
            session = registry.get("play", request.path_params["sid"])
            body = await _json_object(request, MOVE_KEYS)
            await _in_thread(session.play, body)
            return JSONResponse({"id": request.path_params["sid"], **await _in_thread(session.view)})
        except MoveRefused as e:
            return _error(e)

    def move_list(request: Request):
        try:
            session = registry.get("play", request.path_params["sid"])
            with session.lock:
                text = session.record.to_text()
            return PlainTextResponse(text)
        except MoveRefused as e:
            return _error(e)

    async def new_replay(request: Request):
        try:
            raw = await request.body()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise MoveRefused("the move list is not UTF-8 text", 400) from None
            name = request.query_params.get("name", "game")[:80]
            replay = await _in_thread(ReplaySession.from_text, text, table.game, name)
            sid = registry.add(replay)
            return JSONResponse({"id": sid, **await _in_thread(replay.view, 0)})
        except MoveRefused as e:
            return _error(e)

    def get_replay(request: Request):
        try:
            replay = registry.get("replay", request.path_params["sid"])
            return JSONResponse({"id": request.path_params["sid"], **replay.view(request.path_params["index"])})
        except MoveRefused as e:
            return _error(e)

    def not_found(request: Request, exc):
        return JSONResponse({"error": f"no such page or endpoint: {request.url.path[:200]}"}, 404)

    def not_allowed(request: Request, exc):
        return JSONResponse({"error": f"{request.method} is not accepted at {request.url.path[:200]}"}, 405)

    routes = [
        Route("/", page),
        Route("/replay", page),
        Route("/api/config", config),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{sid}", get_game),
        Route("/api/games/{sid}/move", move, methods=["POST"]),
        Route("/api/games/{sid}/moves", move_list),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{sid}/{index:int}", get_replay),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = allowed_hosts or ["127.0.0.1", "localhost"]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), Middleware(BodyLimit), Middleware(TrustedHostMiddleware,
                                                                                    allowed_hosts=hosts)],
        exception_handlers={404: not_found, 405: not_allowed},
    )
    app.state.registry = registry
    app.state.replay_ids = [registry.add(r) for r in (replays or [])]
    return app


async def _in_thread(fn, *args):
    """``fn(*args)`` in a worker thread (agents search and pictures are drawn off the event loop)."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)


class ServerThread:
    """A uvicorn server for ``app`` in a background thread (tests, notebooks): ``start()`` returns once
    it listens; ``url`` is its address; ``stop()`` shuts it down."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        import uvicorn

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
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
