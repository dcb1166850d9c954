"""The RLlib recipe of examples/ecosystem/ (rllib_ppo.py), run in-process with tiny settings: PPO with
RLlib's action-masking RLModule on a turn-based game and on Barc, every move legal (the env config says
``illegal_action="raise"``), every evaluation game counted and the ``summary:`` line printed. Skipped
where ray is missing (make test-rllib runs it in .venv-rllib)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

import ray  # noqa: E402
import torch  # noqa: E402

RECIPE = Path(__file__).resolve().parents[2] / "examples" / "ecosystem" / "rllib_ppo.py"


@pytest.fixture(scope="module")
def recipe():
    spec = importlib.util.spec_from_file_location("recipe_rllib_ppo", RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    threads = torch.get_num_threads()
    yield module
    ray.shutdown()
    torch.set_num_threads(threads)  # the recipe sets one thread


@pytest.mark.parametrize("game", ["dorix", "barc"])
def test_rllib_recipe_trains_a_masked_shared_module_and_plays_random(recipe, capsys, game):
    figures = recipe.main(["--game", game, "--iterations", "2", "--batch", "200", "--eval-games", "4"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("summary: ")]
    assert lines and json.loads(lines[-1].removeprefix("summary: ")) == figures
    assert figures["iterations"] == 2 and figures["steps"] >= 400 and figures["steps_per_second"] > 0
    assert figures["illegal_moves"] == 0
    assert figures["wins"] + figures["draws"] + figures["losses"] == 4
