"""Torch's thread count, one rule for every command and agent (:mod:`boardgames.training.torch_threads`):
1 unless the flag, ``BOARDGAMES_TORCH_THREADS`` or the user's ``OMP_NUM_THREADS`` says; a count chosen once
is kept; nothing is imported before torch is; the agents apply the rule at their first network call unless
the user set the threads; every command's main calls it."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardgames.training import torch_threads as tt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh(monkeypatch):
    """The helper with no choice made, the environment without a thread setting, torch's count put back
    after. The inter-op pool is left alone (torch takes one setting of it per process: a subprocess test
    checks it)."""
    before = torch.get_num_threads()
    tt._reset_for_tests()
    monkeypatch.setattr(tt, "_interop_tried", True)
    for name in (tt.ENV_VAR, "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    yield
    tt._reset_for_tests()
    torch.set_num_threads(before)


def _at_torch_default():
    """Torch's count as torch picks it by itself here (as if nobody had set it)."""
    torch.set_num_threads(max(tt.torch_default_counts()))


# ----- the rule -----------------------------------------------------------------------------------
def test_the_default_is_one_thread(fresh):
    _at_torch_default()
    assert tt.use_torch_threads() == 1 and torch.get_num_threads() == 1


def test_the_environment_variable_sets_the_count(fresh, monkeypatch):
    monkeypatch.setenv(tt.ENV_VAR, "2")
    assert tt.use_torch_threads() == 2 and torch.get_num_threads() == 2


