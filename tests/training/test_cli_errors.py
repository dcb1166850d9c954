"""Command lines refuse what cannot be used, with a message and exit status 2 (argparse's), before
anything is trained or written; a file that is not a model says so; help texts list what they promise."""

import os
import zipfile

import pytest

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import ModelFileError, make_agent, shipped_models
from boardgames.training.evaluation import evaluate
from boardgames.training.evaluation.evaluate import PairResult, fit_elo, format_table
from boardgames.training.sb3 import pretrain, train

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "models", "dorix_2p", "model.zip")


def _refused(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("steps", ["0", "-5"])
def test_train_refuses_a_step_count_below_one(steps, tmp_path, capsys):
    err = _refused(train.main, ["--steps", steps, "--run-dir", str(tmp_path / "run"), "--no-progress"], capsys)
    assert f"argument --steps: must be at least 1, got {steps}" in err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "setting, message",
    [
        ("train.n_envs=0", "train.n_envs must be a whole number >= 1, got 0"),
        ("train.n_envs=2.5", "train.n_envs must be a whole number >= 1, got 2.5"),
        ("train.checkpoint_every=-1", "train.checkpoint_every must be a whole number >= 1, got -1"),
        ("train.eval_every=-1", "train.eval_every must be a whole number >= 0, got -1"),
        ("train.total_steps=0", "train.total_steps must be a whole number >= 1, got 0"),
        ("algo.learnin_rate=0.1", "algo.learnin_rate is not a setting of MaskablePPO"),
        ("train.algorithm=dqn", "unknown algorithm 'dqn'"),
    ],
)
def test_train_refuses_a_bad_setting_by_name(setting, message, tmp_path, capsys):
    steps = [] if setting.startswith("train.total_steps") else ["--steps", "64"]  # --steps would override it
    argv = [*steps, "--run-dir", str(tmp_path / "run"), "--no-progress", "--set", setting]
    assert message in _refused(train.main, argv, capsys)
    assert not (tmp_path / "run" / "final.zip").exists()


def test_resume_names_the_missing_checkpoint_as_given(tmp_path, capsys):
    missing = str(tmp_path / "nonexistent.zip")
    err = _refused(train.main, ["--steps", "64", "--run-dir", str(tmp_path / "run"), "--resume", missing], capsys)
    assert f"--resume: no saved model at {missing} " in err and ".zip.zip" not in err


def test_evaluate_refuses_a_game_count_below_one_and_a_lone_agent(capsys):
    assert "argument --games: must be at least 1, got -3" in _refused(evaluate.main, ["--games", "-3"], capsys)
    err = _refused(evaluate.main, ["--agents", "random", "--games", "2"], capsys)
    assert "--agents needs two agents or more" in err
    err = _refused(evaluate.main, ["--agents", "random", "nothing_like_this", "--games", "2"], capsys)
    assert "unknown agent 'nothing_like_this'" in err


def test_evaluate_help_lists_the_agent_specs_and_the_shipped_models(capsys):
    with pytest.raises(SystemExit) as stop:
        evaluate.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "(see above)" not in out
    for spec in ("random", "greedy", "mcts, mcts:N", "PATH.zip", "models/NAME", "sample:MODEL"):
        assert f"\n  {spec}" in out, spec
    assert shipped_models() and all(name in out for name in shipped_models())


def test_pretrain_help_prints_and_a_bare_run_points_to_the_trainer(capsys):
    with pytest.raises(SystemExit) as stop:
        pretrain.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "Behaviour cloning before self-play" in out and "boardgames train --game adix --pretrain" in out
    assert "--pretrain TEACHER" in _refused(pretrain.main, [], capsys)


def test_elo_is_printed_only_with_three_agents_and_says_what_it_means():
    sweep = [PairResult("A", "B", wins=10)]
    two = format_table(sweep, fit_elo(["A", "B"], sweep))
    assert "Elo:" not in two and "no Elo with two agents" in two
    three = [
        PairResult("A", "random", wins=10),
        PairResult("A", "B", wins=6, losses=4),
        PairResult("B", "random", wins=8, losses=2),
    ]
    table = format_table(three, fit_elo(["A", "B", "random"], three))
    elo_line = next(line for line in table.splitlines() if line.startswith("Elo:"))
    assert elo_line.index("A ") < elo_line.index("B ") < elo_line.index("random +0")
    assert "400 means 10-to-1 odds" in table and "random = 0" in table and "a floor" in table


def _copy_with(tmp_path, name, replace):
    """dorix_2p's model.zip with the members of ``replace`` (name -> bytes, None to drop) changed."""
    out = tmp_path / name
    with zipfile.ZipFile(MODEL) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.namelist():
            data = replace.get(member, src.read(member))
            if data is not None:
                dst.writestr(member, data)
    return out


def test_a_file_that_is_not_a_model_says_so(tmp_path):
    game = make_game("dorix", num_players=2)
    garbage = _copy_with(tmp_path, "garbage.zip", {"policy.pth": bytes(range(256)) * 4})
    not_zip = tmp_path / "notes.zip"
    not_zip.write_text("not a zip")
    no_weights = _copy_with(tmp_path, "no_weights.zip", {"policy.pth": None})
    for path, reason in (
        (garbage, "its weights cannot be read"),
        (not_zip, "it is not a zip archive"),
        (no_weights, "the archive has no policy.pth"),
    ):
        with pytest.raises(ModelFileError) as error:
            make_agent(str(path), game)
        message = str(error.value)
        assert f"{path} is not a model of this project" in message and reason in message
        assert "weights_only" not in message


def test_shipped_models_load_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no models/ folder here
    game = make_game("dorix", num_players=2)
    for spec in ("models/dorix_2p", "dorix_2p", "models/dorix_2p/"):
        agent = make_agent(spec, game)
        assert agent.name == "dorix_2p" and os.path.samefile(agent.path, MODEL)
