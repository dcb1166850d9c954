"""Load test of the browser server (:mod:`boardgames.play.web`): many clients playing whole games at once.

    python -m boardgames.benchmarks.web_load                                   # 50 clients, 2 games each, Barc
    python -m boardgames.benchmarks.web_load --clients 50 --games 3 --abandoned 100 --out load.json
    python -m boardgames.benchmarks.web_load --game dorix --players 3 --clients 20 --games 1

It starts the server as a subprocess (``boardgames web --port 0`` on 127.0.0.1, a free port: it
listens on loopback only and is stopped at the end), reads the token from the page as a browser does,
then runs ``--clients`` clients at once, each playing ``--games`` whole games against the server's
agent: it creates a game, plays a uniformly random legal move from those the server offers (with the
``ply`` it saw, as the page sends) until the game ends, now and then reading the game and its move list
again (a reload), and checks the move list against the engine: the engine's replay of it must end in the
position the server shows. With ``--abandoned K``, once every client has a game in progress, K more games
are created at once and never played (visitors who left): the server must refuse what it has no room
for (503) and never drop a game being played to make room.

It counts, and the exit status is 1 when any of the first four is not 0:

* ``lost``: a game of a client answered 404 while being played (the server dropped a live game);
* ``server errors``: answers 5xx other than the 503 of a full server;
* ``unexpected``: any other refusal of a legal move or of a view (4xx);
* ``mismatches``: a game whose move list does not replay to the position the server shows;
* ``refused new games``: 503 answers to a creation (the client waits half a second and asks again);
* ``connection errors``: requests whose connection failed before an answer, sent again (a move sent
  again after it was played is answered 409: the client then reads the game again).

and reports the latency of moves (a client's POST of its move until the answer, the agent's reply
included) and of new games: p50, p90, p99 and max, and the moves per second. ``--time-limit`` bounds the
run: at that time the clients stop, leaving their games unfinished (counted). Latencies are measured in
the clients' own process (one asyncio loop), so they include its share of the machine too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import time
from urllib.parse import urlsplit

import numpy as np

TOKEN_HEADER = "X-Boardgames-Token"
URL_LINE = re.compile(r"open (http://\S+?/)(\?token=\S+)? ")


def percentiles(values: list) -> dict:
    """p50, p90, p99 and max of ``values`` (seconds) in milliseconds, and their count."""
    if not values:
        return {"n": 0}
    a = np.asarray(values) * 1000.0
    return {
        "n": len(values),
        **{f"p{q}": round(float(np.percentile(a, q)), 1) for q in (50, 90, 99)},
        "max": round(float(a.max()), 1),
    }


def start_server(game: str, players: int | None, opponent: str, max_games: int, timeout: float = 120.0):
    """``boardgames web`` for ``game`` on 127.0.0.1 and a free port, as a subprocess; returns
    ``(process, url)`` once it prints its URL (the address is bound by then)."""
    cmd = [
        sys.executable,
        "-m",
        "boardgames.play.web",
        "--game",
        game,
        "--opponent",
        opponent,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--max-games",
        str(max_games),
    ]
    if players:
        cmd += ["--players", str(players)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.monotonic() + timeout
    seen = []
    assert proc.stdout is not None  # stdout=PIPE
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        match = URL_LINE.search(line)
        if match:
            return proc, match.group(1).rstrip("/")
    proc.kill()
    raise RuntimeError("the server did not start:\n" + "".join(seen[-20:]))


def check_loopback(url: str) -> None:
    """ValueError unless ``url`` names a loopback host: this benchmark loads only this machine."""
    from boardgames.play.web import is_loopback

    host = urlsplit(url).hostname or ""
    if not is_loopback(host):
        raise ValueError(f"{url}: the load test runs against a loopback address only")


class Tally:
    """What the clients saw: latencies (seconds) and counts."""

    def __init__(self):
        self.move_latency: list = []
        self.new_latency: list = []
        self.counts = dict.fromkeys(
            [
                "games finished",
                "games unfinished at the time limit",
                "moves",
                "lost",
                "server errors",
                "unexpected",
                "mismatches",
                "refused new games",
                "abandoned games created",
                "abandoned games refused",
                "connection errors",
            ],
            0,
        )
        self.examples: list = []

    def note(self, kind: str, text: str) -> None:
        self.counts[kind] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{kind}: {text[:300]}")


async def send(client, tally: Tally, method: str, path: str, **kwargs):
    """``client.request(method, path, ...)``, sent again (up to twice) when the connection fails before an
    answer (counted as ``connection errors``); returns ``(response, resent)``."""
    import httpx

    for attempt in range(3):
        try:
            return await client.request(method, path, **kwargs), attempt > 0
        except httpx.TransportError as e:
            tally.note("connection errors", f"{method} {path}: {type(e).__name__} {e}")
            if attempt == 2:
                raise
            await asyncio.sleep(0.2)


async def fetch_token(client) -> str:
    """The token the server wrote into its page (what the page's script sends)."""
    page = await client.get("/")
    match = re.search(r'<meta name="boardgames-token" content="([^"]+)">', page.text)
    if page.status_code != 200 or not match:
        raise RuntimeError(f"the page gave no token (HTTP {page.status_code})")
    return match.group(1)


async def new_game(client, tally: Tally, deadline: float):
    """A new game's view, asking again every half second while the server is full; None at the deadline."""
    while time.monotonic() < deadline:
        started = time.perf_counter()
        response, _ = await send(client, tally, "POST", "/api/games")
        if response.status_code == 200:
            tally.new_latency.append(time.perf_counter() - started)
            return response.json()
        if response.status_code == 503:
            tally.counts["refused new games"] += 1
            await asyncio.sleep(0.5)
            continue
        tally.note(
            "server errors" if response.status_code >= 500 else "unexpected",
            f"new game: {response.status_code} {response.text}",
        )
        return None
    return None


def same_game(game, move_list: str, position: str) -> bool:
    """Whether the engine's replay of ``move_list`` (the ``--save-moves`` format, or the page's move list)
    ends in ``position``."""
    from boardgames.envs.tools.replay import GameRecord

    return GameRecord.from_text(game, move_list).last.to_text() == position


async def play_one(client, game, tally: Tally, rng, deadline: float, created=None) -> bool:
    """One whole game (``created()`` called once it exists, or once it could not be had); False when the
    client must stop (its game lost, an error, the deadline)."""
    view = await new_game(client, tally, deadline)
    if created is not None:
        created()
    if view is None:
        return False
    gid = view["id"]
    while not view["result"]:
        if time.monotonic() > deadline:
            tally.counts["games unfinished at the time limit"] += 1
            return False
        move = view["legal"][int(rng.integers(len(view["legal"])))]
        started = time.perf_counter()
        body = {"action": move["action"], "ply": view["ply"]}
        response, resent = await send(client, tally, "POST", f"/api/games/{gid}/move", json=body)
        elapsed = time.perf_counter() - started
        if resent and response.status_code == 409:  # the first try was played after all: read the game again
            response, _ = await send(client, tally, "GET", f"/api/games/{gid}")
        if response.status_code != 200:
            kind = (
                "lost"
                if response.status_code == 404
                else ("server errors" if response.status_code >= 500 else "unexpected")
            )
            tally.note(kind, f"game {gid} ply {view['ply']}: {response.status_code} {response.text}")
            return False
        tally.move_latency.append(elapsed)
        tally.counts["moves"] += 1
        view = response.json()
        if rng.random() < 0.05 and not view["result"]:  # now and then the page is reloaded, the list saved
            again, _ = await send(client, tally, "GET", f"/api/games/{gid}")
            moves, _ = await send(client, tally, "GET", f"/api/games/{gid}/moves")
            for response in (again, moves):
                if response.status_code != 200:
                    kind = "lost" if response.status_code == 404 else "unexpected"
                    tally.note(kind, f"game {gid} at ply {view['ply']}: {response.status_code} {response.text}")
                    return False
            if again.json()["ply"] != view["ply"] or not same_game(game, moves.text, view["position"]):
                tally.note("mismatches", f"game {gid} at ply {view['ply']}: another position or move list")
    # the whole game, as the page shows it, replayed by the engine (the server may let a finished game go
    # as soon as it needs room, so its move list is read from the last answer, as the page does)
    if not same_game(game, "\n".join(view["moves"]), view["position"]):
        tally.note("mismatches", f"game {gid}: the move list does not end in {view['position']!r}")
    tally.counts["games finished"] += 1
    return True


async def run_load(
    url: str, game, clients: int = 50, games: int = 2, abandoned: int = 0, seed: int = 0, time_limit: float = 300.0
) -> dict:
    """Run the load against the server at ``url`` (a loopback address) playing ``game``; returns the
    report (``counts``, ``move_ms`` and ``new_game_ms`` percentiles, ``moves_per_s``, ``examples``)."""
    import httpx

    check_loopback(url)
    tally = Tally()
    # idle connections are closed by the client after 2 s, before the server's 5 s (uvicorn's keep-alive):
    # a connection the server is closing is then not reused
    room = clients + abandoned + 4
    limits = httpx.Limits(max_connections=room, max_keepalive_connections=room, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=url, timeout=120.0, limits=limits) as client:
        client.headers[TOKEN_HEADER] = await fetch_token(client)
        started = time.monotonic()
        deadline = started + time_limit
        playing = asyncio.Event()  # set once every client has its first game
        first_games = [0]

        def created() -> None:
            first_games[0] += 1
            if first_games[0] == clients:
                playing.set()

        async def one_client(k: int) -> None:
            rng = np.random.default_rng([seed, k])
            for g in range(games):
                if not await play_one(client, game, tally, rng, deadline, created if g == 0 else None):
                    return

        async def one_visitor() -> None:
            try:
                await asyncio.wait_for(playing.wait(), timeout=max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                return
            response, _ = await send(client, tally, "POST", "/api/games")
            if response.status_code == 200:
                tally.counts["abandoned games created"] += 1
            elif response.status_code == 503:
                tally.counts["abandoned games refused"] += 1
            else:
                tally.note(
                    "server errors" if response.status_code >= 500 else "unexpected",
                    f"abandoned game: {response.status_code} {response.text}",
                )

        await asyncio.gather(*[one_client(k) for k in range(clients)], *[one_visitor() for _ in range(abandoned)])
        wall = time.monotonic() - started
    return {
        "clients": clients,
        "games_per_client": games,
        "abandoned": abandoned,
        "seconds": round(wall, 1),
        "counts": tally.counts,
        "move_ms": percentiles(tally.move_latency),
        "new_game_ms": percentiles(tally.new_latency),
        "moves_per_s": round(tally.counts["moves"] / wall, 1) if wall else 0.0,
        "examples": tally.examples,
    }


def failed(report: dict) -> int:
    """How many of the report's counts say something went wrong (lost, 5xx, unexpected, mismatches)."""
    return sum(report["counts"][k] for k in ("lost", "server errors", "unexpected", "mismatches"))


def print_report(report: dict, header: str) -> None:
    print(header)
    for key, value in report["counts"].items():
        print(f"  {key:<36} {value}")
    for name in ("move_ms", "new_game_ms"):
        p = report[name]
        if p["n"]:
            print(
                f"  {name[:-3]} latency (ms, {p['n']}): p50 {p['p50']}  p90 {p['p90']}  p99 {p['p99']}  max {p['max']}"
            )
    print(f"  {report['moves_per_s']} moves/s over {report['seconds']} s")
    for line in report["examples"]:
        print("  e.g. " + line)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--game", default="barc", help="the game the server plays (default barc: the shortest games)")
    p.add_argument("--players", type=int, default=None, help="its player count (Dorix)")
    p.add_argument("--opponent", default="random", help="the server's agent (default random)")
    p.add_argument("--clients", type=int, default=50, help="clients playing at once (default 50)")
    p.add_argument("--games", type=int, default=2, help="whole games each client plays (default 2)")
    p.add_argument(
        "--abandoned",
        type=int,
        default=0,
        help="games created at once and never played, once every client plays (default 0)",
    )
    p.add_argument("--max-games", type=int, default=64, help="the server's --max-games (default 64)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds after which the clients stop (300)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="write the report as JSON here")
    args = p.parse_args(argv)
    if args.clients < 1 or args.games < 1 or args.abandoned < 0:
        p.error("--clients and --games are at least 1, --abandoned at least 0")

    from boardgames.envs.registry import make_game

    game = make_game(args.game, **({"num_players": args.players} if args.players else {}))
    proc, url = start_server(args.game, args.players, args.opponent, args.max_games)
    try:
        report = asyncio.run(run_load(url, game, args.clients, args.games, args.abandoned, args.seed, args.time_limit))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    report.update(game=args.game, players=args.players, opponent=args.opponent, max_games=args.max_games)
    print_report(
        report,
        f"{args.game}: {args.clients} clients x {args.games} games, {args.abandoned} abandoned, "
        f"server --max-games {args.max_games}, against {args.opponent}",
    )
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=1)
    return 1 if failed(report) else 0


if __name__ == "__main__":
    sys.exit(main())