def test_the_users_omp_num_threads_is_respected(fresh, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert tt.default_torch_threads() == 2
    assert tt.use_torch_threads() == 2 and torch.get_num_threads() == 2
    tt._reset_for_tests()
    monkeypatch.setenv(tt.ENV_VAR, "1")  # the library's own variable comes first
    assert tt.use_torch_threads() == 1


def test_the_flag_comes_before_the_environment(fresh, monkeypatch):
    monkeypatch.setenv(tt.ENV_VAR, "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert tt.use_torch_threads(3) == 3 and torch.get_num_threads() == 3


def test_a_count_chosen_once_is_kept_and_set_once(fresh, monkeypatch):
    calls = []
    real = torch.set_num_threads
    monkeypatch.setattr(torch, "set_num_threads", lambda n: (calls.append(n), real(n)))
    _at_torch_default()
    calls.clear()
    n = 1 if torch.get_num_threads() != 1 else 2  # a count torch does not have yet
    assert tt.use_torch_threads(n) == n
    assert tt.use_torch_threads() == n and tt.use_torch_threads() == n  # no count: the one chosen
    assert tt.ensure_torch_threads() == n
    assert calls == [n] and torch.get_num_threads() == n
    assert tt.use_torch_threads(3) == 3 and calls == [n, 3]  # a new count is a new choice


@pytest.mark.parametrize("value", ["0", "-2", "many", "1.5"])
def test_a_bad_count_is_refused_naming_where_it_came_from(fresh, monkeypatch, value):
    monkeypatch.setenv(tt.ENV_VAR, value)
    with pytest.raises(tt.TorchThreadsError, match=tt.ENV_VAR):
        tt.use_torch_threads()
    parser = argparse.ArgumentParser(prog="boardgames x")
    tt.add_torch_threads_argument(parser)
    with pytest.raises(SystemExit) as exit_:
        tt.apply_torch_threads(parser, parser.parse_args([]))
    assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        parser.parse_args(["--torch-threads", value])
    with pytest.raises(tt.TorchThreadsError):
        tt.use_torch_threads(value)


def test_the_flag_is_read_by_the_shared_argument(fresh):
    parser = argparse.ArgumentParser()
    tt.add_torch_threads_argument(parser)
    assert parser.parse_args([]).torch_threads is None
    args = parser.parse_args(["--torch-threads", "2"])
    assert tt.apply_torch_threads(parser, args) == 2 and torch.get_num_threads() == 2


# ----- agents: the rule at first use, unless the user chose ----------------------------------------
def test_an_agents_first_use_sets_the_threads_when_nobody_did(fresh):
    _at_torch_default()
    assert tt.ensure_torch_threads() == 1 and torch.get_num_threads() == 1


def test_an_agents_first_use_keeps_the_users_own_count(fresh):
    mine = next(n for n in range(2, 64) if n not in tt.torch_default_counts())
    torch.set_num_threads(mine)
    assert tt.ensure_torch_threads() == mine and torch.get_num_threads() == mine
    assert tt.torch_threads_chosen() == mine


def _moves_once(agent, game):
    state = game.new_initial_state()
    return agent(state, int(state.current_seats()[0]))


def test_the_shipped_agents_set_the_threads_at_their_first_move(fresh):
    from boardgames.envs.registry import make_game
    from boardgames.training.agent_kinds import make_agent

    game = make_game("dorix", num_players=2)
    for spec in ("models/dorix_2p", "rllib:models/rllib_dorix_2p", "models/dorix_2p_az"):
        agent = make_agent(spec, game, seed=0)
        if hasattr(agent, "search"):  # the AlphaZero agent: a stub search (compiling the real one takes long)
            counts = np.ones((1, 1, game.info.num_actions))
            agent.search = SimpleNamespace(run=lambda roots, sims, seed, c=counts: SimpleNamespace(counts=c))
        tt._reset_for_tests()
        _at_torch_default()
        _moves_once(agent, game)
        assert torch.get_num_threads() == 1, spec


def test_nothing_is_imported_before_torch_and_the_choice_waits_for_it():
    code = (
        "import sys\n"
        "from boardgames.training import torch_threads as tt\n"
        "assert tt.ensure_torch_threads() == 0 and tt.use_torch_threads(3) == 3\n"
        "assert 'torch' not in sys.modules\n"
        "import torch\n"
        "assert tt.ensure_torch_threads() == 3\n"
        "print(torch.get_num_threads(), torch.get_num_interop_threads())\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "3"]  # the inter-op pool too, set before it started


# ----- every command sets them ----------------------------------------------------------------------
class _Called(Exception):
    pass


COMMANDS = [
    ("boardgames.training.sb3.train", []),
    ("boardgames.training.evaluation.evaluate", []),
    ("boardgames.training.evaluation.leaderboard", []),
    ("boardgames.training.evaluation.exploit", ["--agent", "random"]),
    ("boardgames.training.demo", []),
    ("boardgames.training.sb3.card", ["models/dorix_2p"]),
    ("boardgames.training.alphazero.card", ["models/dorix_2p_az", "--run", "no-such-run"]),
    ("boardgames.training.alphazero.__main__", ["--run-dir", "{tmp}"]),
    ("boardgames.play.cli", ["--game", "dorix"]),
    ("boardgames.play.web.__main__", ["--game", "dorix"]),
    ("boardgames.training.rllib.train", []),
]


@pytest.mark.parametrize(("module", "argv"), COMMANDS, ids=[m.split(".", 2)[2] for m, _ in COMMANDS])
def test_every_command_sets_the_threads_from_its_flag(module, argv, monkeypatch, tmp_path):
    if module.startswith("boardgames.training.rllib"):
        pytest.importorskip("ray", reason="the rllib extra is not installed")
    seen = []

    def spy(threads=None):
        seen.append(threads)
        raise _Called  # stop the command there: only the call is checked

    monkeypatch.setattr(tt, "use_torch_threads", spy)
    mod = importlib.import_module(module)
    if hasattr(mod, "use_torch_threads"):  # imported by name
        monkeypatch.setattr(mod, "use_torch_threads", spy)
    with pytest.raises(_Called):
        mod.main([a.format(tmp=tmp_path) for a in argv] + ["--torch-threads", "3"])
    assert seen == [3]
