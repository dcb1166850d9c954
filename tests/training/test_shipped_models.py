"""Every shipped model (models/<name>/) loads, has its card, and beats random in a fixed-seed match
by the margin written in its meta.json (set by python -m boardgames.training.sb3.card from the measured figure)."""

import json
from pathlib import Path

import pytest

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import make_agent
from boardgames.training.evaluation.evaluate import play_match

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = sorted(p.parent for p in MODELS.glob("*/meta.json"))


def test_models_are_shipped():
    assert SHIPPED, "no model under models/"


@pytest.mark.parametrize("model_dir", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_model_loads_and_beats_random(model_dir):
    meta = json.loads((model_dir / "meta.json").read_text())
    assert (model_dir / "card.md").exists()
    zips = list(model_dir.glob("*.zip"))
    assert len(zips) == 1 and zips[0].stat().st_size < 5 * 2**20
    game = make_game(meta["game"], **meta["game_options"])
    test = meta["test"]
    agent = make_agent(("sample:" if meta.get("sampled") else "") + str(model_dir), game)
    result = play_match(game, agent, make_agent("random", game), test["games"], seed=test["seed"])
    assert result.win_rate >= test["min_win_rate_vs_random"], (
        f"{model_dir.name}: {result.win_rate:.2f} wins against random, card margin {test['min_win_rate_vs_random']}"
    )
