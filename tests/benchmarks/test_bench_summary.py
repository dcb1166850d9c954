"""The summary ``boardgames bench`` prints, read from a stored run's figures (nothing is timed here): one
table per game with our interfaces beside the comparable peers and the ratios, short lines, a goal line
only for a figure that has a goal, and ``--help`` that answers without measuring anything."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest

from boardgames.benchmarks.summary import WIDTH, comparisons, long_lines, summary_lines


def _row(game: str, scale: float) -> dict:
    figures = {
        "pettingzoo": 200_000,
        "engine": 330_000,
        "clone_apply": 266_000,
        "batched 64": 1_300_000,
        "batched 256": 1_400_000,
        "batched 1024": 1_300_000,
        "compiled playouts": 2_600_000,
        "batched 512 threaded": 2_400_000,
        "batched 1024 threaded": 2_300_000,
    }
    row = {"game": game, "name": game, "options": {}, **{k: v * scale for k, v in figures.items()}}
    row.update({"batched best": row["batched 256"], "batched best is": "batched 256"})
    row.update({"threads best": row["batched 512 threaded"], "threads best is": "batched 512 threaded"})
    return row


STORED_RUN = {
    "machine": "Linux",
    "cpus": 2,
    "load": [1.5, 1.3, 1.6],
    "full": False,
    "seconds": 0.5,
    "rounds": 3,
    "sizes": [64, 256, 1024],
    "thread_sizes": [512, 1024],
    "games": [_row("dorix", 1.0), _row("barc start=corners", 0.5)],
    "peers": {
        "pettingzoo connect_four_v3": 15_000.0,
        "openspiel connect_four raw": 1_000_000.0,
        "openspiel connect_four obs+mask": 260_000.0,
    },
    "reference_figures": {"pgx connect_four cpu batch 1024": 2_200_000},
    "ppo": {
        "game": "dorix",
        "n_envs": 128,
        "n_steps": 32,
        "batch_size": 2048,
        "n_epochs": 2,
        "net_arch": [64, 64],
        "batched": 16_000.0,
        "dummy": 10_000.0,
        "ratio": 1.6,
        "batched rollout": 53_000.0,
        "dummy rollout": 19_000.0,
        "rollout ratio": 2.79,
    },
    "goals": [],
    "out": "benchmarks/results/latest.json",
    "wall_seconds": 171.4,
}


def _run(**changes) -> dict:
    run = copy.deepcopy(STORED_RUN)
    run.update(changes)
    run["ratios"] = comparisons(run)
    return run


def test_one_table_per_game_with_ours_the_peers_and_the_ratios():
    lines = summary_lines(_run())
    headers = [i for i, line in enumerate(lines) if line.split("  ")[0] in ("dorix", "barc start=corners")]
    assert [lines[i].split()[0] for i in headers] == ["dorix", "barc"]
    dorix = lines[headers[0] : headers[1]]
    text = "\n".join(dorix)
    for ours in ("PettingZoo API", "engine", "clone+apply", "batched, 1 thread (256)", "batched, threads (512)"):
        assert ours in text
    assert "compiled playouts" in text
    pettingzoo = next(line for line in dorix if "PettingZoo API" in line)
    assert "PettingZoo connect_four_v3" in pettingzoo and "13.33x" in pettingzoo  # 200,000 / 15,000
    serial = dorix.index(next(line for line in dorix if "batched, 1 thread" in line))
    assert "1.40x" in dorix[serial] and "OpenSpiel connect_four raw" in dorix[serial]
    assert "5.38x" in dorix[serial + 1] and "obs+mask" in dorix[serial + 1]  # the second peer on its own line
    clone = next(line for line in dorix if "clone+apply" in line)
    assert "x" not in clone.split("clone+apply")[1]  # no peer of its kind: no ratio


def test_a_peer_that_is_not_installed_is_marked_as_a_reference_figure():
    lines = summary_lines(_run())
    pgx = [line for line in lines if "pgx connect_four cpu batch 1024*" in line]
    assert len(pgx) == 2 and "1.09x" in pgx[0]  # 2,400,000 / 2,200,000
    assert any(line.startswith("* ") and "not measured in this run" in line for line in lines)
    measured = _run(peers={**STORED_RUN["peers"], "pgx connect_four cpu batch 1024": 2_000_000.0})
    measured["reference_figures"] = {}
    assert not any("*" in line for line in summary_lines(measured))


def test_every_line_is_short():
    lines = long_lines(_run()) + summary_lines(_run())
    assert max(len(line) for line in lines) <= WIDTH


def test_no_goal_lines_where_no_goal_is_defined():
    text = "\n".join(summary_lines(_run()))
    for word in ("goal", "Goal", "target", "MISSED", "not met"):
        assert word not in text


def test_a_goal_line_only_for_the_figure_that_has_a_goal():
    goal = {"figure": "threads best", "peer": "openspiel connect_four raw", "at_least": 2.0}
    lines = summary_lines(_run(goals=[goal]))
    goal_lines = [line for line in lines if "goal" in line]
    assert len(goal_lines) == 2  # one per game, for that figure and that peer only
    dorix, barc = goal_lines
    assert dorix.strip().startswith("dorix: batched, threads / OpenSpiel connect_four raw: 2.40x")
    assert dorix.endswith("goal 2x or more: met")
    assert barc.endswith("goal 2x or more: not met")  # 1,200,000 / 1,000,000
    assert "Goals (docs/performance.md):" in lines
    ppo = summary_lines(_run(goals=[{"figure": "ppo", "peer": "", "at_least": 2.0}]))
    assert [line for line in ppo if "goal" in line] == [
        "  MaskablePPO learn(), BatchedVecEnv / DummyVecEnv: 1.60x, goal 2x or more: not met"
    ]


def test_the_summary_names_the_json_and_the_time_taken():
    lines = summary_lines(_run())
    assert any("Took 2 min 51 s" in line and "benchmarks/results/latest.json" in line for line in lines)
    assert any("MaskablePPO on dorix" in line for line in lines)


def test_a_busy_machine_is_said_plainly():
    assert not any("Other jobs" in line for line in summary_lines(_run(load_before=[0.4, 0.5, 0.5])))
    lines = summary_lines(_run(load_before=[5.2, 4.0, 3.0]))
    assert any(line.startswith("Other jobs shared the machine (load average 5.2") for line in lines)
    assert max(len(line) for line in lines) <= WIDTH


def test_long_form_has_every_figure():
    text = "\n".join(long_lines(_run()))
    assert "batched 1024 threaded" in text and "2,300,000" in text
    assert "pgx connect_four cpu batch 1024 (reference, not measured)" in text
    assert "batched, threads / pgx connect_four cpu batch 1024" in text


@pytest.mark.parametrize("command", [["-m", "boardgames.benchmarks.run", "--help"]])
def test_help_answers_without_measuring(command):
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--full" in done.stdout and "--verbose" in done.stdout and "--out" in done.stdout
