"""An agent that searches or runs a network tells the player it is thinking: in the terminal a line before
its move and the seconds after, in the window its status strip and title; and it gets ready before the
game (its first move's compiling done then, saying so), without changing a seeded game's moves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.envs.agents import Agent
from boardgames.envs.registry import make_game
from boardgames.play.cli import play_terminal, random_policy
from boardgames.play.moves import get_ready, thinking_text, thinks, warm_up

ROOT = Path(__file__).resolve().parents[2]


class Pondering(Agent):
    """An agent that counts as thinking (neither random nor greedy) and plays its first legal move."""

    def __init__(self):
        super().__init__(0)
        self.name = "ponder"

    def act(self, state, seat):
        return int(state.legal_actions(seat)[0])


def test_which_agents_think():
    from boardgames.training.agent_kinds import make_agent

    game = make_game("olix")
    assert not thinks(make_agent("random", game)) and not thinks(make_agent("greedy", game))
    assert thinks(make_agent("mcts:8", game)) and thinks(Pondering())
    state = game.new_initial_state()
    assert thinking_text(state, {1}, {0: Pondering()}) == "player_0 (ponder) is thinking…"
    assert thinking_text(state, {0}, {1: Pondering()}) == ""  # the human's turn
    assert thinking_text(state, {1}, {0: random_policy(0)}) == ""


def test_the_terminal_says_the_agent_is_thinking_then_how_long_it_took():
    game = make_game("olix")
    out = []
    answers = iter(["quit"])

    def read(prompt):
        return next(answers)

    play_terminal(game, {0: Pondering()}, {1}, read=read, write=out.append)
    at = out.index("player_0 (ponder) is thinking…")
    assert out[at + 1].startswith("1. player_0: ") and out[at + 1].endswith(" s)"), out[at + 1]
    out.clear()
    answers = iter(["quit"])
    play_terminal(game, {0: random_policy(0)}, {1}, read=read, write=out.append)
    moves = [line for line in out if line.startswith("1. ")]
    assert not any("thinking" in line for line in out) and moves and not moves[0].endswith(" s)")


def test_getting_ready_says_so_and_leaves_a_seeded_game_as_it_was():
    from boardgames.training.agent_kinds import make_agent

    game = make_game("olix")
    state = game.new_initial_state()
    warmed, fresh = make_agent("mcts:8", game, seed=5), make_agent("mcts:8", game, seed=5)
    said = []
    assert get_ready(warmed, "mcts:8", state, said.append) >= 0
    assert said[0].startswith("mcts:8: getting ready") and said[1].startswith("mcts:8 is ready (")
    assert [warmed(state.clone(), 0) for _ in range(3)] == [fresh(state.clone(), 0) for _ in range(3)]
    said.clear()
    assert get_ready(random_policy(0), "random", state, said.append) == 0.0 and said == []


def test_warm_up_uses_the_agents_own_when_it_has_one():
    calls = []
    agent = Pondering()
    agent.warm_up = calls.append
    state = make_game("olix").new_initial_state()
    warm_up(agent, state)
    assert calls == [state]


def test_the_command_gets_the_agent_ready_then_says_it_thinks():
    """``boardgames play`` as a user sees it, the agent moving first: a line before the game while it gets
    ready, then "... is thinking…" before its move and the seconds after."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "boardgames.play.cli", "--game", "olix", "--opponent", "mcts:8"]
    done = subprocess.run(
        command + ["--seat", "1"], cwd=ROOT, input="quit\n", capture_output=True, text=True, env=env, timeout=300
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr[-2000:]
    ready = next(i for i, line in enumerate(lines) if line.startswith("mcts:8: getting ready"))
    assert lines[ready + 1].startswith("mcts:8 is ready (")
    thinking = lines.index("player_0 (mcts8) is thinking…")
    assert ready < thinking and lines[thinking + 1].startswith("1. player_0: ") and lines[thinking + 1].endswith(" s)")


def test_the_window_shows_the_agent_thinking_in_its_status_and_title(monkeypatch):
    pygame = pytest.importorskip("pygame")
    from boardgames.play.window import play_window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    captions, strips = [], []
    real_caption = pygame.display.set_caption
    monkeypatch.setattr(pygame.display, "set_caption", lambda text: (captions.append(text), real_caption(text)))
    import PIL.ImageDraw

    real_text = PIL.ImageDraw.ImageDraw.text

    def text(self, xy, line, *args, **kwargs):
        strips.append(line)
        return real_text(self, xy, line, *args, **kwargs)

    monkeypatch.setattr(PIL.ImageDraw.ImageDraw, "text", text)
    script = iter([[], []])  # two frames, then the window is closed
    game = make_game("olix")
    quit_ = [pygame.event.Event(pygame.QUIT)]
    record = play_window(game, {0: Pondering()}, {1}, fps=1000, events=lambda: next(script, quit_))
    assert len(record) == 1  # the agent moved once, then it was the human's turn
    assert "olix: player_0 (ponder) is thinking…" in captions
    assert captions[-1] == "olix: click to play"
    assert "player_0 (ponder) is thinking…" in strips
    assert any(s.startswith("typed: _   last: player_0: ") and s.endswith(" s)") for s in strips), strips


def test_the_window_says_an_agents_illegal_move_ends_the_game(monkeypatch):
    pygame = pytest.importorskip("pygame")
    import PIL.ImageDraw

    from boardgames.play.window import play_window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    strips = []
    real_text = PIL.ImageDraw.ImageDraw.text

    def text(self, xy, line, *args, **kwargs):
        strips.append(line)
        return real_text(self, xy, line, *args, **kwargs)

    monkeypatch.setattr(PIL.ImageDraw.ImageDraw, "text", text)
    script = iter([[], []])
    quit_ = [pygame.event.Event(pygame.QUIT)]
    record = play_window(
        make_game("olix"), {0: lambda state, seat: -1}, {1}, fps=1000, events=lambda: next(script, quit_)
    )
    assert len(record) == 0  # the illegal move was never played
    end = "You won: player_0 (function) chose an illegal move (action -1), which loses the game."
    assert end + "  (close the window to quit)" in strips, strips[-4:]
