"""Strength during training (training/evaluation/strength.py, hooked in by training/sb3/strength.py): win rates
against fixed opponents every N steps, logged to TensorBoard, the progress bar's text, strength.csv and the run's
results.png."""

import json

import numpy as np
from helpers.runs import PPO_SMALL, ppo_train
from training_duel_game import DuelGame

from boardgames.envs.agents import Agent
from boardgames.training.evaluation.strength import read_strength
from boardgames.training.sb3.strength import StrengthCallback
from boardgames.training.sb3.train import train


class Always(Agent):
    """Plays one fixed number in the duel (the higher number wins)."""

    def __init__(self, action: int):
        super().__init__()
        self.action = action
        self.name = f"always{action}"

    def act(self, state, seat):
        return self.action


class PickTwo:
    """A masked policy (what PolicyAgent calls) that always picks 2, the duel's best number."""

    training = True

    def predict(self, obs, deterministic=True, action_masks=None):
        return np.array(2), None

    def set_training_mode(self, mode):
        self.training = mode


class Recorder:
    def __init__(self):
        self.values = {}

    def record(self, key, value):
        self.values[key] = value


class FakeModel:
    def __init__(self):
        self.policy = PickTwo()
        self.logger = Recorder()
        self.num_timesteps = 0


def test_win_rates_are_measured_at_the_start_and_every_n_steps(tmp_path):
    model = FakeModel()
    csv = tmp_path / "strength.csv"
    callback = StrengthCallback(DuelGame(), every=100, games=6, opponents=[Always(0), Always(2)], csv_path=csv)
    callback.init_callback(model)
    callback.on_training_start({}, {})
    # 2 against 0 always wins, 2 against 2 always draws
    assert model.logger.values == {
        "strength/win_rate_vs_always0": 1.0,
        "strength/draw_rate_vs_always0": 0.0,
        "strength/win_rate_vs_always2": 0.0,
        "strength/draw_rate_vs_always2": 1.0,
    }
    assert callback.summary() == "vs always0 100% · always2 0%"
    assert model.policy.training, "the policy's training mode is restored"
    for steps in (50, 99, 100, 150, 230):
        model.num_timesteps = steps
        callback.on_step()
    assert sorted({row["steps"] for row in callback.history}) == [0, 100, 230]
    rows = read_strength(csv)
    assert rows == callback.history and len(rows) == 6
    assert rows[-1] == {
        "steps": 230,
        "opponent": "always2",
        "games": 6,
        "wins": 0,
        "draws": 6,
        "losses": 0,
        "win_rate": 0.0,
        "ci_low": 0.0,
        "ci_high": rows[-1]["ci_high"],
    }
    assert 0.3 < rows[-1]["ci_high"] < 0.5  # Wilson upper bound of 0 wins in 6 games: 0.390


def test_a_training_run_logs_win_rates_and_draws_the_curve(tmp_path):
    run = tmp_path / "run"
    sets = [
        *PPO_SMALL,
        "algo.net_arch=[16]",
        "train.eval_every=256",
        "train.eval_games=4",
    ]
    model, _ = train(
        "dorix", {"num_players": 2}, total_steps=512, seed=1, run_dir=str(run), sets=sets, progress_bar=True
    )
    rows = read_strength(run / "strength.csv")
    assert [(r["steps"], r["opponent"]) for r in rows] == [
        (0, "random"),
        (0, "greedy"),
        (256, "random"),
        (256, "greedy"),
        (512, "random"),
        (512, "greedy"),
    ]
    assert all(r["games"] == 4 and r["wins"] + r["draws"] + r["losses"] == 4 for r in rows)
    events = b"".join(p.read_bytes() for p in (run / "tb").rglob("events.out.tfevents*"))
    assert b"strength/win_rate_vs_random" in events and b"strength/win_rate_vs_greedy" in events
    assert (run / "results.png").stat().st_size > 0
    info = json.loads((run / "run.json").read_text())
    assert info["config"]["train"]["eval_every"] == 256


def test_eval_every_zero_turns_the_measurements_off(tmp_path):
    run = tmp_path / "run"
    sets = [
        *PPO_SMALL,
        "algo.net_arch=[16]",
        "train.eval_every=0",
    ]
    ppo_train(run, 256, sets, seed=1)
    assert not (run / "strength.csv").exists() and not (run / "results.png").exists()
