"""The AlphaZero card's pairs played in processes of their own (``--jobs``) are the games one process plays."""

from argparse import Namespace

import pytest

from boardgames.envs.registry import make_game
from boardgames.training.alphazero.card import card_matches, main


def _summary(results) -> list:
    return [(r.a, r.b, r.wins, r.draws, r.losses) for r in results]


def test_card_pairs_in_two_processes_are_the_games_of_one():
    game = make_game("dorix", num_players=2)
    args = Namespace(games=4, games_baselines=2, seed=5, openings=2, jobs=1)
    serial = card_matches(game, "mcts:8", ["mcts:4"], args)
    args.jobs = 2
    parallel = card_matches(game, "mcts:8", ["mcts:4"], args)
    # the card's order: random, greedy (2 games each), then the opponent (4 games)
    assert [(r.a, r.b, r.games) for r in serial] == [
        ("mcts8", "random", 2),
        ("mcts8", "greedy", 2),
        ("mcts8", "mcts4", 4),
    ]
    assert _summary(parallel) == _summary(serial)


def test_card_refuses_jobs_below_one(capsys):
    with pytest.raises(SystemExit):
        main(["models/dorix_2p_az", "--run", "no-such-run", "--jobs", "0"])
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_card_in_processes_refuses_a_bad_opponent_before_any_game():
    game = make_game("dorix", num_players=2)
    args = Namespace(games=4, games_baselines=2, seed=0, openings=0, jobs=2)
    with pytest.raises(ValueError, match="unknown agent 'no-such-agent'") as caught:
        card_matches(game, "mcts:8", ["mcts:4", "no-such-agent"], args)
    # raised here, not in a worker (a worker's error comes back with its remote traceback as the cause)
    assert caught.value.__cause__ is None
