"""The web server's JSON API without a browser: moves are checked by the engine, and every forged or
malformed request (an illegal or malformed action, another seat, broken JSON, an unknown game, a huge
body, a move after the end, a stale ply, a foreign Host) gets a 4xx with a message saying why and leaves
the game exactly as it was. Plus the agents' thinking, the replay endpoint and the page's files."""

from __future__ import annotations

import json

import pytest
from helpers.web import refused as _refused

from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import GameRecord, random_record

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e '.[web-test]')")

WIN_IN_ONE = "dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0"  # b2 ends the game


@pytest.fixture
def client(serve):
    """``client(table) -> (httpx.Client, server)`` for a server of ``table``; the client sends the
    server's token, as the page does."""
    clients = []

    def make(table):
        server = serve(table)
        c = httpx.Client(base_url=server.url, timeout=120, headers={"X-Boardgames-Token": server.token})
        clients.append(c)
        return c, server

    yield make
    for c in clients:
        c.close()


def _table(name="dorix", opponent="random", **kwargs):
    from boardgames.play.web.session import Table

    options = kwargs.pop("options", {})
    return Table(make_game(name, **options), opponent, **kwargs)


def _snapshot(c, gid) -> tuple:
    view = c.get(f"/api/games/{gid}").json()
    return view["position"], view["ply"], view["moves"], c.get(f"/api/games/{gid}/moves").text


def test_a_legal_move_is_played_and_answered_with_the_new_position(client):
    c, _ = client(_table("olix"))
    view = c.post("/api/games").json()
    assert view["your_turn"] and view["ply"] == 0 and view["board"]["png"].startswith("data:image/png;base64,")
    assert set(view["board"]["squares"]) == {f"{f}{r}" for f in "abcdefghijk" for r in range(1, 12)}
    move = view["legal"][5]
    after = c.post(f"/api/games/{view['id']}/move", json={"move": move["text"], "ply": 0}).json()
    assert after["ply"] == 2 and after["moves"][0] == f"player_0: {move['text']}"  # and the agent's reply
    assert after["move_labels"] == after["moves"]  # Olix's sides are named player_0 and player_1
    record = GameRecord.from_text(make_game("olix"), "\n".join(after["moves"]))
    assert record.last.to_text() == after["position"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"action": 10_000}, 422, ["out of range"]),
        ({"action": True}, 422, ["integer"]),
        ({"action": "3"}, 422, ["integer"]),
        ({"action": 1.5}, 422, ["integer"]),
        ({"move": "z9"}, 422, ["illegal move"]),
        ({"move": "b2; import os"}, 422, ["illegal move"]),
        ({"move": "a" * 65}, 400, ["at most 64"]),
        ({"move": ["b2"]}, 400, ["string"]),
        ({}, 400, ["either"]),
        ({"action": 0, "move": "b2"}, 400, ["either"]),
        ({"action": 0, "seat": 1}, 403, ["not yours", "seat 0"]),
        ({"action": 0, "ply": 7}, 409, ["ply 7"]),
        ({"action": 0, "code": "__import__('os').system('true')"}, 400, ["unknown fields", "code"]),
    ],
)
def test_a_forged_move_is_refused_with_a_message_and_the_game_untouched(client, body, status, words):
    c, _ = client(_table("dorix"))
    gid = c.post("/api/games").json()["id"]
    first = c.post(f"/api/games/{gid}/move", json={"move": "b2"})  # something played, to see it stay
    assert first.status_code == 200
    before = _snapshot(c, gid)
    _refused(c.post(f"/api/games/{gid}/move", json=body), status, *words)
    assert _snapshot(c, gid) == before


def test_an_illegal_action_index_is_named_in_the_engines_words(client):
    c, _ = client(_table("dorix"))
    view = c.post("/api/games").json()
    legal = {m["action"] for m in view["legal"]}
    illegal = next(a for a in range(276) if a not in legal)
    before = _snapshot(c, view["id"])
    _refused(c.post(f"/api/games/{view['id']}/move", json={"action": illegal}), 422, "illegal", f"action {illegal}")
    assert _snapshot(c, view["id"]) == before


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{not json", ["not JSON"]),
        (b"[1, 2]", ["JSON object"]),
        (b'"b2"', ["JSON object"]),
        (b"\xff\xfe", ["not JSON"]),
    ],
)
def test_malformed_json_is_refused(client, raw, words):
    c, _ = client(_table("dorix"))
    gid = c.post("/api/games").json()["id"]
    before = _snapshot(c, gid)
    _refused(c.post(f"/api/games/{gid}/move", content=raw, headers={"content-type": "application/json"}), 400, *words)
    assert _snapshot(c, gid) == before


