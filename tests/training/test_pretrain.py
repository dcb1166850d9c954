"""Behaviour cloning before self-play (boardgames.training.sb3.pretrain): the recorded data is the learner's view, the
cloned policy agrees with the greedy teacher, and ``boardgames train --pretrain`` runs it."""

import json

import numpy as np
import torch
from helpers.runs import as_flags, ppo_command

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import GreedyAgent
from boardgames.training.sb3.pretrain import agreement, collect, pretrain_policy
from boardgames.training.sb3.train import main

SMALL = [
    "train.n_envs=2",
    "algo.n_steps=64",
    "algo.batch_size=64",
    "algo.n_epochs=1",
    "train.checkpoint_every=512",
    "train.snapshot_every=512",
    "algo.net_arch=[64, 64]",
]


def test_demonstrations_are_the_deciding_seats_view_and_the_greedy_choices():
    game = make_game("dorix", num_players=2)
    data = collect(game, "greedy", ["random", "greedy"], games=4, seed=0)
    assert len(data) > 10 and data.obs.shape[1:] == tuple(game.info.observation_shape)
    masks = data.mask(np.arange(len(data)))
    for i in range(len(data)):
        choice = data.targets[data.ptr[i] : data.ptr[i + 1]]
        assert len(choice) >= 1 and masks[i, choice].all()  # targets are legal actions
    targets = data.target_matrix(np.arange(len(data)))
    assert np.allclose(targets.sum(1), 1.0)
    assert np.all(np.abs(data.values) <= 1.0)
    # the first position of a game where the teacher moves first is the initial observation of seat 0
    state = game.new_initial_state()
    assert np.array_equal(data.obs[0], state.observation(0).astype(np.float16))
    assert sorted(data.targets[data.ptr[0] : data.ptr[1]]) == sorted(GreedyAgent(game).choices(state, 0))


def test_pretrained_policy_agrees_with_greedy_on_its_training_positions(tmp_path):
    from boardgames.training.sb3.algorithms import get_algorithm
    from boardgames.training.sb3.train import make_vec_env
    from boardgames.training.settings import load_config

    torch.set_num_threads(1)
    # the corners start, whose greedy play this test's thresholds were set on (few distinct positions)
    options = {"start": "corners"}
    game = make_game("barc", **options)
    cfg = load_config("barc", options, sets=SMALL)
    env = make_vec_env("barc", options, cfg, 0, 1)
    model = get_algorithm("maskable_ppo").build(env, dict(cfg["algo"]), 0, None)
    data = collect(game, "greedy", ["random", "greedy"], games=20, seed=0)
    before = agreement(model.policy, data)
    stats = pretrain_policy(model.policy, data, epochs=30, learning_rate=3e-3, batch_size=64, seed=0)
    assert len(data) >= 40
    assert stats["history"][-1]["cross_entropy"] < stats["history"][0]["cross_entropy"]
    assert stats["agreement"] >= 0.8 and stats["agreement"] > before + 0.2, (before, stats["agreement"])


def test_train_with_pretrain_flag(tmp_path):
    run = tmp_path / "run"
    main(ppo_command(run, 256, "--seed", "1", "--pretrain", "greedy", "--pretrain-games", "3", *as_flags(SMALL)))
    info = json.loads((run / "run.json").read_text())
    assert info["pretrain"]["teacher"] == "greedy" and info["pretrain"]["games"] == 3
    assert info["pretrain"]["positions"] > 0 and 0 <= info["pretrain"]["agreement"] <= 1
    assert (run / "pretrained.zip").exists() and (run / "final.zip").exists()
    assert "--pretrain greedy" in info["command"]


def test_conv_policy_square_head_trains_saves_and_loads(tmp_path):
    from boardgames.training.agent_kinds import ModelAgent
    from boardgames.training.evaluation.evaluate import play_match

    run = tmp_path / "conv"
    main(
        [
            "--game",
            "adix",
            "--steps",
            "128",
            "--seed",
            "0",
            "--run-dir",
            str(run),
            "--no-progress",
            "--pretrain",
            "greedy",
            "--pretrain-games",
            "1",
            "--set",
            "pretrain.epochs=1",
            "--set",
            "algo.network='conv'",
            "--set",
            "algo.conv_channels=8",
            "--set",
            "algo.conv_dilations=[1, 2]",
            *sum((["--set", s] for s in SMALL if "net_arch" not in s), []),
        ]
    )
    agent = ModelAgent(run / "final.zip")
    logits = agent.policy.action_net(torch.zeros(1, agent.policy.features_extractor.features_dim))
    assert logits.shape == (1, 5670)
    game = make_game("adix")
    result = play_match(game, agent, GreedyAgent(game), games=1, seed=0)
    assert result.games == 1
