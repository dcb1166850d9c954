"""Model cards open with machine-readable front matter (training/run/card.py): written by the same writer for
every family, read back by a strict parser, and the shipped cards' figures are those of their own games."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgames.training.evaluation.evaluate import PairResult
from boardgames.training.run.card import (
    CardFormatError,
    card_metadata,
    front_matter,
    parse_front_matter,
    read_elo,
    read_results,
    refresh_front_matter,
    stored_model,
    with_front_matter,
)

MODELS = Path(__file__).resolve().parents[2] / "models"
CARDS = sorted(p for p in MODELS.glob("*/*.md") if p.name in ("card.md", "README.md"))


def _results() -> list:
    return [
        PairResult("me", "random", 18, 1, 1),
        PairResult("me", "greedy", 10, 2, 8),
        PairResult("random", "greedy", 2, 0, 18),
    ]


def test_the_front_matter_is_written_and_read_back_strictly():
    meta = card_metadata(_results(), family="sb3", algorithm="maskable_ppo", game="dorix", options={"num_players": 2},
                         env_version=0)  # fmt: skip
    card = with_front_matter(meta, "# me: an agent\n")
    read, body = parse_front_matter(card)
    assert read == meta and body == "# me: an agent\n"
    assert with_front_matter(meta, card) == card  # replaced, not stacked
    assert meta["library_name"] == "boardgames" and {"dorix", "sb3", "maskable_ppo"} <= set(meta["tags"])
    assert meta["game"] == {"name": "dorix", "env_id": "boardgames/dorix-v0", "options": {"num_players": 2},
                            "env_version": 0}  # fmt: skip
    low, high = meta["elo"]["interval_95"]
    assert low < meta["elo"]["value"] < high and meta["elo"]["anchor"] == "random = 0"
    assert [m["opponent"] for m in meta["metrics"]] == ["random", "greedy"]  # the model's pairs only
    assert meta["metrics"][0]["wins"] == 18 and meta["metrics"][0]["win_rate"] == 0.9
    # the same games give the same front matter (the bootstrap is seeded)
    assert card_metadata(_results(), family="sb3", algorithm="maskable_ppo", game="dorix",
                         options={"num_players": 2}, env_version=0) == meta  # fmt: skip


def test_a_pair_where_the_model_is_agent_b_is_counted_for_the_model():
    results = [PairResult("me", "random", 5, 0, 5), PairResult("greedy", "me", 7, 1, 2)]
    meta = card_metadata(results, family="rllib", algorithm="ppo", game="olix", options={}, env_version=0)
    assert meta["metrics"][1] | {"win_rate_95": None} == meta["metrics"][1] | {
        "opponent": "greedy", "wins": 2, "draws": 1, "losses": 7, "games": 10, "win_rate": 0.2, "win_rate_95": None
    }  # fmt: skip


@pytest.mark.parametrize(
    "text, message",
    [
        ("---\nlibrary_name: boardgames\n---\n", "not a JSON value"),
        ("---\ntags: [1]\n", "never closed"),
        ("---\n tags: [1]\n---\n", "expected 'key: <JSON>'"),
        ("---\ntags: [1]\ntags: [2]\n---\n", "expected 'key: <JSON>'"),
        ("---\n- {}\n---\n", "expected 'key: <JSON>'"),
        ("---\nbad key: 1\n---\n", "letters, digits"),
    ],
)
def test_a_front_matter_out_of_form_is_refused_naming_the_line(text, message):
    with pytest.raises((CardFormatError, ValueError), match=message):
        parse_front_matter(text)


def test_a_card_without_front_matter_reads_as_its_text():
    assert parse_front_matter("# a card\n") == ({}, "# a card\n")
    with pytest.raises(ValueError, match="letters"):
        front_matter({"a b": 1})


def test_yaml_reads_the_front_matter_as_the_parser_does():
    """YAML, where installed, reads the same values (the form is JSON in YAML's flow style)."""
    yaml = pytest.importorskip("yaml")
    for card in CARDS:
        text = card.read_text()
        assert yaml.safe_load(text.split("---\n")[1]) == parse_front_matter(text)[0], card


@pytest.mark.parametrize("card", CARDS, ids=lambda p: p.parent.name)
def test_every_shipped_card_has_the_front_matter_of_its_own_games(card, tmp_path):
    meta, body = parse_front_matter(card.read_text())
    folder = card.parent
    model = stored_model(folder)
    assert meta["library_name"] == "boardgames" and model["game"] in meta["tags"]
    assert meta["family"] == model["family"] and meta["algorithm"] == model["algorithm"]
    assert meta["game"]["options"] == model["options"] and meta["game"]["env_version"] == model["env_version"]
    results = read_results(folder / "results.csv")
    elo = read_elo(folder / "elo.csv")
    if elo is not None:  # the Elo the card's table shows
        assert meta["elo"]["value"] == round(elo[results[0].a], 1)
    assert meta["elo"]["interval_95"][0] <= meta["elo"]["value"] <= meta["elo"]["interval_95"][1]
    assert sum(m["games"] for m in meta["metrics"]) == sum(r.games for r in results if results[0].a in (r.a, r.b))
    assert body.lstrip().startswith("# "), "the card's own text follows its front matter"
    copy = tmp_path / folder.name
    copy.mkdir()
    for name in ("results.csv", "elo.csv", "meta.json", "alphazero.json", "run.json", card.name):
        if (folder / name).is_file():
            (copy / name).write_bytes((folder / name).read_bytes())
    if model["family"] == "rllib":
        (copy / "policy.pt").write_bytes(b"")
    assert refresh_front_matter(copy).read_text() == card.read_text(), "the writer gives the shipped front matter"