def test_a_huge_body_is_refused_with_or_without_its_length(client):
    from boardgames.play.web.app import MAX_BODY

    c, _ = client(_table("dorix"))
    gid = c.post("/api/games").json()["id"]
    before = _snapshot(c, gid)
    huge = json.dumps({"move": "b2", "pad": "x" * (MAX_BODY + 10)}).encode()
    _refused(c.post(f"/api/games/{gid}/move", content=huge), 413, "larger than")

    def chunks():  # no Content-Length: the limit is counted as the body streams in
        for _ in range(MAX_BODY // 4096 + 2):
            yield b" " * 4096

    _refused(c.post(f"/api/games/{gid}/move", content=chunks()), 413, "larger than")
    _refused(c.post("/api/replays", content=b"#" * (MAX_BODY + 1)), 413, "larger than")
    assert _snapshot(c, gid) == before


def test_unknown_games_and_paths_are_404_and_wrong_methods_405(client):
    c, _ = client(_table("dorix"))
    _refused(c.get("/api/games/0123456789abcdef"), 404, "no play session")
    _refused(c.post("/api/games/0123456789abcdef/move", json={"action": 0}), 404, "no play session")
    _refused(c.get("/api/replays/0123456789abcdef/0"), 404, "no replay session")
    _refused(c.get("/etc/passwd"), 404, "no such page")
    _refused(c.get("/static/../session.py"), 404)
    _refused(c.get("/api/games"), 405, "GET")


def test_a_move_after_the_end_is_refused(client):
    game = make_game("dorix", num_players=2)
    c, _ = client(_table("dorix", start=game.from_text(WIN_IN_ONE)))
    gid = c.post("/api/games").json()["id"]
    end = c.post(f"/api/games/{gid}/move", json={"move": "b2"}).json()
    assert end["result"] == {
        "text": "You lost: player_1 tops all four stacks of the long diagonal a1-b2-c3-d4.",
        "headline": "You lost",
        "reason": "player_1 tops all four stacks of the long diagonal a1-b2-c3-d4",
        "kind": "alignment",
        "outcome": "lost",
        "returns": [-1.0, 1.0],
        "truncated": False,
    }
    assert end["legal"] == [] and not end["your_turn"]
    before = _snapshot(c, gid)
    _refused(c.post(f"/api/games/{gid}/move", json={"move": "a1"}), 409, "over")
    _refused(c.post(f"/api/games/{gid}/move", json={"action": 0}), 409, "over")
    assert _snapshot(c, gid) == before


def test_a_request_for_another_host_is_refused(client):
    c, _ = client(_table("dorix"))
    response = c.get("/", headers={"host": "attacker.example"})
    assert response.status_code == 400 and "host" in response.text.lower()


def test_the_seat_of_a_new_game_is_checked(client):
    c, _ = client(_table("dorix", options={"num_players": 3}))
    _refused(c.post("/api/games", json={"seat": 3}), 400, "0..2")
    _refused(c.post("/api/games", json={"seat": "1"}), 400, "integer")
    _refused(c.post("/api/games", json={"opponent": "models/x"}), 400, "unknown fields")
    view = c.post("/api/games", json={"seat": 2}).json()
    assert view["seat"] == 2 and view["ply"] == 2 and view["your_turn"]  # the agents of seats 0 and 1 moved


def test_the_agents_thinking_is_shown_with_its_shares(client):
    c, _ = client(_table("barc", "mcts:40", seed=3))
    view = c.post("/api/games").json()
    assert view["simultaneous"] and view["thinking"] == []
    after = c.post(f"/api/games/{view['id']}/move", json={"move": "stay"}).json()
    assert after["reveal"].startswith("South: stay | North: ") and after["move_labels"][0] == after["reveal"]
    (entry,) = after["thinking"]
    assert entry["seat"] == 1 and entry["agent"] == "mcts40"
    shares = [row["share"] for row in entry["top"]]
    # the 8 largest shares, then the chosen order's when the search's ties left it out of them
    assert shares[:8] == sorted(shares[:8], reverse=True) and 0 < sum(shares) <= 1.0001 and len(shares) <= 9
    assert entry["chosen"] == after["reveal"].split("North: ")[1] and entry["name"] == "North"
    assert entry["chosen"] in [row["move"] for row in entry["top"]]  # the played order is always listed


def test_random_has_no_thinking(client):
    c, _ = client(_table("dorix"))
    view = c.post("/api/games", json={"seat": 1}).json()
    assert view["thinking"] == [] and view["ply"] == 1


def test_a_saved_move_list_opens_as_a_replay(client):
    c, _ = client(_table("dorix"))
    game = make_game("olix")  # another game than the server plays: the header says which
    record = random_record(game, seed=2, max_moves=20)
    view = c.post("/api/replays?name=olix.txt", content=record.to_text()).json()
    assert view["game"] == "olix" and view["count"] == 21 and view["index"] == 0 and view["name"] == "olix.txt"
    states = record.states()
    for i in (0, 7, 20):
        assert c.get(f"/api/replays/{view['id']}/{i}").json()["position"] == states[i].to_text()
    _refused(c.get(f"/api/replays/{view['id']}/21"), 404, "0..20")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('# dorix {"num_players": 2}\n1. player_0: b2\n2. player_1: c3\n3. player_0: q7\n', ["move 3", "q7"]),
        ('# dorix {"num_players": 9}\n1. b2\n', ["num_players"]),
        ("# dorix [1, 2]\n1. b2\n", ["JSON object"]),
        ("# chess {}\n1. e4\n", ["move 1"]),  # not a game of this server: read as the server's own game (dorix)
    ],
)
def test_a_bad_move_list_is_refused_with_a_message(client, text, words):
    c, _ = client(_table("dorix"))
    _refused(c.post("/api/replays", content=text), 422, *words)


def test_the_page_and_its_files_are_served_with_a_strict_policy(client):
    c, _ = client(_table("dorix"))
    page = c.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "style.css"):
        text = c.get(f"/static/{name}").text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert c.get("/replay").text == page.text
    assert c.get("/api/config").json()["game"] == "dorix"
