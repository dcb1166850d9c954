"""Random-play speed of every registered game, measured side by side in one run.

    python -m benchmarks.run [--seconds 3] [--games dorix olix] [--out benchmarks/results/latest.json]

For each game (and option set) it prints turns per second of uniformly random legal play through
(a) the PettingZoo API (``env.last()`` / ``observe`` / ``step``, as a user's loop does) and
(b) the raw engine (``legal_actions`` + ``apply`` on the Game/State interface), and
(c) ``clone()`` + ``apply`` (what MCTS needs); then PettingZoo's ``connect_four_v3`` through its API as
a peer. Figures depend on the machine: compare only numbers from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from envs.registry import env_module, game_names


def _timed(step_fn, seconds: float) -> float:
    """Call ``step_fn()`` (which returns how many turns it played) until ``seconds`` pass; turns/s."""
    step_fn()  # warm-up: compile and fill caches
    turns, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += step_fn()
    return turns / (time.perf_counter() - start)


def pettingzoo_turns(make_env, rng: np.random.Generator, parallel: bool = False):
    """A function playing one random game through the PettingZoo API, returning its number of turns."""
    env = make_env()

    def one_game() -> int:
        turns = 0
        if parallel:
            obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
            while env.agents:
                actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
                obs, *_ = env.step(actions)
                turns += 1
            return turns
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                turns += 1
            env.step(action)
        return turns

    return one_game


def engine_turns(game, rng: np.random.Generator, clone: bool = False):
    """A function playing one random game on the raw engine (optionally cloning before each apply)."""
    seats = game.info.num_seats

    def one_game() -> int:
        state = game.new_initial_state()
        turns = 0
        while not state.is_terminal():
            if clone:
                state = state.clone()
            if game.info.simultaneous:
                state.apply_joint([int(rng.choice(state.legal_actions(s))) for s in range(seats)], check=False)
            else:
                state.apply(int(rng.choice(state.legal_actions())), check=False)
            turns += 1
        return turns

    return one_game


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: all)")
    parser.add_argument("--out", default="benchmarks/results/latest.json", help="where to write the figures")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    rows = []
    for name in args.games or game_names():
        module = env_module(name)
        for options in module.CONFORMANCE_OPTIONS:
            label = name + "".join(f" {k}={v}" for k, v in options.items())
            game = module.make_game(**options)
            simultaneous = game.info.simultaneous
            make = (lambda m=module, o=options: m.parallel_env(**o)) if simultaneous else (
                lambda m=module, o=options: m.env(**o))
            row = {
                "game": label,
                "pettingzoo": _timed(pettingzoo_turns(make, rng, parallel=simultaneous), args.seconds),
                "engine": _timed(engine_turns(game, rng), args.seconds),
                "clone_apply": _timed(engine_turns(game, rng, clone=True), args.seconds),
            }
            rows.append(row)
            print(f"{label:28s} pettingzoo {row['pettingzoo']:>11,.0f}  engine {row['engine']:>11,.0f}  "
                  f"clone+apply {row['clone_apply']:>11,.0f}  turns/s", flush=True)
    peers = {}
    try:
        from pettingzoo.classic import connect_four_v3

        peers["pettingzoo connect_four_v3"] = _timed(pettingzoo_turns(connect_four_v3.env, rng), args.seconds)
        print(f"{'peer: connect_four_v3':28s} pettingzoo {peers['pettingzoo connect_four_v3']:>11,.0f}  turns/s")
    except ImportError as e:  # pragma: no cover - optional peer
        print(f"peer connect_four_v3 unavailable: {e}")
    if peers:
        c4 = peers["pettingzoo connect_four_v3"]
        for row in rows:
            print(f"{row['game']:28s} PettingZoo API: {row['pettingzoo'] / c4:5.1f}x connect_four_v3")
    result = {"machine": platform.platform(), "cpus": os.cpu_count(), "seconds": args.seconds,
              "games": rows, "peers": peers}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    print(f"written to {args.out}")
    return result


if __name__ == "__main__":
    main()
