"""AlphaZero self-play in Ray actors (training/alphazero/actors.py): the actors' games reach the learner, a
killed actor is replaced and the run goes on, a run with actors resumes (with or without them), and on a
two-node ``ray.cluster_utils.Cluster`` the actors land on both nodes and a short run trains and
checkpoints. The tests that need Ray are skipped where it is missing (make test runs them in .venv-rllib);
the seeds, the split of the games and the message without Ray are checked everywhere."""

from __future__ import annotations

import importlib.util
import json
import sys

import numpy as np
import pytest
import torch
from helpers.runs import as_flags, as_table, tiny_sets

from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.actors import SelfPlayWorker, actor_seed, shares
from boardgames.training.alphazero.settings import make_settings
from boardgames.training.alphazero.train import AlphaZeroRun, load_settings

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (the rllib extra)")

TINY = tiny_sets(evaluation=False, eval_every=0, games_per_iteration=4)
GAME = ["--game", "dorix", "--players", "2"]


def _args(run, iterations: int, *extra) -> list:
    return [*GAME, "--run-dir", str(run), "--iterations", str(iterations), "--no-progress", *extra] + as_flags(TINY)


def _settings(**extra):
    return load_settings("dorix", {"num_players": 2}, as_table(TINY) | extra)


def _run_json(run) -> dict:
    return json.loads((run / "run.json").read_text())


# ----- without Ray ------------------------------------------------------------------------------------------


def test_every_actor_gets_its_own_seed_and_a_share_of_the_games():
    seeds = {actor_seed(7, k, first, before) for k in range(4) for first in (0, 5) for before in range(3)}
    assert len(seeds) == 4 * 2 * 3  # per actor, per resumed process, per replacement
    assert actor_seed(7, 1, 0, 0) == actor_seed(7, 1, 0, 0) != actor_seed(8, 1, 0, 0)
    assert shares(10, 4) == [3, 3, 2, 2] and shares(4, 4) == [1, 1, 1, 1]
    assert shares(2, 4) == [1, 1, 1, 1]  # at least one game each


def test_a_worker_plays_with_the_weights_it_is_given():
    settings = make_settings(as_table(TINY))
    worker = SelfPlayWorker("dorix", {"num_players": 2}, settings.as_dict(), seed=3)
    weights = {name: np.zeros_like(t.numpy()) for name, t in worker.net.state_dict().items()}
    batch, node = worker.play(weights, 2)
    assert batch.games >= 2 and batch.obs.shape[0] == batch.policies.shape[0] == batch.values.shape[0] > 0
    assert node == "" and all(not p.abs().sum() for p in worker.net.parameters())


def test_the_actors_first_games_use_the_network_as_it_is_then(tmp_path):
    """The learner's side without Ray: weights changed after the actors started (a warm start does so) are
    what their first games get, and every iteration's trained weights are published after its steps."""
    settings = _settings(iterations=2)
    az = AlphaZeroRun("dorix", {"num_players": 2}, settings, tmp_path / "run", seed=2)
    worker = SelfPlayWorker("dorix", {"num_players": 2}, settings.as_dict(), seed=4)

    class RecordingActors:
        pending = None  # nothing asked for ahead: as at the start

        def __init__(self):
            self.published = []

        def publish(self, net):
            self.published.append({k: t.detach().clone().numpy() for k, t in net.state_dict().items()})

        def play(self, games, ahead):
            return worker.play(self.published[-1], games)[0]

    actors = RecordingActors()
    actors.publish(az.net)  # what start_actors does
    az.use_actors(actors)
    with torch.no_grad():
        for p in az.net.parameters():
            p.fill_(0.01)  # the network changes before the first iteration
    row = az.iterate()
    assert row["games"] >= settings.games_per_iteration and len(az.buffer) == row["samples"]
    assert len(actors.published) == 3  # at the start, at the first ask, after the steps
    assert all(np.all(actors.published[1][k] == 0.01) for k, _ in az.net.named_parameters())
    assert all(np.array_equal(actors.published[2][k], t.numpy()) for k, t in az.net.state_dict().items())
    assert az.player is None  # no self-play in this process


