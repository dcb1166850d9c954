"""Network-guided search speed: this library's compiled PUCT (:class:`boardgames.envs.search.EvaluatorSearch`)
against OpenSpiel's Python ``MCTSBot`` driving the same network, the search OpenSpiel's own AlphaZero
(``open_spiel.python.algorithms.alpha_zero``) plays and trains with.

    python -m boardgames.benchmarks.alphazero_search [--games dorix olix adix] [--simulations 64] [--trees 64]
                                          [--out FILE.json]

Per game (default options; 2 players for Dorix), with the network ``boardgames.training.alphazero`` builds from the
game's config (untrained: speed does not depend on the weights), from the starting position:

* ``ours_batched``: ``--trees`` searches at once (self-play's batch), leaves through the network in one
  call per simulation: simulations per second over all trees;
* ``ours_single``: one search (how the agent plays a move): simulations per second;
* ``openspiel``: ``MCTSBot`` with an evaluator that runs the network on each leaf (batch 1, as OpenSpiel's
  ``AlphaZeroEvaluator``, whose cache would only help on repeated positions), on the game registered
  with OpenSpiel (skipped without the ``[openspiel]`` extra). Turn-based games only.

It is what the choice of our own AlphaZero over OpenSpiel's rests on (docs/alphazero.md). Torch uses
one thread. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from boardgames.envs.registry import make_game
from boardgames.envs.search import EvaluatorSearch
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.network import AlphaZeroNet
from boardgames.training.alphazero.train import load_settings

DEFAULT_OPTIONS = {"dorix": {"num_players": 2}}


def _network(name: str, options: dict):
    game = make_game(name, **options)
    s = load_settings(name, options)
    i = game.info
    torch.manual_seed(0)
    return game, AlphaZeroNet(i.observation_shape, i.num_actions, i.num_seats, **s.network_kwargs()).eval()


def ours(game, net, trees: int, simulations: int) -> float:
    search = EvaluatorSearch(game, NetworkEvaluator(game, net))
    roots = np.stack([game.new_initial_state().data] * trees)
    search.run(roots[:1], 2, seed=0)  # compile and warm up
    start = time.perf_counter()
    search.run(roots, simulations, seed=1)
    return trees * simulations / (time.perf_counter() - start)


def openspiel(name: str, options: dict, net, simulations: int) -> float | None:
    try:
        from open_spiel.python.algorithms import mcts

        from boardgames.envs.interop import openspiel as osp
    except ImportError:
        return None
    game = osp.load_game(name, **options)
    evaluator = NetworkEvaluator(make_game(name, **options), net)

    class NetEvaluator(mcts.Evaluator):
        """The network on one leaf: values in seat order, priors over the legal actions."""

        def _run(self, state):
            engine = osp.engine_state(state)
            seat = engine.current_seats()[0]
            priors, values = evaluator(engine.data[None], np.array([seat]))
            return priors[0, 0], values[0]

        def evaluate(self, state):
            return self._run(state)[1]

        def prior(self, state):
            priors = self._run(state)[0]
            return [(int(a), float(priors[a])) for a in state.legal_actions()]

    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.25, simulations, NetEvaluator(), solve=False, random_state=rng)
    state = game.new_initial_state()
    bot.mcts_search(state)  # warm up
    start = time.perf_counter()
    root = bot.mcts_search(state)
    return root.explore_count / (time.perf_counter() - start)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.alphazero_search", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", nargs="*", default=["dorix", "olix", "adix"])
    p.add_argument("--simulations", type=int, default=64)
    p.add_argument("--trees", type=int, default=64)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    rows = []
    print(f"{'game':<8} {'ours, batched':>14} {'ours, one tree':>15} {'OpenSpiel MCTSBot':>18} {'batched/OS':>11}")
    for name in args.games:
        options = DEFAULT_OPTIONS.get(name, {})
        game, net = _network(name, options)
        row = {"game": name, "options": options, "simulations": args.simulations, "trees": args.trees}
        row["ours_batched"] = ours(game, net, args.trees, args.simulations)
        row["ours_single"] = ours(game, net, 1, args.simulations)
        row["openspiel"] = openspiel(name, options, net, args.simulations) if game.info.acting_seats == 1 else None
        rows.append(row)
        theirs = f"{row['openspiel']:>18,.0f}" if row["openspiel"] else f"{'-':>18}"
        ratio = f"{row['ours_batched'] / row['openspiel']:>10.1f}x" if row["openspiel"] else f"{'-':>11}"
        print(f"{name:<8} {row['ours_batched']:>14,.0f} {row['ours_single']:>15,.0f} {theirs} {ratio}", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
