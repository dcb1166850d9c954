"""Play and watch the games in a browser: a local web server (Starlette + uvicorn, the ``[web]`` extra)
and a page in plain JavaScript, served with it (no CDN, nothing fetched at run time).

    python -m training.play --game barc --opponent models/barc --web
    python -m training.web --game dorix --players 4 --opponent mcts:400 --seat 1
    python -m training.web --replay game.txt        # a --save-moves file in the replay viewer

The page draws the board (the game's own picture, with its squares as clickable SVG), highlights the
squares where the human's legal moves start, takes moves by clicking (a move is chosen when the squares
its notation names are clicked in order; moves sharing those squares, such as ADIX's rotations and
tilts, or that name none, such as Barc's ``stay``, are offered as buttons), shows the move list in
notation, the result, and the agents' thinking (:func:`training.web.session.thinking_of`). Barc's
orders are sent, then both seats' orders are revealed together.

Modules: :mod:`training.web.board` (what is drawn, framework-free), :mod:`training.web.session` (the
games and replays the server holds), :mod:`training.web.app` (routes, JSON API, limits),
:mod:`training.web.notebook` (an inline replay for notebooks) and ``static/`` (the page).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

from envs.core.game import Game, State


def allowed_hosts(host: str) -> list[str]:
    """The Host headers a server listening on ``host`` answers: loopback names for a loopback address,
    any for an address open to the network (the user asked for it)."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    return ["127.0.0.1", "localhost", host] if loopback else ["*"]


def serve(game: Game, opponent="random", seat: int = 0, seed: int = 0, start: State | None = None,
          replay_files: list | None = None, host: str = "127.0.0.1", port: int = 8765,
          open_browser: bool = False) -> None:
    """Serve the page for ``game`` (the human at ``seat``, every other seat played by ``opponent``) and
    the ``replay_files`` (move lists) until interrupted; prints the URL first."""
    import uvicorn

    from training.web.app import make_app
    from training.web.session import ReplaySession, Table

    table = Table(game, opponent, seat, seed, start)
    replays = [ReplaySession.from_text(Path(p).read_text(), game, Path(p).name) for p in replay_files or []]
    app = make_app(table, replays, allowed_hosts=allowed_hosts(host))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    print(f"{game.info.name}: open {url} to play {game.info.seat_names[seat]} against {table.agent_name}")
    for rid, path in zip(app.state.replay_ids, replay_files or []):
        print(f"replay of {path}: {url}replay#{rid}")
    print("(Ctrl+C stops the server)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url + (f"replay#{app.state.replay_ids[0]}" if replays else ""))
    uvicorn.run(app, host=host, port=port, log_level="warning")
