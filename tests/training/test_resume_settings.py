"""``--resume`` applies new hyperparameters, refuses a new network, and ``run.json`` records the values
really used (the checkpoint's where nothing new was asked)."""

import json

import pytest

from boardgames.training.sb3.train import main, train
from boardgames.training.settings import SettingError

SMALL = ["train.n_envs=2", "algo.n_steps=128", "algo.batch_size=128", "algo.n_epochs=1", "train.eval_every=0"]


def test_resume_applies_hyperparameters_refuses_a_network_change_and_records_what_was_used(tmp_path, capsys):
    run = tmp_path / "run"
    # the first run: learning rate 1e-4 and a [32, 32] network, neither the config's default
    model, _ = train(
        "dorix",
        {"num_players": 2},
        total_steps=256,
        seed=0,
        run_dir=str(run),
        progress_bar=False,
        sets=[*SMALL, "algo.learning_rate=1e-4", "algo.net_arch=[32, 32]"],
    )
    first = json.loads((run / "run.json").read_text())["config"]["algo"]
    assert first["learning_rate"] == 1e-4 and first["net_arch"] == [32, 32] and first["network"] == "mlp"
    checkpoint = tmp_path / "first.zip"
    model.save(str(checkpoint))

    # resumed with nothing new: the checkpoint's learning rate and network, not the config's 3e-4 / [256, 256]
    model, _ = train(
        "dorix",
        {"num_players": 2},
        total_steps=512,
        seed=0,
        run_dir=str(run),
        progress_bar=False,
        resume=str(checkpoint),
        sets=SMALL,
    )
    algo = json.loads((run / "run.json").read_text())["config"]["algo"]
    assert algo["learning_rate"] == 1e-4 and algo["net_arch"] == [32, 32]
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(1e-4)

    # resumed with new hyperparameters: applied (the optimizer steps with the new rate) and recorded
    main(
        [
            "--game",
            "dorix",
            "--players",
            "2",
            "--steps",
            "768",
            "--run-dir",
            str(run),
            "--no-progress",
            "--resume",
            str(run / "final.zip"),
            *sum((["--set", s] for s in SMALL), []),
            "--set",
            "algo.learning_rate=1e-5",
            "--set",
            "algo.ent_coef=0.05",
        ]
    )
    info = json.loads((run / "run.json").read_text())
    assert info["config"]["algo"]["learning_rate"] == 1e-5 and info["config"]["algo"]["ent_coef"] == 0.05
    assert info["steps"] >= 768

    # a new network cannot take the checkpoint's weights: refused, nothing trained
    with pytest.raises(SettingError, match=r"algo.net_arch=\[64, 64\] cannot apply to .*net_arch=\[32, 32\]"):
        train(
            "dorix",
            {"num_players": 2},
            total_steps=2048,
            seed=0,
            run_dir=str(run),
            progress_bar=False,
            resume=str(run / "final.zip"),
            sets=[*SMALL, "algo.net_arch=[64, 64]"],
        )
    with pytest.raises(SettingError, match="algo.network='conv' cannot apply"):
        train(
            "dorix",
            {"num_players": 2},
            total_steps=2048,
            seed=0,
            run_dir=str(run),
            progress_bar=False,
            resume=str(run / "final.zip"),
            sets=[*SMALL, "algo.network='conv'"],
        )
    # a total already reached: refused instead of saving the checkpoint again as a "trained" model
    with pytest.raises(SystemExit):
        main(
            [
                "--game",
                "dorix",
                "--players",
                "2",
                "--steps",
                "300",
                "--run-dir",
                str(run),
                "--no-progress",
                "--resume",
                str(run / "final.zip"),
                *sum((["--set", s] for s in SMALL), []),
            ]
        )
    assert f"has {info['steps']} steps already" in capsys.readouterr().err
    assert json.loads((run / "run.json").read_text())["steps"] == info["steps"]
