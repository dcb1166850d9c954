"""``--resume`` applies new hyperparameters, refuses a new network, and ``run.json`` records the values
really used (the checkpoint's where nothing new was asked)."""

import json

import pytest
from helpers.runs import PPO_SMALL, as_flags, ppo_command, ppo_train

from boardgames.training.sb3.train import main
from boardgames.training.settings import SettingError

SMALL = [*PPO_SMALL, "train.eval_every=0"]


def test_resume_applies_hyperparameters_refuses_a_network_change_and_records_what_was_used(tmp_path, capsys):
    run = tmp_path / "run"
    # the first run: learning rate 1e-4 and a [32, 32] network, neither the config's default
    model, _ = ppo_train(run, 256, [*SMALL, "algo.learning_rate=1e-4", "algo.net_arch=[32, 32]"])
    first = json.loads((run / "run.json").read_text())["config"]["algo"]
    assert first["learning_rate"] == 1e-4 and first["net_arch"] == [32, 32] and first["network"] == "mlp"
    checkpoint = tmp_path / "first.zip"
    model.save(str(checkpoint))

    # resumed with nothing new: the checkpoint's learning rate and network, not the config's 3e-4 / [256, 256]
    model, _ = ppo_train(run, 512, SMALL, resume=str(checkpoint))
    algo = json.loads((run / "run.json").read_text())["config"]["algo"]
    assert algo["learning_rate"] == 1e-4 and algo["net_arch"] == [32, 32]
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(1e-4)

    # resumed with new hyperparameters: applied (the optimizer steps with the new rate) and recorded
    main(
        ppo_command(
            run,
            768,
            "--resume",
            str(run / "final.zip"),
            *as_flags(SMALL),
            "--set",
            "algo.learning_rate=1e-5",
            "--set",
            "algo.ent_coef=0.05",
        )
    )
    info = json.loads((run / "run.json").read_text())
    assert info["config"]["algo"]["learning_rate"] == 1e-5 and info["config"]["algo"]["ent_coef"] == 0.05
    assert info["steps"] >= 768

    # a new network cannot take the checkpoint's weights: refused, nothing trained
    with pytest.raises(SettingError, match=r"algo.net_arch=\[64, 64\] cannot apply to .*net_arch=\[32, 32\]"):
        ppo_train(run, 2048, [*SMALL, "algo.net_arch=[64, 64]"], resume=str(run / "final.zip"))
    with pytest.raises(SettingError, match="algo.network='conv' cannot apply"):
        ppo_train(run, 2048, [*SMALL, "algo.network='conv'"], resume=str(run / "final.zip"))
    # a total already reached: refused instead of saving the checkpoint again as a "trained" model
    with pytest.raises(SystemExit):
        main(ppo_command(run, 300, "--resume", str(run / "final.zip"), *as_flags(SMALL)))
    assert f"has {info['steps']} steps already" in capsys.readouterr().err
    assert json.loads((run / "run.json").read_text())["steps"] == info["steps"]
