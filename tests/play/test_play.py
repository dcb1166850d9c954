"""The player of ``boardgames play`` for every game: terminal, window clicks, opponents."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.penny_game import _PennyGame

from boardgames.envs.registry import game_names, make_game
from boardgames.envs.tools.replay import random_record
from boardgames.play.cli import (
    ClickSelector,
    legal_move_texts,
    play_terminal,
    random_policy,
    render_with_geometry,
    result_text,
    squares_in,
)

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names()


# ----- terminal player ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_terminal_player_in_process_plays_to_the_end(name):
    game = make_game(name)
    rng = np.random.default_rng(0)
    out = []
    state_box = {}

    def write(line=""):
        out.append(line)
        if line.startswith("position: "):
            state_box["state"] = game.from_text(line[len("position: ") :])

    asked = {"n": 0}

    def read(prompt):
        asked["n"] += 1
        if asked["n"] == 1:
            return "zz99"  # unreadable: explained, then asked again
        state = state_box["state"]
        seat = [s for s in state.current_seats() if s == 0][0]
        return str(rng.choice(legal_move_texts(state, seat)))

    policies = {s: random_policy(s) for s in range(1, game.info.num_seats)}
    record = play_terminal(game, policies, {0}, read=read, write=write)
    assert record.last.is_terminal()
    assert any(line.startswith("Illegal move:") for line in out)
    assert out[-1] == result_text(record.last, 0)  # said to the player, with the rule that ended the game
    assert out[-1].startswith(("You won: ", "You lost: ", "Your team won", "Your team lost", "Draw: "))


def test_terminal_player_driven_through_stdin():
    """``boardgames play`` as a user sees it: a script types the moves on stdin, one of them
    illegal (explained and asked again), until the game ends."""
    name = "dorix" if "dorix" in GAMES else GAMES[0]
    game = make_game(name)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames.play.cli", "--game", name, "--opponent", "random", "--seed", "3"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    position, prompts, rejected, lines = None, 0, 0, []
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("position: "):
                position = line[len("position: ") :].strip()
            if "Illegal move:" in line:
                rejected += 1
            if line.rstrip().endswith("'quit'):"):
                prompts += 1
                state = game.from_text(position)
                if prompts == 2:
                    # a well-formed move that is not legal: a square topped by the opponent, or off-board
                    move = "a1-a1" if name == "dorix" else "z99"
                    proc.stdin.write(move + "\n")
                move = legal_move_texts(state, state.current_seats()[0])[0]
                proc.stdin.write(move + "\n")
                proc.stdin.flush()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, "\n".join(lines[-20:])
    assert rejected == 1 and prompts >= 2
    assert lines[-1].startswith(("You won: ", "You lost: ", "Your team", "Draw: ")), lines[-5:]


def test_play_rejects_a_bad_option():
    proc = subprocess.run(
        [sys.executable, "-m", "boardgames.play.cli", "--game", GAMES[0], "--option", "no_such_option=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2 and "error" in proc.stderr


# ----- window: clicks to moves --------------------------------------------------------------------
def test_squares_in_notation():
    assert squares_in("a1-b2", 4, 4) == ["a1", "b2"]
    assert squares_in(">c2", 4, 4) == ["c2"]
    assert squares_in("k11", 11, 11) == ["k11"]
    assert squares_in("e5", 4, 4) == []  # off this board
    assert squares_in("e2xe5", 9, 9) == ["e2", "e5"] and squares_in("f3i6", 9, 9) == ["f3", "i6"]
    assert squares_in("e2L", 9, 9) == ["e2"] and squares_in("stay", 6, 6) == []


@pytest.mark.parametrize("name", GAMES)
def test_a_click_on_each_square_of_a_legal_move_plays_it(name):
    game = make_game(name)
    state = random_record(game, seed=9, max_moves=8).last
    frame, geometry = render_with_geometry(state)
    assert geometry is not None and frame.ndim == 3
    seat = state.current_seats()[0]
    texts = legal_move_texts(state, seat)
    actions = [int(a) for a in state.legal_actions(seat)]
    clickable = [(a, t) for a, t in zip(actions, texts) if squares_in(t, geometry.files, geometry.ranks)]
    assert clickable, "no legal move names a square"
    for action, text in clickable[:6]:
        selector = ClickSelector(state, seat, geometry.files, geometry.ranks)
        squares = squares_in(text, geometry.files, geometry.ranks)
        result = None
        for square in squares:
            x0, y0, x1, y1 = geometry.box(square)
            assert geometry.square_at((x0 + x1) // 2, (y0 + y1) // 2) == square
            result = selector.click(square)
        if result is None and selector.choices:
            result = selector.pick(selector.choices.index(action) + 1)
        if result is None and squares:  # a shorter move shares the squares: click the last one again
            result = selector.click(squares[-1])
        if result is None and selector.choices:
            result = selector.pick(selector.choices.index(action) + 1)
        assert result == action, (text, selector.message)


def test_dorix_clicks_place_move_and_reject():
    if "dorix" not in GAMES:
        pytest.skip("dorix not registered")
    game = make_game("dorix")
    state = game.from_text("dorix 1.-.-.-/-.-.-.-/-.-.-.-/0.-.-.- hands=14,14 move=0 turn=2")
    sel = ClickSelector(state, 0, 4, 4)
    assert sel.click("a4") is None and "no legal move" in sel.message  # topped by the opponent
    assert state.action_to_text(sel.click("b2")) == "b2"
    # once the hands are empty a move takes two clicks: from, then to
    state = game.from_text("dorix 00.000.1.111/1.00.-.11/000.10.1.011/0.010.11.1 hands=0,0 move=0 turn=30")
    move = next(t for t in legal_move_texts(state, state.current_seat) if "-" in t)
    sel = ClickSelector(state, state.current_seat, 4, 4)
    frm, to = move.split("-")
    assert sel.click(frm) is None and frm in sel.message
    assert to in sel.next_squares() and frm not in sel.next_squares()
    assert state.action_to_text(sel.click(to)) == move


@pytest.mark.parametrize("name", GAMES)
def test_window_plays_clicks_then_closes(name):
    pygame = pytest.importorskip("pygame")
    from boardgames.play.cli import play_window

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    game = make_game(name)
    state = game.new_initial_state()
    _, geometry = render_with_geometry(state)
    seat = state.current_seats()[0]
    # a legal move that clicks on its squares alone choose
    for action, text in zip(state.legal_actions(seat), legal_move_texts(state, seat)):
        squares = squares_in(text, geometry.files, geometry.ranks)
        selector = ClickSelector(state, seat, geometry.files, geometry.ranks)
        if squares and [selector.click(sq) for sq in squares][-1] == action:
            break
    else:
        pytest.fail("no legal move is played by clicks alone")

    def click(square):
        x0, y0, x1, y1 = geometry.box(square)
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=((x0 + x1) // 2, (y0 + y1) // 2))

    script = iter([[click(sq)] for sq in squares])
    policies = {s: random_policy(s) for s in range(1, game.info.num_seats)}
    record = play_window(game, policies, {0}, fps=1000, events=lambda: next(script, [pygame.event.Event(pygame.QUIT)]))
    assert len(record) == (1 if game.info.simultaneous else 2)  # the opponent answered a turn-based move
    first = record.moves[0][0] if game.info.simultaneous else record.moves[0]
    assert first == action


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:16"])
def test_terminal_player_against_each_baseline(spec):
    from boardgames.play.cli import make_opponent

    game = make_game(GAMES[0])
    opponent = make_opponent(spec, game, seed=0)
    out, states = [], []

    def write(line=""):
        out.append(line)
        if line.startswith("position: "):
            states.append(game.from_text(line[len("position: ") :]))

    def read(prompt):
        if len(states) > 4:
            return "quit"
        return legal_move_texts(states[-1], 0)[-1]

    record = play_terminal(game, {s: opponent for s in range(1, game.info.num_seats)}, {0}, read=read, write=write)
    assert out[-1] == "Game stopped." and len(record) >= 4


def test_unknown_opponent_is_refused():
    from boardgames.envs.core.errors import GameOptionError
    from boardgames.play.cli import make_opponent

    with pytest.raises(GameOptionError, match="unknown agent"):
        make_opponent("no-such-agent", make_game(GAMES[0]))


def test_simultaneous_game_in_the_terminal():
    game = _PennyGame()
    answers = iter(["d1", "a1", "b1", "c1"])  # d1 is refused, then one order per turn
    out = []
    record = play_terminal(game, {1: random_policy(0)}, {0}, read=lambda p: next(answers), write=out.append)
    assert record.last.is_terminal() and [m[0] for m in record.moves] == [0, 1, 2]
    assert sum(line.startswith("Illegal move:") for line in out) == 1
    assert any(line.startswith("1. player_0: a1 | player_1: ") for line in out)


def test_watching_agents_says_the_end_in_the_third_person():
    """Every seat an agent (``--watch``): the end names the winning side and its agent."""
    game = make_game("barc")
    policies = {0: random_policy(0), 1: random_policy(1)}
    out = []
    record = play_terminal(game, policies, set(), read=lambda p: pytest.fail("nobody is asked"), write=out.append)
    assert record.last.is_terminal()
    assert out[-1] == result_text(record.last, None, {0: "random", 1: "random"})
    assert out[-1].startswith(("South (random) won: ", "North (random) won: ", "Draw: "))


def test_an_agents_illegal_move_ends_the_game_with_its_loss():
    game = make_game("olix")
    out = []
    answers = iter(["f6"])
    play_terminal(game, {1: lambda state, seat: 60}, {0}, read=lambda p: next(answers), write=out.append)
    assert out[-1] == "You won: player_1 (function) chose an illegal move (f6), which loses the game.", out[-3:]


def test_the_terminal_introduces_the_game_and_the_players_side():
    from boardgames.play.cli import intro_line

    line = intro_line(make_game("barc"), "barc_az", 1)
    assert line == "Barc duel — you against barc_az (start alternating, max_turns 200). You play North (dark)."
    assert intro_line(make_game("olix"), "greedy", None) == "Olix — greedy against itself (max_turns 92)."
