"""What a short AlphaZero run tells its user: the wall time split between self-play, learning and
measuring, the measuring games counted as they are played, and which iteration's network the Elo
shown belongs to."""

from __future__ import annotations

import json

from helpers.runs import as_flags, as_table, tiny_sets

from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.train import TIME_PHASES, AlphaZeroRun, load_settings

TINY = tiny_sets(eval_every=None)


def _run(tmp_path, iterations: int, eval_every: int, *extra) -> None:
    sets = as_flags([*TINY, f"alphazero.eval_every={eval_every}"])
    args = ["--game", "dorix", "--players", "2", "--run-dir", str(tmp_path / "run"), "--iterations", str(iterations)]
    main([*args, "--no-progress", *sets, *extra])


def test_summary_splits_the_time_and_names_the_untrained_network_it_measured(tmp_path, capsys):
    _run(tmp_path, 2, 5)  # measured before the first iteration only
    out = capsys.readouterr().out
    assert "measuring the network of iteration 0 (untrained): 2 games against each of random" in out
    summary = out[out.index("2 iterations in ") :]
    for label in ("self-play", "learning", "measuring strength (evaluation)", "set-up, checkpoints and logs"):
        assert f"{label} " in summary.splitlines()[0], label
    assert "Elo of the network of iteration 0 (untrained): " in summary
    assert "the latest network (iteration 2) was not measured: alphazero.eval_every=5" in summary
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    split = info["time_split_seconds"]
    assert set(split) == set(TIME_PHASES) and split["measuring"] > 0 and split["selfplay"] > 0
    assert abs(sum(split.values()) - info["wall_seconds"]) <= 0.5  # the run's time is its phases' time
    assert info["elo_iteration"] == 0
    latest = json.loads((tmp_path / "run" / "latest" / "alphazero.json").read_text())
    assert latest["elo_iteration"] == 0 and latest["iterations"] == 2


def test_summary_names_the_latest_network_when_it_was_measured_and_resume_keeps_the_split(tmp_path, capsys):
    _run(tmp_path, 2, 2)
    out = capsys.readouterr().out
    assert "measuring the network of iteration 2:" in out
    assert "Elo of the network of iteration 2: " in out and "was not measured" not in out
    before = json.loads((tmp_path / "run" / "run.json").read_text())["time_split_seconds"]
    _run(tmp_path, 3, 2, "--resume")
    out = capsys.readouterr().out
    assert "iterations 3..3 in " in out
    assert "Elo of the network of iteration 2: " in out and "the latest network (iteration 3) was not measured" in out
    after = json.loads((tmp_path / "run" / "run.json").read_text())
    assert after["time_split_seconds"]["selfplay"] >= before["selfplay"]  # kept, not restarted (times are rounded)
    assert after["elo_iteration"] == 2


def test_the_measuring_games_are_counted_on_a_bar_while_they_are_played(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("boardgames.training.progress.is_terminal", lambda stream: True)  # bars: terminals only
    sets = as_table(TINY) | {"iterations": 1, "eval_every": 1}
    run = AlphaZeroRun("dorix", {"num_players": 2}, load_settings("dorix", {"num_players": 2}, sets), tmp_path / "r")
    run.run(progress=True, argv=[])
    err = capsys.readouterr().err
    assert "measuring iteration 0:" in err and "/2 [" in err and "measuring iteration 1:" in err
    assert "(it. 1) · loss" in err  # the bar names the iteration its Elo is of


def test_output_that_is_not_a_terminal_gets_progress_lines_and_the_measurements(tmp_path, capsys):
    """Through a pipe or into a log (as under pytest): no bar, but lines on standard output, the last one at the
    end of the run with its Elo."""
    sets = as_table(TINY) | {"iterations": 2, "eval_every": 1}
    run = AlphaZeroRun("dorix", {"num_players": 2}, load_settings("dorix", {"num_players": 2}, sets), tmp_path / "r")
    run.run(progress=True, argv=[])
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert "measuring the network of iteration 1: " in captured.out and "/2 [" not in captured.err
    assert lines[-1].startswith("alphazero dorix: 2/2 it (100%) · ") and "(it. 2) · loss" in lines[-1]
