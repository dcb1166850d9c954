"""The page speaks to the player, for every game, in headless Chromium: it says whom you play, that the
agent is thinking while it chooses, and how the game ended with the rule that ended it ("You lost:
player_1 makes the super pattern I-8 ..."). Each game starts one move before its end (a position
checked by hand, as in tests/play/test_play_endings.py); an agent that answers from a script plays the other
seats. A replay of the game says its end in the third person; ``boardgames web --replay FILE`` prints
the replay's URL only, and ``boardgames web --help`` is the web command's own."""

from __future__ import annotations

import time

import numpy as np
import pytest

from boardgames.envs.agents import Agent
from boardgames.envs.registry import make_game


class Scripted(Agent):
    """An agent that thinks (neither random nor greedy: the page says so while it does) for ``seconds``,
    then plays its seat's move of ``moves`` (``{seat: notation}``), else its first legal move; with
    ``cheat`` it chooses an illegal move instead."""

    def __init__(self, moves: dict | None = None, cheat: bool = False, seconds: float = 1.5):
        super().__init__(0)
        self.name, self.moves, self.cheat, self.seconds = "scripted", moves or {}, cheat, seconds

    def act(self, state, seat):
        time.sleep(self.seconds)
        if self.cheat:
            return int(np.flatnonzero(~state.legal_mask(seat))[0])
        if seat in self.moves:
            return int(state.text_to_action(self.moves[seat], seat))
        return int(state.legal_actions(seat)[0])


# (id, game, options, start, the human's seat, the human's move, the agents' moves, who you play, the end)
CASES = [
    (
        "dorix2",
        "dorix",
        {"num_players": 2},
        "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.-.-.0 hands=14,12 move=0 turn=4",
        0,
        "a4",
        {1: "d4"},
        "You play player_0 (light).",
        "You lost: player_1 tops all four stacks of the long diagonal a1-b2-c3-d4.",
    ),
    (
        "dorix4",
        "dorix",
        {"num_players": 4},
        "dorix -.-.-.-/-.-.0.-/-.2.-.-/0.-.-.- hands=8,10,9,10 move=0 turn=4",
        0,
        "a3",
        {1: "b4", 2: "d4"},
        "You play player_0 (light), with player_2 (red) as your partner (team 0).",
        "Your team won (you and your partner player_2): team 0 (player_0 and player_2) tops all four stacks "
        "of the long diagonal a1-b2-c3-d4.",
    ),
    (
        "olix",
        "olix",
        {},
        "olix bbbbbbb4/11/11/11/11/11/11/11/11/11/www8 move=0 turn=10 marks=O-,L-,I7b,X-",
        0,
        "f6",
        {1: "h11"},
        "You play player_0 (light).",
        "You lost: player_1 makes the super pattern I-8, beyond the top of its column (I-7).",
    ),
    (
        "barc",
        "barc",
        {},
        "barc 1.1.-.1.0.1/-.-.-.-.-.-/-.-.0.-.-.-/-.-.-.-.-.-/-.-.0.-.-.-/0.0.-.1.0.1 turn=7",
        0,
        "c2-c1",
        {1: "stay"},
        "You play South (light).",
        "You won: South lines up a1, b1, c1.",
    ),
]


def _move(page, text: str) -> None:
    """Type ``text`` in notation and send it (the request goes on: the page is not waited for)."""
    page.fill("#typed-move", text)
    page.click("#typed button[type=submit]")


def _idle(page) -> None:
    page.wait_for_function("() => document.body.dataset.busy === '0'", timeout=60_000)


def _play_to_the_end(page, url: str, move: str) -> None:
    """Open the page, check it is the player's move, play ``move``, see the agent think, wait for the end."""
    page.goto(url + "/")
    _idle(page)
    assert page.text_content("#status") in ("Your move.", "Your order: both orders are revealed together.")
    _move(page, move)
    page.wait_for_function("() => document.body.dataset.thinking === '1'", timeout=10_000)
    assert page.text_content("#status") == "scripted is thinking…"
    page.wait_for_function("() => document.body.dataset.over === '1'", timeout=60_000)
    _idle(page)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_page_says_whom_you_play_the_thinking_and_the_end(case, serve, browser):
    from boardgames.play.web.session import Table

    _, name, options, start, seat, move, moves, you, end = case
    game = make_game(name, **options)
    server = serve(Table(game, Scripted(moves), human_seat=seat, start=game.from_text(start)))
    page = browser.new_page()
    _play_to_the_end(page, server.url, move)
    assert page.text_content("#you") == you
    assert page.text_content("#status") == end and page.text_content("#result") == end
    outcome = end.split(":")[0].split(" (")[0]
    assert (
        page.evaluate("document.body.dataset.outcome")
        == {
            "You won": "won",
            "You lost": "lost",
            "Your team won": "won",
            "Draw": "draw",
        }[outcome]
    )
    # the same game in the replay viewer: its end in the third person
    page.click("#to-replay")
    page.wait_for_url("**/replay#*")
    _idle(page)
    page.click("#last")
    page.wait_for_function("() => document.body.dataset.over === '1'", timeout=10_000)
    watched = page.text_content("#result")
    assert not watched.startswith(("You", "Your")) and watched.split(": ", 1)[1] == end.split(": ", 1)[1]
    assert page.text_content("#title").startswith("Replay of this game: ")
    page.close()


def test_an_agents_illegal_move_ends_the_game_and_the_page_says_so(serve, browser):
    """ADIX against an agent that chooses an illegal move: the game ends at once, lost by the agent."""
    from boardgames.play.web.session import Table

    server = serve(Table(make_game("adix"), Scripted(cheat=True)))
    page = browser.new_page()
    page.goto(server.url + "/")
    _idle(page)
    assert page.text_content("#you") == "You play White."
    assert page.text_content("#title") == "ADIX — you against scripted"
    _move(page, "e1L")
    page.wait_for_function("() => document.body.dataset.thinking === '1'", timeout=10_000)
    assert page.text_content("#status") == "scripted is thinking…"
    page.wait_for_function("() => document.body.dataset.over === '1'", timeout=60_000)
    end = page.text_content("#result")
    assert end.startswith("You won: Black (scripted) chose an illegal move (") and end.endswith("loses the game.")
    assert page.evaluate("window.boardPage.view.legal") == [] and page.text_content("#status") == end
    page.close()


def test_web_with_only_a_replay_prints_the_replays_url_only(tmp_path, monkeypatch, capsys):
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    import uvicorn

    from boardgames.envs.tools.replay import random_record
    from boardgames.play.web.__main__ import main

    path = tmp_path / "game.txt"
    path.write_text(random_record(make_game("barc"), seed=1, max_moves=4).to_text())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # no serving: only the start
    assert main(["--replay", str(path), "--port", "0"]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if "http://" in line]
    assert len(out) == 1 and out[0].startswith(f"replay of {path}: http://127.0.0.1:") and "/replay#" in out[0]
    assert main(["--game", "barc", "--replay", str(path), "--port", "0"]) == 0  # a game asked for: both
    out = [line for line in capsys.readouterr().out.splitlines() if "http://" in line]
    assert out[0].startswith("replay of ") and out[1].startswith("Barc duel: open http://127.0.0.1:")
    assert out[1].endswith(" to play South (light) against random")


def test_web_help_is_the_web_commands_own(capsys):
    from boardgames.play.web.__main__ import main

    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert text.startswith("usage: boardgames web ") and "--replay PATH" in text and "--host" in text
    assert "--gui" not in text and "--save-gif" not in text and "--web " not in text
