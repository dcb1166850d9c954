"""Every setting read from a file or a command line is range-checked, with a message naming the setting
and its range: AlphaZero's settings and the ``alphazero.json`` of a saved network (refused before any
memory is spent on it), the SB3 trainer's config sections and ``--seed``, RLlib's settings; and every
shipped config and model passes."""

from __future__ import annotations

import json
import shutil
import time
from types import SimpleNamespace

import pytest
from helpers.games import GAMES

from boardgames.training.alphazero.network import load_network
from boardgames.training.alphazero.settings import COUNTS, NUMBERS, check_saved_network, make_settings
from boardgames.training.alphazero.train import load_settings
from boardgames.training.sb3.train import check_config
from boardgames.training.sb3.train import main as train_main
from boardgames.training.settings import CONFIG_DIR, SettingError, load_config

SHIPPED_OPTIONS = [*GAMES, ("nosuchconfig", {})]


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_alphazero_count_is_refused_outside_its_range(name):
    low, high = COUNTS[name]
    for bad in (low - 1, high + 1, 2.5, True):
        with pytest.raises(SettingError, match=rf"alphazero\.{name} must be a whole number .*range {low}\.\.{high}"):
            make_settings({name: bad})
    make_settings({name: low if name != "eval_games" else 1})


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_every_alphazero_rate_is_refused_outside_its_range(name):
    low, high, _ = NUMBERS[name]
    for bad in (float("nan"), float("inf"), high * 2, low - 1, "0.1"):
        with pytest.raises(SettingError, match=rf"alphazero\.{name} must be a number in [\[(]{low:g}, {high:g}\]"):
            make_settings({name: bad})


def test_the_reported_sizes_are_refused_at_once():
    for values, message in [
        ({"blocks": 100000}, "alphazero.blocks must be a whole number <= 64"),
        ({"simulations": 10**9}, "alphazero.simulations must be a whole number <= 100000"),
        ({"simulations": 100_000, "parallel": 4096}, "alphazero.parallel * (alphazero.simulations"),
        ({"eval_opponents": "random"}, "alphazero.eval_opponents is a list of agent specs"),
    ]:
        with pytest.raises(SettingError) as e:
            make_settings(values)
        assert message in str(e.value)


def test_a_buffer_too_big_for_the_game_is_refused_naming_its_range(tmp_path):
    from boardgames.training.alphazero.train import AlphaZeroRun

    settings = make_settings({"buffer": 10_000_000, "simulations": 400})
    with pytest.raises(SettingError, match=r"alphazero.buffer=10000000 would take \d+ GiB for adix .* here is 1\.\."):
        AlphaZeroRun("adix", {}, settings, tmp_path)
    with pytest.raises(SettingError, match=r"--seed must be a whole number >= 0, got -1"):
        AlphaZeroRun("olix", {}, make_settings({}), tmp_path, seed=-1)


@pytest.mark.parametrize("game, options", SHIPPED_OPTIONS, ids=str)
def test_every_shipped_config_is_in_range(game, options):
    load_settings(game, options)  # the [alphazero] section
    cfg = load_config(game, options)
    check_config(cfg)


def test_the_config_files_are_the_ones_checked():
    assert {p.stem for p in CONFIG_DIR.glob("*.toml")} == {"adix", "barc", "default", "dorix", "olix"}


def test_shipped_alphazero_models_pass_and_a_hostile_file_is_refused_before_it_is_built(tmp_path):
    from boardgames.training.agent_kinds import shipped_models

    for name, path in shipped_models().items():
        if name.endswith("_az"):
            check_saved_network(path / "alphazero.json")
    source = shipped_models()["dorix_2p_az"]
    for change, message in [
        ({"blocks": 100000}, "network.blocks must be a whole number <= 64, got 100000"),
        ({"channels": 0}, "network.channels must be a whole number >= 1, got 0"),
        ({"channels": 1024, "blocks": 64}, "at most 100,000,000"),
        ({"obs_shape": [6, 6]}, "network.obs_shape must be [height, width, planes]"),
    ]:
        folder = tmp_path / "_".join(change)
        shutil.copytree(source, folder)
        meta = json.loads((folder / "alphazero.json").read_text())
        meta["network"].update(change)
        (folder / "alphazero.json").write_text(json.dumps(meta))
        started = time.perf_counter()
        with pytest.raises(SettingError) as e:
            load_network(folder)
        assert message in str(e.value) and "alphazero.json" in str(e.value)
        assert time.perf_counter() - started < 5  # refused from the file's numbers, nothing built
    meta = json.loads((source / "alphazero.json").read_text())
    folder = tmp_path / "sims"
    shutil.copytree(source, folder)
    (folder / "alphazero.json").write_text(json.dumps({**meta, "simulations": 10**9}))
    with pytest.raises(SettingError, match=r"alphazero.json: simulations must be a whole number <= 100000"):
        load_network(folder)


