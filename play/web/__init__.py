"""Play and watch the games in a browser: a local web server (Starlette + uvicorn, the ``[web]`` extra)
and a page in plain JavaScript, served with it (no CDN, nothing fetched at run time).

    boardgames play --game barc --opponent models/barc --web
    boardgames web --game dorix --players 4 --opponent mcts:400 --seat 1
    boardgames web --replay game.txt        # a --save-moves file in the replay viewer

The page draws the board (the game's own picture, with its squares as clickable SVG), highlights the
squares where the human's legal moves start, takes moves by clicking (a move is chosen when the squares
its notation names are clicked in order; moves sharing those squares, such as ADIX's rotations and
tilts, or that name none, such as Barc's ``stay``, are offered as buttons), shows the move list in
notation, the result, and the agents' thinking (:func:`boardgames.play.web.session.thinking_of`). Barc's
orders are sent, then both seats' orders are revealed together.

The server listens on 127.0.0.1 (or another loopback address: ``--host ::1``); any other ``--host``
needs ``--allow-remote``, prints a warning, and then asks every request for the token in the URL it
prints. Every request that changes something carries the server's token (the page has it), so other web
sites cannot play here; a game in progress is never dropped to make room, and a finished one stays
readable for 10 minutes after its last request (``--max-games``, ``--idle-minutes``,
``--finished-minutes``); see :mod:`boardgames.play.web.app`.

Modules: :mod:`boardgames.play.web.board` (what is drawn, framework-free),
:mod:`boardgames.play.web.session` (the
games and replays the server holds), :mod:`boardgames.play.web.app` (routes, JSON API, limits),
:mod:`boardgames.play.web.notebook` (an inline replay for notebooks) and ``static/`` (the page).
"""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

from boardgames.envs.core.game import Game, State


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or name (127.0.0.0/8, ``::1``, ``localhost``): a server
    listening there is reachable from this machine only."""
    host = host.strip().strip("[]").lower()
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str]:
    """The Host headers a server listening on ``host`` answers: loopback names for a loopback address,
    any for an address open to the network (where the token is asked of every request instead)."""
    return ["127.0.0.1", "localhost", "::1", host.strip("[]")] if is_loopback(host) else ["*"]


REMOTE_WARNING = """\
warning: --host {host} opens this server to the network: anyone who can reach this machine on port {port}
and has the token can play, start games and upload move lists, and the traffic is plain HTTP (not
encrypted: the token can be read on the way). Every request needs the token (in the URL below, or the
cookie the page gets from it): give it only to the people you play with, and stop the server (Ctrl+C)
when done. Without --allow-remote the server listens on 127.0.0.1 only."""


def serve(
    game: Game,
    opponent="random",
    seat: int = 0,
    seed: int = 0,
    start: State | None = None,
    replay_files: list | None = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = False,
    *,
    allow_remote: bool = False,
    max_games: int | None = None,
    idle_minutes: float | None = None,
    finished_minutes: float | None = None,
    replay_only: bool = False,
) -> None:
    """Serve the page for ``game`` (the human at ``seat``, every other seat played by ``opponent``) and
    the ``replay_files`` (move lists) until interrupted; prints the URL once the port is bound (``port``
    0: a free one).

    ``host`` must be a loopback address (127.0.0.1 by default; ``::1`` and ``localhost`` too) unless
    ``allow_remote``: then a warning naming the risk goes to stderr, and every request must carry the
    server's token (the URL printed holds it). ``max_games``, ``idle_minutes`` and ``finished_minutes``:
    how many games the server holds, after how long without a request a game in progress counts as
    abandoned, and how long after its last request a finished game is kept for its player
    (:class:`boardgames.play.web.session.Registry`). Each game let go to make room is one line on
    stderr. The replays' URLs are printed first; ``replay_only`` (the game was read from the replay
    file): only theirs. ValueError for a remote host without ``allow_remote``,
    OSError when the address cannot be bound. An agent that searches or runs a network gets ready
    (compiles its search, makes its network's first call) before the URL is printed, saying so, so that
    its first move in the page takes the time of any other."""
    import copy
    import socket

    import uvicorn

    from boardgames.play.moves import get_ready
    from boardgames.play.sides import sides_of, title_of
    from boardgames.play.web.app import make_app, url_host
    from boardgames.play.web.session import FINISHED_GRACE, IDLE_TIMEOUT, MAX_GAMES, ReplaySession, Table
    from boardgames.training.torch_threads import ensure_torch_threads

    host = host.strip().strip("[]")
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise ValueError(
            f"--host {host} is not a loopback address: the server would be open to the network. "
            "Pass --allow-remote as well to do that (every request then needs the token the server "
            "prints), or leave --host out to serve this machine only (127.0.0.1)"
        )
    ensure_torch_threads()  # the rule of boardgames.training.torch_threads, unless the caller set the threads
    table = Table(game, opponent, seat, seed, start)
    agents = list(table.agents_for(seat).values())
    if agents:  # one agent's warm-up compiles what all of them share
        get_ready(agents[0], table.agent_name, start if start is not None else game.new_initial_state())
    replays = [ReplaySession.from_text(Path(p).read_text(), game, Path(p).name) for p in replay_files or []]
    app = make_app(
        table,
        replays,
        max_games or MAX_GAMES,
        allowed_hosts(host),
        remote=remote,
        idle_timeout=IDLE_TIMEOUT if idle_minutes is None else 60.0 * idle_minutes,
        finished_grace=FINISHED_GRACE if finished_minutes is None else 60.0 * finished_minutes,
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    port = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    url = f"http://{url_host(shown)}:{port}/"
    query = f"?token={app.state.token}" if remote else ""
    if remote:
        print(REMOTE_WARNING.format(host=host, port=port), file=sys.stderr, flush=True)
    for rid, path in zip(app.state.replay_ids, replay_files or []):
        print(f"replay of {path}: {url}replay{query}#{rid}")
    if not (replay_only and replays):
        side = sides_of(game.info)[seat].full
        print(f"{title_of(game.info)}: open {url}{query} to play {side} against {table.agent_name}")
    if remote and shown != host:
        print(f"(from another machine: this machine's address in place of {shown})")
    print("(Ctrl+C stops the server)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(f"{url}replay{query}#{app.state.replay_ids[0]}" if replays else url + query)
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)  # uvicorn's, plus the games let go (INFO)
    ours = {"handlers": ["default"], "level": "INFO", "propagate": False}
    log_config["loggers"]["boardgames.play.web"] = ours
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", log_config=log_config)
    uvicorn.Server(config).run(sockets=[sock])
