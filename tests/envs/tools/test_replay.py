"""Replays of every game: move lists in notation, GIFs, pictures, and the replay command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.penny_game import _PennyGame
from PIL import Image

from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import game_names, make_game
from boardgames.envs.tools.replay import GameRecord, move_list, random_record, read_header, save_gif

ROOT = Path(__file__).resolve().parents[3]
GAMES = game_names()


def _gif_frames(path) -> list[np.ndarray]:
    im = Image.open(path)
    frames = []
    for i in range(im.n_frames):
        im.seek(i)
        frames.append(np.asarray(im.convert("RGB")))
    return frames


@pytest.mark.parametrize("name", GAMES)
def test_gif_has_one_frame_per_position(name, tmp_path):
    record = random_record(make_game(name), seed=3, max_moves=12)
    assert len(record) == 12 or (len(record) >= 2 and record.last.is_terminal())
    path = save_gif(record, tmp_path / f"{name}.gif")
    frames = _gif_frames(path)
    assert len(frames) == len(record) + 1  # the start, then one per turn
    assert all(f.shape == frames[0].shape for f in frames)
    for before, after in zip(frames, frames[1:]):
        assert not np.array_equal(before, after)


@pytest.mark.parametrize("name", GAMES)
def test_gif_from_a_list_of_states(name, tmp_path):
    states = random_record(make_game(name), seed=4, max_moves=5).states()
    frames = _gif_frames(save_gif(states, tmp_path / "states.gif"))
    assert len(frames) == len(states)


@pytest.mark.parametrize("name", GAMES)
def test_rgb_frame_differs_after_a_move(name):
    record = random_record(make_game(name), seed=5, max_moves=1)
    before, after = (s.render_rgb() for s in record.states())
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    assert before.shape != after.shape or not np.array_equal(before, after)


@pytest.mark.parametrize("name", GAMES)
def test_move_list_round_trips(name):
    game = make_game(name)
    record = random_record(game, seed=6)  # to the end of the game
    assert record.last.is_terminal()
    text = move_list(record)
    assert text.splitlines()[1].startswith("1. ") and "# result:" in text
    again = GameRecord.from_text(game, text)
    assert again.moves == record.moves and again.last == record.last
    assert move_list(record.states()) == text  # the moves found back from the positions


@pytest.mark.parametrize("name", GAMES)
def test_move_list_from_a_scripted_position(name):
    game = make_game(name)
    middle = random_record(game, seed=7, max_moves=6).last
    record = random_record(game, seed=8, max_moves=4, start=middle.to_text())
    text = record.to_text()
    assert f"# start: {middle.to_text()}" in text
    assert GameRecord.from_text(game, text).last == record.last


def test_bad_move_in_a_move_list_names_the_move():
    game = make_game(GAMES[0])
    with pytest.raises(IllegalActionError, match="move 1"):
        GameRecord.from_moves(game, ["not-a-move"])


def test_replay_command_reads_a_move_list_and_writes_a_gif(tmp_path):
    game = make_game(GAMES[0])
    record = random_record(game, seed=10, max_moves=7)
    moves = tmp_path / "moves.txt"
    moves.write_text(record.to_text())
    gif = tmp_path / "game.gif"
    proc = subprocess.run(
        [sys.executable, "-m", "boardgames.envs.tools.replay", "--game", GAMES[0], str(moves), "--gif", str(gif)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(record.to_text())
    assert Image.open(gif).n_frames == 8


def _replay(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "boardgames.envs.tools.replay", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        input=stdin,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_replay_command_reads_the_game_and_its_options_from_the_header(tmp_path):
    record = random_record(make_game("dorix", num_players=3), seed=2, max_moves=5)
    moves = tmp_path / "moves.txt"
    moves.write_text(record.to_text())
    proc = _replay(str(moves))  # no --game: the header names dorix with 3 players
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == record.to_text()
    assert _replay(str(moves), "--game", "dorix").returncode == 0  # the header's game: accepted


def test_replay_command_refuses_a_game_other_than_the_headers(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text(random_record(make_game("olix"), seed=1, max_moves=3).to_text())
    proc = _replay(str(moves), "--game", "adix")
    assert proc.returncode == 2
    assert "--game adix but the move list's header names olix" in proc.stderr


def test_replay_command_needs_game_only_without_a_header():
    record = random_record(make_game("barc"), seed=1, max_moves=3)
    body = "".join(line + "\n" for line in record.to_text().splitlines() if not line.startswith("#"))
    refused = _replay("-", stdin=body)
    assert refused.returncode == 2 and "name its game with --game" in refused.stderr
    named = _replay("-", "--game", "barc", stdin=body)
    assert named.returncode == 0, named.stderr
    assert named.stdout.splitlines()[1:] == record.to_text().splitlines()[1:]


def test_replay_help_says_whole_sentences():
    proc = _replay("--help")
    assert proc.returncode == 0
    description = " ".join(proc.stdout.split("\n\n")[1].split())
    assert description.endswith(".")  # the first line of a docstring stopped mid-sentence before
    assert "first line" in description  # and it says where the game comes from


@pytest.mark.parametrize(
    "first, problem",
    [("# olix [1, 2]", "not a JSON object"), ("# olix {max_turns: 3}", "not JSON")],
)
def test_read_header_names_bad_options(first, problem):
    with pytest.raises(ValueError, match=problem):
        read_header(first + "\n1. a1\n")


def test_read_header_of_other_first_lines():
    assert read_header("# a comment\n1. b2\n") is None
    assert read_header("1. b2\n") is None
    assert read_header('# adix {"max_turns": 50}\n') == ("adix", {"max_turns": 50})


def test_simultaneous_game_record_gif_and_move_list(tmp_path):
    game = _PennyGame()
    record = random_record(game, seed=0)
    assert len(record) == 3 and all(len(m) == 2 for m in record.moves)
    text = record.to_text()
    assert "1. player_0: " in text and " | player_1: " in text
    assert GameRecord.from_text(game, text).last == record.last
    assert GameRecord.from_states(record.states()).moves == record.moves
    assert GameRecord.from_moves(game, [["a1", "b1"], "player_0: c1 | player_1: c1", (0, 0)]).last.data[1] == 2
    assert Image.open(save_gif(record, tmp_path / "p.gif")).n_frames == 4
