"""The web server keeps what users play: a game in progress is never dropped to make room. Past the
server's limit, games without a request for the idle timeout go first (finished ones: for the time they
are kept), then the finished games of the player asking; when every held game is being played (or is a
finished game kept for another player), a new one is refused with 503 and a message the page shows
(the time a finished game is kept: ``test_web_finished.py``). Checked on the
registry with a clock the test moves, through the HTTP API, under many concurrent creations while games
are played, and by a short run of the load benchmark (``benchmarks/web_load.py``)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from helpers.web import WIN_IN_ONE, Clock
from helpers.web import dorix_table as _table
from helpers.web import play_session as _session

from boardgames.envs.registry import make_game

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[web-test]')")

TOKEN = "X-Boardgames-Token"


def _registry(limit=3, idle=600.0):
    from boardgames.play.web.session import Registry

    clock = Clock()
    return Registry(limit=limit, idle_timeout=idle, clock=clock), clock


def test_a_full_registry_refuses_a_new_game_and_keeps_every_game_in_progress():
    from boardgames.play.web.session import MoveRefused

    registry, clock = _registry(limit=3, idle=600)
    table = _table()
    ids = [registry.add(_session(table)) for _ in range(3)]
    clock.now += 599  # idle, but not past the timeout
    with pytest.raises(MoveRefused) as refused:
        registry.add(_session(table))
    assert refused.value.status == 503
    assert (
        "full" in str(refused.value)
        and "3 games in progress" in str(refused.value)
        and "10 minutes" in str(refused.value)
    )
    with pytest.raises(MoveRefused):
        registry.check_room()
    assert sorted(registry.plays) == sorted(ids)
    for sid in ids:
        registry.get("play", sid)


def test_only_a_game_idle_past_the_timeout_is_let_go_the_longest_idle_first():
    registry, clock = _registry(limit=3, idle=600)
    table = _table()
    a, b, c = (registry.add(_session(table)) for _ in range(3))
    clock.now += 300
    registry.get("play", a)  # a request: a is played again
    clock.now += 301  # b and c idle 601 s, a 301 s
    registry.get("play", c)
    d = registry.add(_session(table))
    assert set(registry.plays) == {a, c, d}  # b: idle past the timeout, the only one let go
    clock.now += 100
    from boardgames.play.web.session import MoveRefused

    with pytest.raises(MoveRefused, match="full"):
        registry.add(_session(table))  # a idle 401 s, c 100 s, d 100 s: all in progress
    clock.now += 200  # a idle 601 s
    e = registry.add(_session(table))
    assert set(registry.plays) == {c, d, e}


def test_below_the_limit_nothing_is_let_go_however_idle():
    registry, clock = _registry(limit=3, idle=60)
    table = _table()
    a = registry.add(_session(table))
    clock.now += 10_000
    b = registry.add(_session(table))
    assert set(registry.plays) == {a, b}
    registry.get("play", a)


def test_finished_games_make_room_when_none_is_abandoned_abandoned_ones_first():
    registry, clock = _registry(limit=3, idle=600)
    live, won = _table(), _table(WIN_IN_ONE)
    a = registry.add(_session(live))
    f1 = registry.add(_session(won, finished=True), player="p")
    clock.now += 1
    f2 = registry.add(_session(won, finished=True), player="p")
    clock.now += 1
    registry.get("play", f1)  # f1 viewed after f2: f2 is the longest idle
    assert set(registry.plays) == {a, f1, f2}
    d = registry.add(_session(live), player="p")  # their player's next game: its finished games may go
    assert set(registry.plays) == {a, f1, d}
    clock.now += 601  # every game idle past the timeout; a game in progress too
    registry.get("play", f1)
    registry.get("play", d)
    e = registry.add(_session(live))
    assert set(registry.plays) == {f1, d, e}  # the abandoned game went before the finished one


def test_replays_are_let_go_least_recently_viewed_first_and_pinned_ones_never():
    from boardgames.envs.tools.replay import random_record
    from boardgames.play.web.session import MoveRefused, ReplaySession

    registry, _ = _registry(limit=2)
    replay = ReplaySession(random_record(make_game("dorix"), seed=1, max_moves=3))
    pinned = registry.add(replay, pinned=True)
    a, b = registry.add(replay), registry.add(replay)
    registry.get("replay", a)
    c = registry.add(replay)
    assert set(registry.replays) == {pinned, a, c}
    with pytest.raises(MoveRefused, match="open the move list again") as gone:
        registry.get("replay", b)
    assert gone.value.status == 404
    for _ in range(5):
        registry.add(replay)
    registry.get("replay", pinned)


def test_bad_limits_are_refused():
    from boardgames.play.web.session import Registry

    with pytest.raises(ValueError, match="at least 1"):
        Registry(limit=0)
    with pytest.raises(ValueError, match="positive"):
        Registry(idle_timeout=0)


# ----- through HTTP ---------------------------------------------------------------------------------
def _run(coroutine):
    """``asyncio.run(coroutine)`` in a thread of its own (the browser tests' Playwright keeps an event loop
    running in this one for the whole session)."""
    outcome = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as e:  # raised again in the test's thread
            outcome["error"] = e

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _client(server) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=120, headers={TOKEN: server.token})


def _play_to_the_end(c, gid: str, errors: list, seed: int) -> None:
    """Play game ``gid`` to its end with the first/last legal moves; any refusal goes to ``errors``."""
    view = c.get(f"/api/games/{gid}").json()
    k = 0
    while not view["result"]:
        move = view["legal"][(seed + k) % len(view["legal"])]
        response = c.post(f"/api/games/{gid}/move", json={"action": move["action"], "ply": view["ply"]})
        if response.status_code != 200:
            errors.append((gid, response.status_code, response.text[:200]))
            return
        view = response.json()
        k += 1


def test_a_full_server_answers_503_with_a_message_and_its_games_play_on(serve):
    server = serve(_table(), limit=4)
    c = _client(server)
    ids = [c.post("/api/games").json()["id"] for _ in range(4)]
    refused = c.post("/api/games")
    assert refused.status_code == 503 and refused.headers["retry-after"] == "60"
    message = refused.json()["error"]
    assert "full" in message and "4 games in progress" in message and "30 minutes" in message
    assert c.get("/api/config").json()["max_games"] == 4
    errors = []
    for i, gid in enumerate(ids):
        _play_to_the_end(c, gid, errors, i)
    assert not errors
    assert c.post("/api/games").status_code == 200  # a finished game makes room


def test_an_idle_game_is_let_go_only_past_the_timeout(serve):
    clock = Clock()
    server = serve(_table(), limit=2, idle_timeout=60, clock=clock)
    c = _client(server)
    a, b = (c.post("/api/games").json()["id"] for _ in range(2))
    clock.now += 59
    assert c.post("/api/games").status_code == 503
    assert c.get(f"/api/games/{a}").status_code == 200  # a is looked at: not idle
    clock.now += 2  # b idle 61 s, a 2 s
    new = c.post("/api/games")
    assert new.status_code == 200
    assert c.get(f"/api/games/{a}").status_code == 200
    gone = c.get(f"/api/games/{b}")
    assert gone.status_code == 404 and "left alone for 1 minute," in gone.json()["error"]


def test_no_live_game_is_lost_under_many_concurrent_creations(serve):
    """4 games played to the end by 4 threads while 12 threads create 120 games at once, on a server
    holding 8: every creation past the room left is a 503, and no move of a live game is a 404."""
    server = serve(_table(), limit=8)
    players = [_client(server) for _ in range(4)]
    ids = [p.post("/api/games").json()["id"] for p in players]
    errors, statuses, lock = [], [], threading.Lock()
    go = threading.Barrier(16)

    def play(k: int) -> None:
        go.wait()
        _play_to_the_end(players[k], ids[k], errors, k)

    def flood() -> None:
        c = _client(server)
        go.wait()
        for _ in range(10):
            status = c.post("/api/games").status_code
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=play, args=(k,)) for k in range(4)]
    threads += [threading.Thread(target=flood) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert set(statuses) <= {200, 503} and 503 in statuses
    assert statuses.count(200) >= 4  # the 4 free places, and places of games finished meanwhile
    assert len(server.config.app.state.registry.plays) == 8


def test_the_load_benchmark_loses_no_game(serve):
    """A short run of ``benchmarks/web_load.py``: 12 clients, one whole game each, while 30 abandoned
    games are created at once on a server holding 16."""
    from boardgames.benchmarks.web_load import failed, run_load

    game = make_game("barc")
    from boardgames.play.web.session import Table

    server = serve(Table(game, "random"), limit=16)
    report = _run(run_load(server.url, game, clients=12, games=1, abandoned=30, time_limit=240))
    counts = report["counts"]
    assert failed(report) == 0, (counts, report["examples"])
    assert counts["games finished"] == 12 and counts["moves"] == report["move_ms"]["n"] > 12
    assert counts["abandoned games created"] + counts["abandoned games refused"] == 30
    assert counts["abandoned games refused"] > 0
    assert report["move_ms"]["p50"] <= report["move_ms"]["p90"] <= report["move_ms"]["p99"]


def test_the_load_benchmark_runs_on_loopback_only():
    from boardgames.benchmarks.web_load import check_loopback

    check_loopback("http://127.0.0.1:8765")
    check_loopback("http://[::1]:8765")
    with pytest.raises(ValueError, match="loopback"):
        check_loopback("http://192.168.1.10:8765")


def test_one_move_per_turn_under_20_by_20_concurrent_moves(serve):
    """20 games, each sent 20 legal moves at once for the same ply: exactly one is played per
    game (the others are refused 409, stale), and each game's record is the engine's."""
    from boardgames.envs.tools.replay import GameRecord

    server = serve(_table(), limit=32)
    c = _client(server)
    views = [c.post("/api/games").json() for _ in range(20)]

    async def burst() -> list:
        async with httpx.AsyncClient(
            base_url=server.url, timeout=300, headers={TOKEN: server.token}, limits=httpx.Limits(max_connections=400)
        ) as ac:
            sends = [
                ac.post(
                    f"/api/games/{v['id']}/move",
                    json={"action": v["legal"][i % len(v["legal"])]["action"], "ply": v["ply"]},
                )
                for v in views
                for i in range(20)
            ]
            return await asyncio.gather(*sends)

    answers = _run(burst())
    assert len(answers) == 400
    for k, view in enumerate(views):
        statuses = sorted(r.status_code for r in answers[20 * k : 20 * k + 20])
        assert statuses == [200] + [409] * 19, statuses
        after = c.get(f"/api/games/{view['id']}").json()
        assert after["ply"] == view["ply"] + 2  # the human's one move and the agent's reply
        record = GameRecord.from_text(make_game("dorix", num_players=2), c.get(f"/api/games/{view['id']}/moves").text)
        assert record.last.to_text() == after["position"]
