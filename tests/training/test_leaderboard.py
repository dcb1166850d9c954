"""boardgames.training.evaluation.leaderboard: the round robin, the bootstrap intervals, the docs section it
rewrites."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.registry import make_game
from boardgames.training.evaluation.evaluate import PairResult, fit_elo
from boardgames.training.evaluation.leaderboard import (
    BASELINES,
    bootstrap_elo,
    default_agents,
    format_ranking,
    leaderboard,
    main,
    write_docs_section,
)


def test_default_agents_are_the_baselines_and_the_boards_shipped_models():
    specs = default_agents("dorix", 2)
    assert specs[: len(BASELINES)] == list(BASELINES)
    assert "models/dorix_2p" in specs and "models/dorix_3p" not in specs
    assert "models/olix" in default_agents("olix", None)
    barc = default_agents("barc", None)  # both seats act at once: the mixed-strategy search too
    assert barc[: len(BASELINES) + 1] == [*BASELINES, "smmcts:6400:heuristic:t0.33"] and "models/barc_az" in barc
    assert not any(spec.startswith("smmcts") for spec in specs)


def test_bootstrap_intervals_hold_the_fit_and_narrow_with_more_games():
    names = ["random", "a", "b"]

    def results(scale):  # a beats random 70%, b beats a 60%, b beats random 80%
        return [
            PairResult("a", "random", 7 * scale, 0, 3 * scale),
            PairResult("b", "a", 6 * scale, 0, 4 * scale),
            PairResult("b", "random", 8 * scale, 0, 2 * scale),
        ]

    small, large = results(2), results(20)
    elo = fit_elo(names, large)
    wide, narrow = bootstrap_elo(names, small, 60, seed=1), bootstrap_elo(names, large, 60, seed=1)
    assert narrow["random"] == (0.0, 0.0)  # the anchor
    for n in ("a", "b"):
        assert narrow[n][0] <= elo[n] <= narrow[n][1]
        assert narrow[n][1] - narrow[n][0] < wide[n][1] - wide[n][0]
    # by hand: b's 80% against random is about +240 Elo (400 log10(4)); the fit sits near it
    assert 150 < elo["b"] < 330 and elo["a"] < elo["b"]


def test_docs_section_is_replaced_between_its_markers_only(tmp_path):
    docs = tmp_path / "leaderboard.md"
    docs.write_text("# Leaderboards\n\nintro\n\n<!-- leaderboard:olix -->\nold\n<!-- /leaderboard:olix -->\n\ntail\n")
    write_docs_section("olix", "new table", docs)
    write_docs_section("olix", "newer table", docs)
    write_docs_section("barc", "barc table", docs)
    text = docs.read_text()
    assert "old" not in text and "newer table" in text and "intro" in text and "tail" in text
    assert text.index("newer table") < text.index("tail") < text.index("## barc") < text.index("barc table")


def test_a_small_leaderboard_ranks_greedy_above_random(tmp_path):
    game = make_game("dorix", num_players=2)
    results, rows = leaderboard(
        game, ["random", "greedy", "models/dorix_2p"], games=4, seed=0, bootstrap=20, show_progress=False
    )
    assert len(results) == 3 and all(p.games == 4 for p in results)
    by_name = {r["agent"]: r for r in rows}
    assert by_name["random"]["elo"] == 0 and by_name["random"]["games"] == 8
    assert by_name["greedy"]["elo"] > 0
    for r in rows:
        assert r["low"] <= r["elo"] <= r["high"]
    table = format_ranking(rows)
    assert table.splitlines()[0].startswith("| rank | agent | Elo")


def test_command_line_writes_its_files_and_refuses_two_agents(tmp_path, capsys):
    main(
        [
            "--game",
            "dorix",
            "--agents",
            "random",
            "greedy",
            "models/dorix_2p",
            "--games",
            "2",
            "--bootstrap",
            "5",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    for name in ("leaderboard.csv", "leaderboard.png", "results.csv", "elo.csv", "results.png"):
        assert (tmp_path / name).exists()
    assert "| rank | agent | Elo" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--game", "dorix", "--agents", "random", "greedy", "--out", str(tmp_path)])
    assert np.isfinite(float((tmp_path / "leaderboard.csv").read_text().splitlines()[1].split(",")[2]))


def test_pairs_played_in_processes_are_the_games_of_one_process():
    from boardgames.envs.registry import make_game
    from boardgames.training.evaluation.evaluate import round_robin

    game = make_game("barc", max_turns=30)
    specs = ["random", "greedy", "mcts:20"]
    serial, _ = round_robin(game, specs, 6, seed=3, show_progress=False)
    parallel, _ = round_robin(game, specs, 6, seed=3, show_progress=False, jobs=2)
    as_rows = [[(r.a, r.b, r.wins, r.draws, r.losses) for r in results] for results in (serial, parallel)]
    assert as_rows[0] == as_rows[1] and len(as_rows[0]) == 3


def test_barc_leaderboard_puts_the_one_turn_exploitability_beside_the_elo(tmp_path, capsys):
    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.evaluation.exploit import evaluator_values, measure_fixed

    argv = ["--game", "barc", "--agents", "random", "greedy", "mcts:20", "--games", "2", "--bootstrap", "5"]
    main([*argv, "--openings", "2", "--out", str(tmp_path), "--no-progress", "--exploitability", "--seed", "3"])
    out = capsys.readouterr().out
    assert "| rank | agent | Elo | 95% interval | games | one-turn exploitability |" in out
    rows = {line.split(",")[1]: line.split(",") for line in (tmp_path / "leaderboard.csv").read_text().splitlines()}
    assert rows["agent"][-1] == "exploitability"
    game = make_game("barc")
    fixed = measure_fixed(game, make_agent("random", game, seed=3), evaluator_values(game), 4)
    assert float(rows["random"][-1]) == pytest.approx(np.mean([v for row in fixed for v in row[1:]]), abs=1e-4)
    # a uniformly random order (four of them seen a position) is far easier to punish than greedy's choice
    assert float(rows["random"][-1]) > float(rows["greedy"][-1]) > 0.0
    with pytest.raises(SystemExit) as stop:
        main(["--game", "dorix", "--exploitability", "--out", str(tmp_path / "d")])
    assert stop.value.code == 2
