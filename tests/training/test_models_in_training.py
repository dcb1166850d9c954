"""``models-in-training/<name>/``: the network of a training run that did not fit one session, kept in
the repository so that the next session (often on a fresh machine, without ``runs/``) can go on from it
with ``alphazero.start_from``. Each folder must say how it was made and how to go on, load as an agent,
play a legal move, and fit its game's config as a start (same network sizes), so that the documented
command works as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardgames.training.alphazero.agent import load_agent
from boardgames.training.alphazero.train import AlphaZeroRun, load_settings
from boardgames.training.storage.model_version import model_game

FOLDER = Path(__file__).resolve().parents[2] / "models-in-training"
NETWORKS = sorted(p.parent for p in FOLDER.glob("*/alphazero.json"))


def test_the_folder_explains_itself():
    assert (FOLDER / "README.md").is_file()
    text = (FOLDER / "README.md").read_text()
    for network in NETWORKS:
        assert f"models-in-training/{network.name}" in text, f"README.md says nothing of {network.name}"
    # the README says whether a network is in training (shipped or given-up ones leave, their history stays)
    assert ("No network is in training now" in text) == (not NETWORKS)


@pytest.mark.parametrize("folder", NETWORKS, ids=[p.name for p in NETWORKS])
def test_a_network_in_training_plays_and_can_be_started_from(folder, tmp_path):
    meta = json.loads((folder / "alphazero.json").read_text())
    game = model_game(meta["game"], meta.get("options", {}), meta)  # at the version it was trained on
    agent = load_agent(f"{folder}@4", game, seed=0)
    state = game.new_initial_state()
    action = agent.act(state, state.current_seat)
    assert state.legal_mask()[action], f"{folder.name} chose the illegal action {action}"
    # the game's own config accepts it as a start: the network sizes there are the folder's
    settings = load_settings(meta["game"], meta.get("options", {}), {"start_from": str(folder), "buffer": 1000})
    run = AlphaZeroRun(meta["game"], meta.get("options", {}), settings, tmp_path / "run")
    assert run.start_from_network(str(folder))["iterations"] == meta["iterations"]
