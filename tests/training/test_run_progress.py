"""The run scaffold's progress (training/progress.py): a plain line at a steady interval when the output is
not a terminal, never a count past the total, and the SB3 trainer telling it its steps."""

from __future__ import annotations

import io

import pytest

from boardgames.training.progress import Progress, clock_text, is_terminal


class FakeClock:
    """Seconds that pass only when the test says."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class NotATerminal(io.StringIO):
    def isatty(self) -> bool:
        return False


def _progress(stream, clock, **kwargs) -> Progress:
    return Progress(50_000, "steps", "train dorix_2p_s0", stream=stream, clock=clock, interval=30, **kwargs)


def test_lines_come_at_a_steady_interval_when_the_output_is_not_a_terminal():
    stream, clock = NotATerminal(), FakeClock()
    progress = _progress(stream, clock)
    assert not progress.draws_a_bar  # decided from the stream itself
    for second in range(1, 100):  # one update a second for 99 s: lines at 30, 60 and 90 s
        clock.now += 1
        progress.update(500 * second, "vs random 85% · greedy 40%" if second == 45 else None)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0] == "train dorix_2p_s0: 15,000/50,000 steps (30%) · 500 steps/s · elapsed 0:30 · eta 1:10"
    assert lines[2] == (
        "train dorix_2p_s0: 45,000/50,000 steps (90%) · 500 steps/s · elapsed 1:30 · eta 0:10 · vs random 85% · "
        "greedy 40%"
    )


def test_the_count_shown_never_runs_past_the_total_and_the_last_line_says_what_was_done():
    stream, clock = NotATerminal(), FakeClock()
    progress = _progress(stream, clock)
    clock.now += 64
    progress.update(51_184)  # SB3 ends on a whole rollout
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("train dorix_2p_s0: 50,000/50,000 steps (100%) · 800 steps/s · elapsed 1:04")
    assert "eta" not in lines[0]
    assert lines[-1].endswith("51,184 steps done in whole units of training")
    assert "51,184/" not in stream.getvalue()
    progress.close()  # a second close prints nothing more
    assert stream.getvalue().splitlines() == lines


def test_a_resumed_run_counts_its_speed_from_where_it_resumed():
    stream, clock = NotATerminal(), FakeClock()
    progress = _progress(stream, clock, initial=20_000)
    clock.now += 30
    progress.update(23_000)
    assert stream.getvalue().strip().endswith("23,000/50,000 steps (46%) · 100 steps/s · elapsed 0:30 · eta 4:30")


def test_no_progress_prints_messages_only():
    stream, clock = NotATerminal(), FakeClock()
    progress = _progress(stream, clock, enabled=False)
    clock.now += 300
    progress.update(40_000)
    progress.write("measuring the network")
    progress.close()
    assert stream.getvalue() == "measuring the network\n"


def test_a_terminal_gets_a_bar_clamped_to_its_total(capsys):
    stream, clock = NotATerminal(), FakeClock()
    progress = _progress(stream, clock, terminal=True)
    assert progress.draws_a_bar
    progress.update(51_184, "vs random 85%")
    assert progress.bar.n == 50_000
    progress.close()
    assert stream.getvalue() == ""  # the bar is drawn on standard error, no line is printed
    assert "50000/50000" in capsys.readouterr().err


def test_bad_settings_are_refused_and_helpers():
    with pytest.raises(ValueError, match="interval"):
        Progress(10, interval=0, stream=NotATerminal())
    with pytest.raises(ValueError, match="at least 0"):
        Progress(-1, stream=NotATerminal())
    assert [clock_text(s) for s in (0, 59.6, 61, 3600 + 62)] == ["0:00", "1:00", "1:01", "1:01:02"]
    assert not is_terminal(NotATerminal()) and not is_terminal(object())


def test_sb3_training_to_a_log_prints_progress_lines(tmp_path, monkeypatch):
    """``boardgames train`` with its output in a file: progress lines (here every 0.2 s), never past the total."""
    from boardgames.training import progress as progress_module
    from boardgames.training.sb3.train import main

    monkeypatch.setattr(progress_module, "DEFAULT_INTERVAL_S", 0.2)
    out = NotATerminal()
    monkeypatch.setattr("sys.stdout", out)
    sets = ["train.n_envs=2", "algo.n_steps=64", "algo.batch_size=64", "train.eval_every=0", "algo.net_arch=[16]"]
    argv = ["--game", "olix", "--steps", "200", "--run-dir", str(tmp_path / "run"), "--seed", "1"]
    main(argv + [item for s in sets for item in ("--set", s)])
    lines = [line for line in out.getvalue().splitlines() if line.startswith("train olix_s1:")]
    assert lines, out.getvalue()
    assert lines[-1].startswith("train olix_s1: 200/200 steps (100%)")
    assert lines[-1].endswith("256 steps done in whole units of training")  # 2 games x 64 steps a rollout, twice


def test_an_evaluation_to_a_log_prints_lines_not_a_bar(capsys, monkeypatch):
    """With the output not a terminal (pytest captures it), a round robin tells its progress as plain lines,
    the last one at the end with every game counted, and writes no carriage return (a bar's redraws)."""
    from boardgames.envs.registry import make_game
    from boardgames.training.evaluation.evaluate import round_robin

    round_robin(make_game("dorix", num_players=2), ["random", "greedy"], 4, seed=0, first_only=True)
    out, err = capsys.readouterr()
    assert "\r" not in out + err
    assert "evaluating: 4/4 games (100%)" in out
