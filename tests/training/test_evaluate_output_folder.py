"""``boardgames evaluate`` never overwrites an earlier evaluation silently: the default folder goes on to
a numbered one (and says so), an ``--out`` folder holding results is refused unless ``--overwrite``."""

from __future__ import annotations

import pytest

from boardgames.training.evaluation.evaluate import main, output_folder

QUICK = ["--game", "dorix", "--players", "2", "--agents", "random", "greedy", "--games", "2", "--no-progress"]


def test_the_default_folder_is_kept_and_the_next_evaluation_goes_to_a_numbered_one(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(QUICK)
    first = tmp_path / "runs" / "eval" / "dorix_2p"
    assert (first / "results.csv").is_file()
    capsys.readouterr()
    before = (first / "results.csv").stat().st_mtime_ns
    main([*QUICK, "--seed", "1"])
    out = capsys.readouterr().out
    second = tmp_path / "runs" / "eval" / "dorix_2p-2"
    assert "runs/eval/dorix_2p holds an earlier evaluation (kept): this one is saved in runs/eval/dorix_2p-2" in out
    assert (second / "results.csv").is_file() and (first / "results.csv").stat().st_mtime_ns == before
    assert "saved runs/eval/dorix_2p-2/results.csv" in out
    main(QUICK)
    assert "this one is saved in runs/eval/dorix_2p-3" in capsys.readouterr().out


def test_an_out_folder_with_results_is_refused_unless_overwrite(tmp_path, capsys):
    out = tmp_path / "eval"
    main([*QUICK, "--out", str(out), "--save-games", "2"])
    assert len(list((out / "games").glob("*.txt"))) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main([*QUICK, "--out", str(out)])
    assert stop.value.code == 2
    assert "already holds the results of an evaluation" in capsys.readouterr().err
    main([*QUICK, "--out", str(out), "--overwrite"])
    assert f"replacing the earlier evaluation in {out}" in capsys.readouterr().out
    assert (out / "results.csv").is_file() and not (out / "games").exists()  # the earlier games went with it


def test_an_empty_or_unrelated_folder_is_used_as_it_is(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    assert output_folder(str(tmp_path), tmp_path / "default") == (tmp_path, None)
    assert output_folder(None, tmp_path / "default") == (tmp_path / "default", None)