def test_actors_without_ray_name_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as where it is not installed
    with pytest.raises(SystemExit) as e:
        main(_args(tmp_path / "run", 1, "--actors", "2"))
    assert e.value.code == 2
    assert "rllib extra" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(_args(tmp_path / "run", 1, "--address", "auto"))
    assert "give --actors N too" in capsys.readouterr().err


# ----- a two-node cluster (first: the tests after it share one local Ray instance) ------------------------------


@needs_ray
@pytest.mark.slow
def test_actors_on_a_two_node_cluster_train_and_checkpoint(tmp_path):
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        run = tmp_path / "run"
        main(_args(run, 2, "--actors", "2", "--address", cluster.address))  # connects as on a real cluster
        info = _run_json(run)
        ray.init(address=cluster.address)
        alive = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
        assert len(alive) == 2
        assert info["actors"]["count"] == 2 and set(info["actors"]["node_ids"]) == alive  # one actor per node
        assert info["iterations"] == 2 and info["samples_added"] > 0
        assert json.loads((run / "checkpoint.json").read_text())["iteration"] == 2
        assert (run / "latest" / "alphazero.pt").is_file()
    finally:
        ray.shutdown()
        cluster.shutdown()


# ----- on one machine ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", configure_logging=True)
    try:
        yield ray
    finally:
        ray.shutdown()


@needs_ray
def test_actors_games_reach_the_learner_and_the_run_resumes(local_ray, tmp_path, capsys):
    run = tmp_path / "run"
    main(_args(run, 2, "--actors", "2"))
    info = _run_json(run)
    assert info["actors"]["count"] == 2 and info["actors"]["replaced"] == 0 and info["actors"]["weights_bytes"] > 0
    assert info["iterations"] == 2 and info["device"] == "cpu" and "iteration 2/2" in capsys.readouterr().out
    # every iteration learnt from the actors' games: at least games_per_iteration games, all their samples
    history = json.loads(torch.load(run / "checkpoint.pt", weights_only=True)["history"])
    assert [row["iteration"] for row in history] == [1, 2]
    assert all(row["games"] >= 4 and row["samples"] > 0 for row in history)
    assert sum(row["samples"] for row in history) == info["samples_added"]
    assert not (run / "games.npz").exists()  # the actors' games in flight are not in the checkpoint
    added = info["samples_added"]
    # resumed with one actor, then in this process: the run goes on from its checkpoint each time
    main(_args(run, 3, "--actors", "1", "--resume"))
    info = _run_json(run)
    assert info["iterations"] == 3 and info["samples_added"] > added and info["actors"]["count"] == 1
    main(_args(run, 4, "--resume"))
    info = _run_json(run)
    assert info["iterations"] == 4 and info["actors"] is None and len(info["commands"]) == 3


@needs_ray
def test_a_killed_actor_is_replaced_and_the_run_goes_on(local_ray, tmp_path, capsys):
    from boardgames.training.alphazero.actors import start_actors

    sets = as_table(TINY) | {"iterations": 3}
    settings = load_settings("dorix", {"num_players": 2}, sets)
    az = AlphaZeroRun("dorix", {"num_players": 2}, settings, tmp_path / "run", seed=5)
    actors = start_actors(az, 2)
    az.use_actors(actors)
    killed = []

    def kill_after_the_first_iteration(line):
        if line.startswith("iteration 1/"):  # actor 0 is playing the next iteration's games now
            killed.append(actors.handles[0])
            local_ray.kill(actors.handles[0])

    try:
        az.run(progress=False, log=kill_after_the_first_iteration, argv=["--actors", "2"])
        assert killed and actors.handles[0] is not killed[0]
        assert az.iteration == 3 and actors.replaced == 1
        assert all(row["games"] >= settings.games_per_iteration for row in az.history)
        assert _run_json(tmp_path / "run")["actors"]["replaced"] == 1
        assert "self-play actor 0 died" in capsys.readouterr().err
    finally:
        actors.close()
    assert local_ray.is_initialized()  # the test's Ray instance: not the run's to stop
