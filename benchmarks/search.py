"""The compiled search against the Python MCTS and OpenSpiel's MCTSBot: simulations per second from the
same positions, and the win rates of compiled and Python MCTS against the random agent.

    python -m boardgames.benchmarks.search [--simulations 200] [--big 1600] [--rounds 3] [--games dorix olix]
                                [--winrate-games 0] [--out FILE.json]

For every game and player count (those of its ``CONFORMANCE_OPTIONS``), from the positions of
:mod:`boardgames.benchmarks.mcts_peers` (the start, and the position after 10 seeded random decisions), it times
one search of ``--simulations`` simulations, random rollouts to the end of the game, by

* ``compiled``: :class:`boardgames.envs.search.MCTS` (UCT over the numba rules kernels; decoupled UCT at the
  simultaneous game's joint moves), and the same with ``--big`` simulations (``compiled_big``);
* ``python``: :class:`boardgames.envs.agents.PythonMCTSAgent`, the Python search it replaced as ``mcts:N``;
* ``openspiel``: OpenSpiel's Python ``MCTSBot`` on the game registered with OpenSpiel, as in
  :mod:`boardgames.benchmarks.mcts_peers` (skipped without the ``[openspiel]`` extra).

It prints simulations per second (the best of ``--rounds`` searches) and the compiled search's speed-up
over each. With ``--winrate-games N`` it also plays N games (seats alternating) of compiled and of Python
MCTS-100 against the random agent per game and player count and prints both win rates. Not a test: the
figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from boardgames.benchmarks.mcts_peers import _openspiel, _positions
from boardgames.envs.agents import MCTSAgent, PythonMCTSAgent, RandomAgent
from boardgames.envs.agents.play import play_game
from boardgames.envs.registry import env_module, game_names, make_game
from boardgames.envs.search import MCTS


def _state(name: str, options: dict, decisions: list):
    state = make_game(name, **options).new_initial_state()
    for decision in decisions:
        state.apply_actions(decision)
    return state


def _compiled(name, options, decisions, simulations, seed) -> float:
    state = _state(name, options, decisions)
    search = MCTS(state.game)
    start = time.perf_counter()
    search.run(state, simulations, seed=seed)
    return simulations / (time.perf_counter() - start)


def _python(name, options, decisions, simulations, seed) -> float:
    state = _state(name, options, decisions)
    agent = PythonMCTSAgent(simulations=simulations, seed=seed)
    seat = state.current_seats()[0]
    start = time.perf_counter()
    agent.act(state, seat)
    return simulations / (time.perf_counter() - start)


def _player_counts(name: str) -> list[dict]:
    counts: dict = {}
    for options in env_module(name).CONFORMANCE_OPTIONS:
        counts.setdefault(make_game(name, **options).info.num_seats, options)
    return list(counts.values())


def _openspiel_available() -> bool:
    try:
        import boardgames.envs.interop.openspiel  # noqa: F401
    except ImportError:
        return False
    return True


def measure(games, simulations: int, big: int, rounds: int, log=print) -> list[dict]:
    rows = []
    with_openspiel = _openspiel_available()
    for name in games:
        for options in _player_counts(name):
            label = f"{name} {make_game(name, **options).info.num_seats}p"
            for where, decisions in _positions(name, options):
                _compiled(name, options, decisions, 8, 0)  # compile (once per game) and warm up
                row: dict[str, Any] = {"game": label, "position": where, "simulations": simulations, "big": big}
                row["compiled"] = max(_compiled(name, options, decisions, simulations, r) for r in range(rounds))
                row["compiled_big"] = max(_compiled(name, options, decisions, big, r) for r in range(rounds))
                row["python"] = max(_python(name, options, decisions, simulations, r) for r in range(rounds))
                row["openspiel"] = (
                    max(_openspiel(name, options, decisions, simulations, r) for r in range(rounds))
                    if with_openspiel
                    else None
                )
                row["vs_python"] = row["compiled"] / row["python"]
                row["vs_openspiel"] = row["compiled"] / row["openspiel"] if row["openspiel"] else None
                rows.append(row)
                theirs = f"{row['openspiel']:>11,.0f}" if row["openspiel"] else f"{'-':>11}"
                ratio = f"{row['vs_openspiel']:>8.0f}x" if row["vs_openspiel"] else f"{'-':>9}"
                log(
                    f"{label:<9} {where:<9} {row['compiled']:>10,.0f} {row['compiled_big']:>10,.0f} "
                    f"{row['python']:>8,.0f} {theirs} {row['vs_python']:>8.0f}x {ratio}"
                )
    return rows


def win_rates(games, n: int, simulations: int = 100, log=print) -> list[dict]:
    """Win rate of compiled and of Python MCTS-``simulations`` against the random agent, ``n`` games each
    per game and player count (the searcher takes each seat in turn, random agents elsewhere)."""
    rows = []
    for name in games:
        for options in _player_counts(name):
            game = make_game(name, **options)
            label = f"{name} {game.info.num_seats}p"
            row: dict[str, Any] = {"game": label, "games": n, "simulations": simulations}
            for kind, cls in (("compiled", MCTSAgent), ("python", PythonMCTSAgent)):
                wins = draws = 0
                start = time.perf_counter()
                for g in range(n):
                    seat = g % game.info.num_seats
                    agents: list = [RandomAgent(seed=1000 * g + s) for s in range(game.info.num_seats)]
                    agents[seat] = cls(simulations, seed=g)
                    result = play_game(game, agents).returns()[seat]
                    wins += result > 0
                    draws += result == 0
                row[kind] = {"wins": int(wins), "draws": int(draws), "seconds": time.perf_counter() - start}
            rows.append(row)
            c, p = row["compiled"], row["python"]
            log(
                f"{label:<9} compiled {c['wins']:>3}/{n} wins {c['draws']:>3} draws ({c['seconds']:.0f} s)   "
                f"python {p['wins']:>3}/{n} wins {p['draws']:>3} draws ({p['seconds']:.0f} s)"
            )
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=200, help="simulations per search")
    parser.add_argument("--big", type=int, default=1600, help="simulations of the compiled search's second figure")
    parser.add_argument("--rounds", type=int, default=3, help="searches per figure (the best is kept)")
    parser.add_argument("--games", nargs="+", default=game_names(), choices=game_names())
    parser.add_argument("--winrate-games", type=int, default=0, help="games per win rate against random (0: none)")
    parser.add_argument("--out", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    np.seterr(all="ignore")
    print(f"simulations per second, random rollouts to the end; compiled at {args.simulations} and {args.big}")
    print(
        f"{'game':<9} {'position':<9} {'compiled':>10} {'c. ' + str(args.big):>10} {'python':>8} {'openspiel':>11} "
        f"{'/python':>9} {'/openspiel':>9}"
    )
    out = {"speed": measure(args.games, args.simulations, args.big, args.rounds)}
    if args.winrate_games:
        print(f"\nMCTS-100 against random, {args.winrate_games} games each")
        out["win_rates"] = win_rates(args.games, args.winrate_games)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
