"""Our MCTS baseline against OpenSpiel's, on our own games: simulations per second from the same positions.

    python -m boardgames.benchmarks.mcts_peers [--simulations 200] [--rounds 3] [--games dorix olix] [--out FILE.json]

For every game and player count (the player counts of its ``CONFORMANCE_OPTIONS``), from two positions
(the start, and the position after 10 uniformly random decisions, seeded), it times one search of
``--simulations`` simulations, with random rollouts played to the end of the game, by

* ``ours``: :class:`boardgames.envs.agents.PythonMCTSAgent`, our search in Python on the engine (``clone()`` +
  ``apply_actions``; decoupled UCT at the simultaneous game's joint moves), the ``mcts:N`` baseline
  until the compiled search (:mod:`boardgames.envs.search`, measured by :mod:`boardgames.benchmarks.search`)
  replaced it;
* ``openspiel``: OpenSpiel's Python ``MCTSBot`` with its ``RandomRolloutEvaluator`` (one rollout, no
  length limit), ``solve=False`` so that it runs every simulation, on the same game registered with
  OpenSpiel (:mod:`boardgames.envs.interop.openspiel`); for the simultaneous game, on
  ``pyspiel.convert_to_turn_based`` of it (``MCTSBot`` takes only sequential games), searching for the
  first seat. OpenSpiel's C++ ``pyspiel.MCTSBot`` crashes on every Python game (its own
  ``python_tic_tac_toe`` too, OpenSpiel 2.0.2), so it is not measured.

It prints simulations per second (the best of ``--rounds`` searches each) and their ratio. Needs the
``[openspiel]`` extra. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from boardgames.envs.agents import PythonMCTSAgent
from boardgames.envs.core.game import State
from boardgames.envs.registry import env_module, game_names, make_game


def _positions(name: str, options: dict, seed: int = 0) -> list[tuple[str, list]]:
    """(label, decisions from the start) of the measured positions: the start, and 10 random decisions in
    (fewer if the game ends first; each decision is {seat: action})."""
    game = make_game(name, **options)
    state: State = game.new_initial_state()
    rng = np.random.default_rng(seed)
    played: list[dict[int, int]] = []
    while len(played) < 10 and not state.is_terminal():
        decision = {s: int(rng.choice(state.legal_actions(s))) for s in state.current_seats()}
        nxt = state.clone()
        nxt.apply_actions(decision)
        if nxt.is_terminal():  # keep a position that is still to play
            break
        state = nxt
        played.append(decision)
    return [("start", []), (f"after {len(played)}", played)]


def _ours(name: str, options: dict, decisions: list, simulations: int, seed: int) -> float:
    game = make_game(name, **options)
    state = game.new_initial_state()
    for decision in decisions:
        state.apply_actions(decision)
    seat = state.current_seats()[0]
    agent = PythonMCTSAgent(simulations=simulations, seed=seed)
    start = time.perf_counter()
    agent.act(state, seat)
    return simulations / (time.perf_counter() - start)


def _openspiel(name: str, options: dict, decisions: list, simulations: int, seed: int) -> float:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from boardgames.envs.interop import openspiel as osp

    game = osp.load_game(name, **options)
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if simultaneous:
        game = pyspiel.convert_to_turn_based(game)
    state = game.new_initial_state()
    for decision in decisions:
        for seat in sorted(decision):  # the turn-based view takes a joint move seat by seat
            state.apply_action(decision[seat])
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 1.4, simulations, mcts.RandomRolloutEvaluator(1, rng), solve=False, random_state=rng)
    start = time.perf_counter()
    root = bot.mcts_search(state)
    return root.explore_count / (time.perf_counter() - start)


def measure(games, simulations: int, rounds: int, log=print) -> list[dict]:
    rows = []
    for name in games:
        counts: dict = {}
        for options in env_module(name).CONFORMANCE_OPTIONS:  # one set of options per player count
            counts.setdefault(make_game(name, **options).info.num_seats, options)
        for options in counts.values():
            label = f"{name} {make_game(name, **options).info.num_seats}p"
            for where, decisions in _positions(name, options):
                _ours(name, options, decisions, 8, 0)  # warm up (numba's compiled kernels)
                ours = max(_ours(name, options, decisions, simulations, r) for r in range(rounds))
                theirs = max(_openspiel(name, options, decisions, simulations, r) for r in range(rounds))
                row = {
                    "game": label,
                    "position": where,
                    "simulations": simulations,
                    "ours": ours,
                    "openspiel": theirs,
                    "ratio": ours / theirs,
                }
                rows.append(row)
                log(f"{label:<9} {where:<10} {ours:>12,.0f} {theirs:>14,.0f} {ours / theirs:>8.1f}x")
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=200, help="simulations per search")
    parser.add_argument("--rounds", type=int, default=3, help="searches per figure (the best is kept)")
    parser.add_argument("--games", nargs="+", default=game_names(), choices=game_names())
    parser.add_argument("--out", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    try:
        import boardgames.envs.interop.openspiel  # noqa: F401
    except ImportError as e:
        parser.exit(1, f"{e}\n")
    print(f"simulations per second, {args.simulations} simulations per search, random rollouts to the end")
    print(f"{'game':<9} {'position':<10} {'ours':>12} {'openspiel':>14} {'ratio':>9}")
    rows = measure(args.games, args.simulations, args.rounds)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
