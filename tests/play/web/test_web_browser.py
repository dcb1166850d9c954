"""A full game of every game and player count played in a real browser (headless Chromium) by clicking in
the page against the random agent, then the final position the page shows checked against the engine's
replay of the move list the page shows; and a recorded game stepped through in the replay viewer."""

from __future__ import annotations

import time

import numpy as np
import pytest
from helpers.games import GAMES

from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import GameRecord, random_record
from boardgames.play.moves import result_text, side_labels
from boardgames.play.sides import title_of


def replay_of(game, moves: list):
    """The engine's last position after ``moves`` (a move list in notation)."""
    return GameRecord.from_text(game, "\n".join(moves)).last


def _idle(page) -> None:
    page.wait_for_function("() => document.body.dataset.busy === '0'", timeout=60_000)


def _submitted(page, ply: int) -> bool:
    """Whether the last click sent a move (the page is busy with it, or the position has moved on)."""
    return page.evaluate(f"document.body.dataset.busy === '1' || document.body.dataset.ply !== '{ply}'")


def click_move(page, move: dict, ply: int) -> None:
    """Play ``move`` (``{"action", "text", "squares"}`` of the page's legal moves) as a person would: its
    squares clicked in order, then, when the page offers several moves on them, the button naming it (or
    the last square again, the page's way to ask for the move that ends there)."""
    for square in move["squares"]:
        page.click(f'#board rect[data-square="{square}"]')
        if _submitted(page, ply):
            return
    button = page.locator(f'#choices button[data-move="{move["text"]}"]')
    if not button.count() and move["squares"]:
        page.click(f'#board rect[data-square="{move["squares"][-1]}"]')
        if _submitted(page, ply):
            return
    assert button.count() == 1, f"the page offers no way to play {move['text']!r} (squares {move['squares']})"
    button.click()
    assert _submitted(page, ply), f"clicking {move['text']!r} sent nothing"


def play_full_game(page, url: str, seed: int) -> tuple[str, list, dict]:
    """Play a whole game in the page with uniformly random legal moves chosen from those the page offers;
    returns the final position, the move list and the result the page shows."""
    rng = np.random.default_rng(seed)
    page.goto(url + "/")
    _idle(page)
    while page.evaluate("document.body.dataset.over") != "1":
        view = page.evaluate("window.boardPage.view")
        assert view["your_turn"] and view["legal"], "the game goes on but the page offers no move"
        move = view["legal"][int(rng.integers(len(view["legal"])))]
        click_move(page, move, view["ply"])
        _idle(page)
        assert not page.text_content("#error"), page.text_content("#error")
        assert int(page.evaluate("document.body.dataset.ply")) > view["ply"]
    shown = [li.text_content() for li in page.query_selector_all("#moves li")]
    view = page.evaluate("window.boardPage.view")
    assert shown == view["move_labels"]  # the list names the sides; the view's moves are in notation
    return page.text_content("#position"), view["moves"], view["result"]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{g}{o.get('num_players', '')}" for g, o in GAMES])
def test_a_full_game_clicked_in_the_page_ends_in_the_engines_position(name, options, serve, browser):
    from boardgames.play.web.session import Table

    game = make_game(name, **options)
    human = game.info.num_seats - 1 if name == "dorix" and game.info.num_seats > 2 else 0  # agents move first
    server = serve(Table(game, "random", human_seat=human, seed=1))
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.monotonic()
    position, moves, result = play_full_game(page, server.url, seed=7)
    # the title names the game as its rules page does; its options, as a reader writes them, are in a toggle
    settings = ", ".join(f"{k} {v}" for k, v in game.info.options.items())
    assert page.text_content("#title") == f"{title_of(game.info)} — you against random"
    assert page.text_content("#options-box summary") == "options" and page.text_content("#options") == settings
    assert page.text_content("#result") == result["text"] == result_text(replay_of(game, moves), human)
    page.close()
    assert not errors, errors
    replayed = replay_of(game, moves)
    assert replayed.is_terminal(), f"the page says the game is over after {len(moves)} moves; the engine does not"
    assert position == replayed.to_text()
    assert result["returns"] == [float(r) for r in replayed.returns()]
    print(f"{name} {options}: {len(moves)} moves in {time.monotonic() - started:.1f}s")


def test_the_replay_viewer_steps_through_a_saved_game(serve, browser, tmp_path):
    from boardgames.play.web.session import Table

    game = make_game("dorix", num_players=2)
    record = random_record(game, seed=3)
    path = tmp_path / "moves.txt"
    path.write_text(record.to_text())  # the --save-moves format
    server = serve(Table(game, "random"))
    page = browser.new_page()
    page.goto(server.url + "/replay")
    _idle(page)
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function("() => document.body.dataset.ply === '0'")
    states = record.states()
    assert page.text_content("#position") == states[0].to_text()
    assert [li.text_content() for li in page.query_selector_all("#moves li")] == side_labels(record)
    for i in (1, 2, 3):
        page.click("#next")
        page.wait_for_function(f"() => document.body.dataset.ply === '{i}'")
        assert page.text_content("#position") == states[i].to_text()
    page.click("#prev")
    page.wait_for_function("() => document.body.dataset.ply === '2'")
    assert page.text_content("#position") == states[2].to_text()
    page.click("#last")
    page.wait_for_function(f"() => document.body.dataset.ply === '{len(record)}'")
    assert page.text_content("#position") == record.last.to_text()
    assert page.text_content("#result") == page.evaluate("window.boardPage.view.result.text")
    assert page.text_content("#result") == result_text(record.last)  # in the third person: nobody plays here
    page.close()


def test_the_page_says_when_the_server_is_full(serve, browser):
    """A server holding one game, which is being played: the page's new game is refused, and it says why."""
    import httpx

    from boardgames.play.web.session import Table

    server = serve(Table(make_game("olix"), "random"), limit=1)
    assert httpx.post(server.url + "/api/games", headers={"X-Boardgames-Token": server.token}).status_code == 200
    page = browser.new_page()
    page.goto(server.url + "/")
    _idle(page)
    assert "No new game: this server is full" in page.text_content("#error")
    page.close()


def test_the_page_of_a_server_open_to_the_network_works_from_the_printed_url(serve, browser):
    """A server asking every request for its token: the page opened from the URL it prints plays, and
    goes on after a reload (whose address no longer holds the token: the cookie does)."""
    from boardgames.play.web.session import Table

    server = serve(Table(make_game("olix"), "random"), allowed_hosts=["*"], remote=True)
    page = browser.new_page()
    page.goto(f"{server.url}/?token={server.token}")
    _idle(page)
    view = page.evaluate("window.boardPage.view")
    click_move(page, view["legal"][0], view["ply"])
    _idle(page)
    assert not page.text_content("#error") and page.evaluate("document.body.dataset.ply") == "2"
    assert "token" not in page.url
    page.reload()
    _idle(page)
    assert not page.text_content("#error") and page.evaluate("window.boardPage.view.ply") == 2
    page.close()
    import httpx

    assert httpx.get(server.url + "/").status_code == 403  # without the token or its cookie