@pytest.mark.parametrize(
    "setting, message",
    [
        ("train.n_envs=5000", "train.n_envs must be a whole number <= 1024, got 5000 (range 1..1024)"),
        ("train.total_steps=10**13", "train.total_steps must be a whole number"),
        ("algo.n_steps=0", "algo.n_steps must be a whole number >= 1, got 0 (range 1..1048576)"),
        ("algo.batch_size=1099511627776", "algo.batch_size must be a whole number <= 1048576"),
        ("algo.n_epochs=100000", "algo.n_epochs must be a whole number <= 1000"),
        ("algo.learning_rate=5", "algo.learning_rate must be a number in (0, 1], got 5"),
        ("algo.gamma=1.5", "algo.gamma must be a number in [0, 1], got 1.5"),
        ("algo.ent_coef=nan", "algo.ent_coef must be a number in [0, 10], got 'nan'"),
        ("algo.net_arch=[64, 0]", "algo.net_arch[1] must be a whole number >= 1, got 0 (range 1..8192)"),
        ("algo.net_arch=[100000]", "algo.net_arch[0] must be a whole number <= 8192"),
        ("algo.n_steps=200000", "algo.n_steps * train.n_envs must be at most 1,048,576"),
        ("opponents.random=-1", "opponents.random must be a number in [0, 1e+06], got -1"),
        ("pretrain.epochs=0", "pretrain.epochs must be a whole number >= 1, got 0 (range 1..1000)"),
    ],
)
def test_train_refuses_a_setting_out_of_range_naming_it(setting, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        train_main(
            [
                "--game",
                "dorix",
                "--players",
                "2",
                "--run-dir",
                str(tmp_path / "run"),
                "--no-progress",
                "--steps",
                "64",
                "--set",
                "train.eval_every=0",
                "--set",
                setting,
            ]
        )
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # refused before anything was written


def test_train_refuses_a_seed_out_of_range(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train_main(["--game", "dorix", "--seed", "-1", "--run-dir", str(tmp_path / "run"), "--no-progress"])
    assert "--seed must be a whole number >= 0, got -1 (range 0..4294967295)" in capsys.readouterr().err


def test_every_opponent_weight_at_zero_is_refused():
    cfg = load_config(
        "dorix", {"num_players": 2}, sets=["opponents.random=0", "opponents.greedy=0", "opponents.snapshot=0"]
    )
    with pytest.raises(SettingError, match="at least one weight must be above 0"):
        check_config(cfg)


RLLIB_DEFAULTS = dict(
    env_runners=2,
    envs_per_runner=8,
    train_batch=4000,
    minibatch=500,
    epochs=6,
    lr=3e-4,
    entropy=0.01,
    gamma=0.99,
    gae_lambda=0.95,
    hidden=[256, 256],
    snapshots=3,
    snapshot_every=5,
    self_play=0.5,
    random_share=0.2,
    seed=0,
)


def test_rllib_settings_are_refused_outside_their_range():
    from boardgames.training.rllib.train import SETTING_RANGES, check_ranges

    assert set(SETTING_RANGES) | {"hidden"} == set(RLLIB_DEFAULTS)
    check_ranges(SimpleNamespace(**RLLIB_DEFAULTS))
    for name, value, message in [
        ("train_batch", 10**9, "train_batch must be a whole number <= 10000000"),
        ("env_runners", -1, "env_runners must be a whole number >= 0, got -1 (range 0..1024)"),
        ("lr", 0.0, "lr must be a number in (0, 1], got 0.0"),
        ("gamma", float("nan"), "gamma must be a number in [0, 1], got nan"),
        ("hidden", [64] * 17, "hidden must be a list of 1..16 layer widths"),
        ("hidden", [64, 10**6], "hidden[1] must be a whole number <= 8192"),
        ("seed", 2**40, "seed must be a whole number <= 4294967295"),
    ]:
        with pytest.raises(SettingError) as e:
            check_ranges(SimpleNamespace(**{**RLLIB_DEFAULTS, name: value}))
        assert message in str(e.value), name


def test_rllib_settings_dataclass_matches_the_ranges():
    pytest.importorskip("ray.rllib")
    from dataclasses import asdict

    from boardgames.training.rllib.config import RLlibSettings

    assert asdict(RLlibSettings()) == RLLIB_DEFAULTS
