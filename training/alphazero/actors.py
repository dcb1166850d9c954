"""Self-play in Ray actors, on one machine or a cluster: ``boardgames alphazero ... --actors N [--address ...]``.

``N`` Ray actors (one CPU each, spread over the cluster's nodes) each hold a copy of the network on the
CPU, a compiled search of their own and a :class:`~boardgames.training.alphazero.selfplay.SelfPlayer` of
``alphazero.parallel`` games, with a random generator of their own (:func:`actor_seed`: from the run's
seed, the actor's index, the iteration the process started at and how many actors of that index it has
started before). The training process is the learner: every iteration it takes ``games_per_iteration``
finished games from them (split evenly, at least one each), adds their samples to the replay buffer in
the actors' order, trains, and puts its new weights in Ray's object store once (``ray.put``); every
actor reads them from there for its next games.

The actors do not wait for the learner: the games of the next iteration are asked for as soon as this
iteration's are in, before the learner trains, so self-play and learning overlap and the games an
iteration learns from were played with the weights of the iteration before (the first two iterations
both play with the initial network), as asynchronous self-play in KataGo or OpenSpiel's AlphaZero does.

A dead actor (its process killed, its node gone: Ray's ``RayActorError``, ``ActorDiedError`` among them)
is replaced by a new one with a new seed, which plays that actor's share of the iteration again with the
latest weights; the games it had in flight are lost. An actor that dies :data:`MAX_DEATHS` times in a
row within an iteration stops the run with a message naming the cause.

Games in flight in the actors are not in the checkpoint: a resumed run, with or without actors, starts
new games (the single-process run keeps its own games in flight in ``games.npz``).

Ray is imported here only (lazily, when ``--actors`` is given): the project's ``rllib`` extra installs it.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import torch

from boardgames.envs.registry import make_game
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.network import AlphaZeroNet
from boardgames.training.alphazero.selfplay import SearchSettings, SelfPlayBatch, SelfPlayer
from boardgames.training.alphazero.settings import AlphaZeroSettings, make_settings
from boardgames.training.ray_cluster import connect
from boardgames.training.settings import SettingError

RAY_MISSING = (
    "--actors runs self-play on Ray, which is not installed in this Python: install the project's rllib extra "
    "(pip install -e '.[rllib]'; make setup-rllib builds .venv-rllib with it)"
)
MAX_DEATHS = 3
"""How many times in a row one actor may die within an iteration before the run stops."""


def import_ray():
    """The ``ray`` module, or SettingError naming the ``rllib`` extra that installs it."""
    try:
        import ray
    except ImportError:
        raise SettingError(RAY_MISSING) from None
    return ray


def actor_seed(run_seed: int, index: int, first_iteration: int, started_before: int) -> int:
    """The seed of actor ``index``: distinct for every actor of a run, every process that resumes it (at
    ``first_iteration``) and every replacement (``started_before`` actors of that index before it)."""
    sequence = np.random.SeedSequence(run_seed, spawn_key=(index, first_iteration, started_before))
    return int(sequence.generate_state(1, np.uint32)[0])


def shares(games: int, count: int) -> list[int]:
    """``games`` split over ``count`` actors as evenly as possible, at least one game each."""
    return [max(1, games // count + (k < games % count)) for k in range(count)]


def merge(batches: list[SelfPlayBatch]) -> SelfPlayBatch:
    """The samples and figures of ``batches`` as one batch, in their order."""
    outcomes: dict = {}
    for b in batches:
        for key, count in b.outcomes.items():
            outcomes[key] = outcomes.get(key, 0) + count
    return SelfPlayBatch(
        obs=np.concatenate([b.obs for b in batches]),
        policies=np.concatenate([b.policies for b in batches]),
        values=np.concatenate([b.values for b in batches]),
        seats=np.concatenate([b.seats for b in batches]),
        games=sum(b.games for b in batches),
        decisions=sum(b.decisions for b in batches),
        outcomes=outcomes,
        lengths=[n for b in batches for n in b.lengths],
    )


class SelfPlayWorker:
    """What one actor runs (a plain class: Ray makes it an actor, a test can call it in-process)."""

    def __init__(self, game_name: str, options: dict, settings: dict, seed: int):
        torch.set_num_threads(1)  # one CPU per actor
        s = make_settings(settings)
        game = make_game(game_name, **options)
        info = game.info
        torch.manual_seed(seed)
        self.net = AlphaZeroNet(info.observation_shape, info.num_actions, info.num_seats, **s.network_kwargs())
        self.net.eval()
        self.player = SelfPlayer(game, NetworkEvaluator(game, self.net), s.parallel, SearchSettings.of(s))
        self.rng = np.random.default_rng(seed)

    def play(self, weights: dict, games: int) -> tuple[SelfPlayBatch, str]:
        """Load ``weights`` (arrays by name), play on until ``games`` games have finished; their samples
        and the id of the Ray node this actor runs on."""
        self.net.load_state_dict({name: torch.tensor(array) for name, array in weights.items()})
        batch = self.player.play(games, self.rng)
        return batch, _node_id()


def _node_id() -> str:
    """The Ray node this process runs on ("" outside Ray: asking Ray would start it)."""
    ray = sys.modules.get("ray")
    return ray.get_runtime_context().get_node_id() if ray is not None and ray.is_initialized() else ""


class SelfPlayActors:
    """The run's self-play actors (see the module docstring): :meth:`play` for an iteration's games,
    :meth:`publish` after each learning step, :meth:`close` at the end."""

    def __init__(
        self, ray, game_name: str, options: dict, settings: AlphaZeroSettings, seed: int, count: int, iteration: int
    ):
        self.ray = ray
        self.remote_class = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(SelfPlayWorker)
        self.args = (game_name, dict(options), settings.as_dict())
        self.seed, self.first_iteration = seed, iteration
        self.started = [0] * count  # actors started so far, per index
        self.handles = [self._start(k) for k in range(count)]
        self.nodes = [""] * count  # the node each actor's last games came from
        self.replaced = 0  # actors replaced so far in this process
        self.weights = None  # the object ref of the latest weights
        self.weights_bytes = 0
        self.publish_s = 0.0  # the last publish's seconds
        self.pending: tuple | None = None  # (refs, shares, asked at) of the games asked for and not yet taken
        self.address: str | None = None
        self.owns_ray = False  # whether close() shuts Ray down (it was started for this run)

    @property
    def count(self) -> int:
        return len(self.handles)

    def _start(self, k: int):
        seed = actor_seed(self.seed, k, self.first_iteration, self.started[k])
        self.started[k] += 1
        return self.remote_class.remote(*self.args, seed)

    def publish(self, net: torch.nn.Module) -> None:
        """Put ``net``'s weights (as CPU arrays) in the object store once; the next games use them."""
        started = time.perf_counter()
        arrays = {name: t.detach().cpu().numpy() for name, t in net.state_dict().items()}
        self.weights = self.ray.put(arrays)
        self.weights_bytes = sum(a.nbytes for a in arrays.values())
        self.publish_s = time.perf_counter() - started

    def play(self, games: int, ahead: bool = True) -> SelfPlayBatch:
        """``games`` finished games' samples (those asked for last time, or asked for now); with ``ahead``,
        then ask for the next ones at once, with the weights published last."""
        pending = self.pending if self.pending is not None else self._ask(games)
        batch = self._gather(*pending)
        self.pending = self._ask(games) if ahead else None
        return batch

    def _ask(self, games: int) -> tuple:
        split = shares(games, self.count)
        refs = [h.play.remote(self.weights, n) for h, n in zip(self.handles, split)]
        return refs, split, time.perf_counter()

    def _gather(self, refs: list, split: list, asked: float) -> SelfPlayBatch:
        ray = self.ray
        results: list = [None] * len(refs)
        deaths = [0] * len(refs)
        waiting = {ref: k for k, ref in enumerate(refs)}
        while waiting:
            done, _ = ray.wait(list(waiting), num_returns=1)
            for ref in done:
                k = waiting.pop(ref)
                try:
                    results[k], self.nodes[k] = ray.get(ref)
                except ray.exceptions.RayActorError as e:
                    deaths[k] += 1
                    if deaths[k] >= MAX_DEATHS:
                        raise RuntimeError(
                            f"self-play actor {k} died {deaths[k]} times in a row: {type(e).__name__}: {e}"
                        ) from None
                    self._replace(k, e)
                    waiting[self.handles[k].play.remote(self.weights, split[k])] = k
        batch = merge(results)
        batch.seconds = time.perf_counter() - asked
        return batch

    def _replace(self, k: int, error: Exception) -> None:
        try:
            self.ray.kill(self.handles[k], no_restart=True)
        except Exception:  # already gone: nothing to kill
            pass
        self.handles[k] = self._start(k)
        self.replaced += 1
        cause = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        print(
            f"self-play actor {k} died ({type(error).__name__}: {cause}); replaced by a new one",
            file=sys.stderr,
            flush=True,
        )

    def describe(self) -> dict:
        """What ``run.json`` records of the actors."""
        return {
            "count": self.count,
            "address": self.address or "local",
            "nodes": len({n for n in self.nodes if n}),
            "node_ids": list(self.nodes),  # the Ray node of each actor's last games
            "replaced": self.replaced,
            "weights_bytes": self.weights_bytes,
        }

    def close(self) -> None:
        """Stop the actors (their games in flight are dropped) and Ray, when it was started for the run."""
        for handle in self.handles:
            try:
                self.ray.kill(handle, no_restart=True)
            except Exception:  # already gone
                pass
        self.handles, self.pending = [], None
        if self.owns_ray:
            self.ray.shutdown()


def start_actors(run, count: int, address: str | None = None) -> SelfPlayActors:
    """``count`` self-play actors for ``run`` (an :class:`~boardgames.training.alphazero.train.AlphaZeroRun`),
    holding its current weights; Ray connected or started as :func:`boardgames.training.ray_cluster.connect`
    says (a process already connected keeps its connection)."""
    ray = import_ray()
    owns = connect(ray, address, count, "actors", keep_connection=True)
    try:
        actors = SelfPlayActors(ray, run.game_name, run.options, run.settings, run.seed, count, run.iteration)
        actors.address, actors.owns_ray = address, owns
        actors.publish(run.net)
    except BaseException:
        if owns:
            ray.shutdown()
        raise
    return actors
