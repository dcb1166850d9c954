"""``boardgames evaluate --openings PLIES``: games that start after random plies, each opening played from every
side, so that agents which choose deterministically play different games."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.registry import make_game
from boardgames.training.evaluation.evaluate import main, play_match, random_openings


class FirstLegal:
    """Always the lowest legal action: a deterministic agent."""

    name = "first"

    def __call__(self, state, seat):
        return int(state.legal_actions(seat)[0])


class FirstLegalBatched(FirstLegal):
    """The same choices through ``act_batch`` (the side-by-side path that AlphaZero agents take)."""

    def act_batch(self, states, seats):
        return np.array([self(s, seat) for s, seat in zip(states, seats)])


@pytest.mark.parametrize("name, options", [("dorix", {"num_players": 2}), ("barc", {}), ("dorix", {"num_players": 3})])
def test_openings_are_reproducible_random_positions_replayed_by_their_moves(name, options):
    game = make_game(name, **options)
    openings = random_openings(game, 6, 4, seed=1)
    assert len(openings) == 6
    for state, moves in openings:
        assert len(moves) == 4 and not state.is_terminal()
        replay = game.new_initial_state()
        for move in moves:
            replay.apply_actions(replay.decision(move))
        assert replay.to_text() == state.to_text()
    again = random_openings(game, 6, 4, seed=1)
    assert [m for _, m in again] == [m for _, m in openings]
    other = random_openings(game, 6, 4, seed=2)
    assert [m for _, m in other] != [m for _, m in openings]
    assert len({tuple(map(str, m)) for _, m in openings}) > 1  # not one opening six times


def test_without_openings_deterministic_agents_repeat_one_game_per_side():
    game = make_game("dorix", num_players=2)
    r = play_match(game, FirstLegal(), FirstLegal(), 6, seed=0, save_games=6)
    texts = [[str(m) for m in rec.moves] for rec in r.records]
    assert texts[0] == texts[2] == texts[4] and texts[1] == texts[3] == texts[5]


@pytest.mark.parametrize("agent", [FirstLegal, FirstLegalBatched])
def test_each_opening_is_played_from_both_sides_and_the_games_differ(agent):
    game = make_game("dorix", num_players=2)
    r = play_match(game, agent(), agent(), 8, seed=0, save_games=8, openings=3)
    assert r.wins + r.draws + r.losses == 8
    moves = [[str(m) for m in rec.moves] for rec in r.records]
    openings = [m[:3] for m in moves]
    for k in range(0, 8, 2):  # games 2k and 2k+1: one opening, A on each side
        assert openings[k] == openings[k + 1]
    assert len({tuple(o) for o in openings}) == 4  # four different openings
    assert len({tuple(m) for m in moves}) > 2  # and more than one game per side
    # the records start from the initial position and hold the opening's plies: they replay
    for rec in r.records:
        state = game.new_initial_state()
        for move in rec.moves:
            state.apply_actions(state.decision(move))
        assert state.is_terminal()


def test_the_batched_path_plays_the_same_games_as_the_serial_one():
    game = make_game("barc")
    serial = play_match(game, FirstLegal(), FirstLegal(), 6, seed=4, save_games=6, openings=2)
    batched = play_match(game, FirstLegalBatched(), FirstLegalBatched(), 6, seed=4, save_games=6, openings=2)
    assert [[str(m) for m in r.moves] for r in serial.records] == [[str(m) for m in r.moves] for r in batched.records]


def test_openings_out_of_range_are_refused(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--game", "dorix", "--agents", "random", "greedy", "--games", "2", "--openings", "99"])
    assert e.value.code == 2 and "--openings must be 0..50 plies, got 99" in capsys.readouterr().err
    with pytest.raises(ValueError, match="opening plies must be 0..50"):
        random_openings(make_game("dorix", num_players=2), 1, -1, seed=0)


def test_the_leaderboard_takes_openings_too(capsys):
    from boardgames.training.evaluation.leaderboard import leaderboard
    from boardgames.training.evaluation.leaderboard import main as leaderboard_main

    with pytest.raises(SystemExit) as e:
        leaderboard_main(["--game", "dorix", "--agents", "random", "greedy", "mcts:2", "--openings", "60"])
    assert e.value.code == 2 and "--openings must be 0..50 plies, got 60" in capsys.readouterr().err
    game = make_game("dorix", num_players=2)
    results, rows = leaderboard(game, ["random", "greedy", "mcts:2"], 4, bootstrap=2, show_progress=False, openings=3)
    assert [r.games for r in results] == [4, 4, 4] and {r["agent"] for r in rows} == {"random", "greedy", "mcts2"}


def test_openings_that_the_side_decides_are_counted():
    from boardgames.training.evaluation.evaluate import PairResult

    by_hand = PairResult("a", "b", outcomes=[1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 0.0, 1.0, 1.0])
    assert by_hand.seat_decided() == (2, 4)  # (win, loss) and (loss, win); the ninth game has no pair
    # one deterministic agent against itself: both games of an opening are the same game, so whichever
    # side wins it wins both, and every decisive opening is decided by the side
    game = make_game("barc")
    r = play_match(game, FirstLegal(), FirstLegal(), 12, seed=2, openings=4)
    assert len(r.outcomes) == 12 and r.outcomes.count(1.0) == r.wins and r.outcomes.count(-1.0) == r.losses
    assert all(r.outcomes[2 * k] == -r.outcomes[2 * k + 1] for k in range(6))
    assert r.seat_decided() == (sum(1 for k in range(6) if r.outcomes[2 * k] != 0), 6)


def test_evaluate_says_how_many_openings_the_side_decided(capsys, tmp_path):
    main(["--game", "barc", "--agents", "greedy", "random", "--games", "4", "--openings", "2", "--no-progress"]
         + ["--out", str(tmp_path / "eval")])  # fmt: skip
    out = capsys.readouterr().out
    assert "Openings the side decided" in out and "greedy vs random:" in out and "of 2 openings" in out
