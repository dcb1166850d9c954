"""The short version of the fuzz campaign (benchmarks/fuzz, docs/reliability.md) that CI runs: a few
hundred seeded turns of every config through every path with no failure, and faults planted in the
engine, the notation and an adapter that the fuzzer must report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgames.benchmarks.fuzz import batched, inputs
from boardgames.benchmarks.fuzz.report import configs
from boardgames.benchmarks.fuzz.run import PATHS, applies, main, replay, run_chunk
from boardgames.envs.core.game import State

SHORT_TURNS = {"engine": 300, "aec": 150, "parallel": 150, "gym": 150, "batched": 96, "vector": 96}
CASES = [
    pytest.param(config.label, path, id=f"{config.label}-{path}")
    for config in configs()
    for path in PATHS
    if applies(path, config)
]


@pytest.fixture
def short_batches(monkeypatch):
    """Batches of 4 games, 12 steps a run (the campaign's are bigger), so that a run fits the budget."""
    monkeypatch.setattr(batched, "NUM_GAMES", 4)
    monkeypatch.setattr(batched, "STEPS", 12)


def _failures(tally) -> str:
    return "\n".join(str(f) for f in tally.examples)


@pytest.mark.parametrize("label,path", CASES)
def test_short_campaign_finds_nothing(label, path, short_batches):
    tally = run_chunk(label, path, 0, SHORT_TURNS[path], seed=16, rate=0.5)
    assert tally.turns >= SHORT_TURNS[path] and tally.inputs > 0
    assert tally.failures == 0, _failures(tally)


def test_planted_broken_invariant_is_reported_and_replayed(monkeypatch):
    """Olix's invariants made to fail from turn 5 on: the engine path reports it, with a seed that
    replays it."""
    from boardgames.envs.olix.game import OlixState

    def broken(state):
        assert state.turn < 5, "planted: turn 5 reached"

    monkeypatch.setattr(OlixState, "check_invariants", broken)
    tally = run_chunk("olix", "engine", 0, 50, seed=1, rate=0.0)
    found = [f for f in tally.examples if f.check == "invariants" and "planted" in f.problem]
    assert found and tally.failures >= tally.games  # every game reaches turn 5
    assert " turn=5 " in found[0].position
    assert replay("olix", "engine", found[0].seed, 0.0) >= 1


def test_planted_notation_fault_is_reported(monkeypatch):
    """A Dorix reader that adds one to the turn from turn 3 on: the notation round trip reports it."""
    from boardgames.envs.dorix.game import DorixGame

    real = DorixGame.from_text

    def off_by_one(game, text):
        state = real(game, text)
        if state.turn >= 3:
            state.data[state.rules.TURN] += 1
        return state

    monkeypatch.setattr(DorixGame, "from_text", off_by_one)
    tally = run_chunk("dorix-num_players3", "engine", 0, 40, seed=2, rate=0.0)
    found = [f for f in tally.examples if f.check == "notation round trip"]
    assert found and " turn=3 " in found[0].position


def test_planted_accepted_illegal_action_is_reported(monkeypatch):
    """An engine whose check lets in-range illegal actions through: the malformed inputs find it (the
    state changes, so the game stops there)."""
    real = State._check_legal

    def lax(state, seat, action):
        if type(action) is int and 0 <= action < state.game.info.num_actions:
            return
        real(state, seat, action)

    monkeypatch.setattr(State, "_check_legal", lax)
    tally = run_chunk("adix", "engine", 0, 400, seed=3, rate=1.0)
    kinds = {f.check for f in tally.examples}
    assert "action (illegal)" in kinds, kinds
    assert any("accepted" in f.problem and "the state changed" in f.problem for f in tally.examples)


def test_planted_adapter_mask_fault_is_reported(monkeypatch):
    """An AEC adapter whose handed-out mask has one action too many: the AEC path reports the mask."""
    from boardgames.envs.adapters.aec_env import TurnBasedAECEnv

    real = TurnBasedAECEnv.observe

    def leaky(env, agent):
        obs = real(env, agent)
        mask = obs["action_mask"].copy()
        mask[np.flatnonzero(mask == 0)[:1]] = 1
        return {**obs, "action_mask": mask}

    monkeypatch.setattr(TurnBasedAECEnv, "observe", leaky)
    tally = run_chunk("dorix-num_players2", "aec", 0, 20, seed=4, rate=0.0)
    assert tally.failures >= tally.games >= 1
    assert "mask" in {f.check for f in tally.examples}


def test_bad_actions_are_never_a_legal_action():
    """Every malformed action the fuzzer tries for a seat whose only legal action is 3 is something an
    engine must refuse: no int, numpy integer or 0-d integer array equal to 3."""
    mask = np.zeros(10, dtype=bool)
    mask[3] = True
    rng = np.random.default_rng(0)
    kinds = set()
    for _ in range(2000):
        kind, bad = inputs.bad_action(rng, mask)
        kinds.add(kind)
        integral = isinstance(bad, (int, np.integer)) and not isinstance(bad, (bool, np.bool_))
        integral_array = isinstance(bad, np.ndarray) and bad.ndim == 0 and np.issubdtype(bad.dtype, np.integer)
        if integral or integral_array:
            assert not (0 <= int(bad) < 10 and mask[int(bad)]), (kind, bad)
    assert len(kinds) == 18  # every family drawn


def test_command_line_writes_figures_and_resumes(tmp_path, capsys):
    out = tmp_path / "fuzz.json"
    args = ["--turns", "60", "--chunk", "30", "--games", "olix", "--paths", "engine", "--no-progress"]
    status = main(args + ["--out", str(out)])
    data = json.loads(out.read_text())
    assert [(t["config"], t["path"]) for t in data["tallies"]] == [("olix", "engine"), ("olix-max_turns30", "engine")]
    assert len(data["chunks"]) == 4 and all(t["turns"] >= 30 for t in data["chunks"].values())
    assert status == (1 if any(t["failures"] for t in data["tallies"]) else 0)  # the exit status says
    assert "olix-max_turns30" in capsys.readouterr().out
    data["chunks"] = {k: v for k, v in data["chunks"].items() if not k.startswith("olix-max")}
    out.write_text(json.dumps(data))
    main(args + ["--out", str(out), "--resume"])  # runs the two chunks the file lacks
    assert len(json.loads(out.read_text())["chunks"]) == 4
    with pytest.raises(SystemExit):
        main(["--turns", "0"])
