"""What the replay viewer says about the game it shows, in a real browser (headless Chromium): nothing
opened yet, a move list with no moves, a move list that stops before the game's end; and never the
play page's click hint, since clicks play nothing in a replay."""

from __future__ import annotations

from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import GameRecord, random_record


def _idle(page) -> None:
    page.wait_for_function("() => document.body.dataset.busy === '0'", timeout=60_000)


def _open(page, path) -> None:
    """Open a move list and wait until the page shows it: the result line must change from what it said
    before, since the view and the busy flag alone are already set by a file opened earlier."""
    before = page.text_content("#result")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function(
        "(before) => window.boardPage.view !== null && document.body.dataset.busy === '0'"
        " && document.querySelector('#result').textContent !== before",
        arg=before,
    )


def test_the_replay_viewer_says_what_it_shows_without_the_click_hint(serve, browser, tmp_path):
    from boardgames.play.web.session import Table

    game = make_game("dorix", num_players=2)
    server = serve(Table(game, "random"))
    page = browser.new_page()
    page.goto(server.url + "/replay")
    _idle(page)
    assert "no game opened yet" in page.text_content("#result")
    assert "goes on" not in page.text_content("#result")

    empty = tmp_path / "empty.txt"
    empty.write_text(GameRecord(game.new_initial_state()).to_text())  # the header alone
    _open(page, empty)
    assert page.text_content("#result") == "no moves: this move list holds only the starting position"
    hint = page.text_content("#hint")
    assert "arrow keys" in hint and "Click" not in hint

    record = random_record(game, seed=3)
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(record.to_text().splitlines()[:4]) + "\n")  # the header and three moves
    _open(page, cut)
    assert page.text_content("#result") == "the game goes on"  # at the start
    page.click("#last")
    page.wait_for_function("() => document.body.dataset.ply === '3'")
    assert page.text_content("#result") == "the move list stops here, before the game is over"
    page.close()
