"""Scale-out on one machine: a Ray cluster of two nodes (Ray's own ``ray.cluster_utils.Cluster``, one
CPU each): an algorithm built by ``boardgames.training.rllib.config`` places its two env runners one on each node
and trains; then the training command, connected with ``--address`` exactly as on a real cluster,
runs an iteration there. Skipped where ray is missing."""

from __future__ import annotations

import pytest
from helpers.runs import rllib_sets

pytest.importorskip("ray.rllib")

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from boardgames.training.rllib import train as rllib_train  # noqa: E402
from boardgames.training.rllib.config import RLlibSettings, build_config  # noqa: E402
from boardgames.training.rllib.league import RANDOM, make_random_player  # noqa: E402


@pytest.fixture
def two_nodes():
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.mark.slow
def test_env_runners_on_both_nodes_train(two_nodes, tmp_path, capsys):
    ray.init(address=two_nodes.address)
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    settings = RLlibSettings(
        env_runners=2, envs_per_runner=2, train_batch=200, minibatch=100, epochs=1, hidden=[32, 32], snapshots=1
    )
    algo = build_config("olix", {}, settings).build_algo()
    try:
        nodes = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False
        )
        assert len(nodes) == 2
        assert set(nodes) == {n["NodeID"] for n in ray.nodes() if n["Alive"]}  # one runner per node
        # the league's random player reaches the runners of both nodes: a policy head of zeros
        make_random_player(algo)
        heads = algo.env_runner_group.foreach_env_runner(
            lambda runner: [float(p.abs().sum()) for n, p in runner.module[RANDOM].named_parameters() if "pi." in n],
            local_env_runner=False,
        )
        assert len(heads) == 2 and all(h and not any(h) for h in heads)
        for expected in (1, 2):
            result = algo.train()
            assert algo.iteration == expected
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 400
    finally:
        algo.stop()
    ray.shutdown()  # the command connects by itself
    rllib_train.main(
        [
            "--game",
            "olix",
            "--address",
            two_nodes.address,
            "--env-runners",
            "2",
            "--iterations",
            "1",
            "--out",
            str(tmp_path / "run"),
            "--eval-every",
            "0",
            *rllib_sets(hidden="[32,32]"),
        ]
    )
    assert "cluster CPUs 2" in capsys.readouterr().out
    assert (tmp_path / "run" / "policy.pt").is_file()
