"""``boardgames evaluate --save-games N``: the first N games of each pair are kept as move lists
(the ``--save-moves`` format) that replay to the end of the game, in both match loops (one game at a
time, and side by side for agents that act in batches)."""

from __future__ import annotations

import numpy as np

from boardgames.envs.agents import RandomAgent
from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import GameRecord
from boardgames.training.evaluation.evaluate import main, play_match


class BatchRandom(RandomAgent):
    """A random agent with ``act_batch``: play_match plays its games side by side."""

    def act_batch(self, states, seats):
        return np.array([self.act(s, seat) for s, seat in zip(states, seats)])


def _check(records, game, count):
    assert len(records) == count
    for record in records:
        assert record.last.is_terminal() and len(record) > 0
        again = GameRecord.from_text(game, record.to_text())
        assert again.last == record.last


def test_play_match_keeps_the_first_games_one_at_a_time_and_side_by_side():
    game = make_game("barc")
    result = play_match(game, RandomAgent(1), RandomAgent(2), games=5, seed=0, save_games=3)
    _check(result.records, game, 3)
    assert result.games == 5
    result = play_match(game, BatchRandom(1), RandomAgent(2), games=4, seed=0, save_games=2)
    _check(result.records, game, 2)
    assert play_match(game, RandomAgent(1), RandomAgent(2), games=2).records == []


def test_the_command_writes_move_lists_the_replay_reads(tmp_path, capsys):
    main(
        [
            "--game",
            "dorix",
            "--players",
            "3",
            "--agents",
            "random",
            "greedy",
            "--games",
            "3",
            "--save-games",
            "2",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    files = sorted((tmp_path / "games").glob("*.txt"))
    assert [f.name for f in files] == ["random_vs_greedy_1.txt", "random_vs_greedy_2.txt"]
    game = make_game("dorix", num_players=3)
    for f in files:
        text = f.read_text()
        assert text.startswith('# dorix {"max_turns": 200, "num_players": 3}\n')
        assert GameRecord.from_text(game, text).last.is_terminal()
    assert "saved 2 games" in capsys.readouterr().out
