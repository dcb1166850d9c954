"""Does skill show in the Barc duel from a start? Ruling B1's criterion 4, measured with the search agents.

    python -m boardgames.benchmarks.barc_skill [--start alternating] [--games 200] [--selfplay mcts:400]
                                    [--agents random greedy mcts:100 mcts:400 mcts:1600] [--out DIR]

* a round robin of ``--agents``, ``--games`` per pair, sides alternating (as
  ``boardgames.training.evaluation.evaluate`` plays them); Elo by Bradley-Terry anchored on random, with 95%
  bootstrap intervals (``boardgames.training.evaluation.leaderboard``);
* ``--selfplay`` against itself, ``--games`` games: the share of decisive games;
* for every pair: wins, draws, losses, mean and median game length in turns, and how many games the turn
  limit ended.

Each pair's figures are written to ``<out>/pairs/<a>__<b>.json`` as soon as it is played, and a pair already
there is not played again, so a killed run resumes where it stopped; ``<out>/summary.json`` and
``<out>/summary.md`` hold the whole. Not a test: it measures play, seeded, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

DEFAULT_AGENTS = ["random", "greedy", "mcts:100", "mcts:400", "mcts:1600"]


def play_pair(game, spec_a: str, spec_b: str, games: int, seed: int) -> dict:
    """``games`` games of ``spec_a`` against ``spec_b``, A South in even games; counted for A."""
    from boardgames.envs.agents.play import play_game
    from boardgames.training.agent_kinds import make_agent

    rng = np.random.default_rng(seed)
    agent_a, agent_b = make_agent(spec_a, game), make_agent(spec_b, game)
    wins = draws = losses = limits = 0
    lengths = []
    for g in range(games):
        for agent in (agent_a, agent_b):
            if hasattr(agent, "seed"):
                agent.seed(int(rng.integers(2**31)))
        a_seat = g % 2
        seats = [agent_a, agent_b] if a_seat == 0 else [agent_b, agent_a]
        state = play_game(game, seats)
        lengths.append(state.turn)
        limits += int(state.is_truncated())
        r = float(state.returns()[a_seat])
        wins += r > 0
        losses += r < 0
        draws += r == 0
    return {
        "a": spec_a,
        "b": spec_b,
        "games": games,
        "wins": int(wins),
        "draws": int(draws),
        "losses": int(losses),
        "decisive": (wins + losses) / games,
        "mean_turns": statistics.fmean(lengths),
        "median_turns": statistics.median(lengths),
        "limit_hits": limits,
        "lengths": lengths,
    }


def _write_json(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file, fsynced, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def ratings(pairs: list, agents: list, bootstrap: int = 200) -> list:
    """Leaderboard rows (Elo anchored on the first agent, 95% bootstrap interval) of the round-robin pairs."""
    from boardgames.training.evaluation.evaluate import PairResult, fit_elo
    from boardgames.training.evaluation.leaderboard import bootstrap_elo, ranking

    results = [PairResult(p["a"], p["b"], p["wins"], p["draws"], p["losses"]) for p in pairs if p["a"] != p["b"]]
    elo = fit_elo(agents, results, anchor=agents[0])
    return ranking(elo, bootstrap_elo(agents, results, samples=bootstrap, anchor=agents[0]), results)


def summary_markdown(start: str, rows: list, pairs: list) -> str:
    """The figures as Markdown: the ranking, then every pair."""
    lines = [f"Start: `{start}`.", "", "| rank | agent | Elo | 95% interval |", "|---:|---|---:|---|"]
    lines += [
        f"| {i} | {r['agent']} | {r['elo']:+.0f} | [{r['low']:+.0f}, {r['high']:+.0f}] |" for i, r in enumerate(rows, 1)
    ]
    lines += [
        "",
        "| pair (A vs B) | A wins | draws | B wins | decisive | mean turns | median turns | turn limit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in pairs:
        lines.append(
            f"| {p['a']} vs {p['b']} | {p['wins']} | {p['draws']} | {p['losses']} | {p['decisive']:.0%} | "
            f"{p['mean_turns']:.1f} | {p['median_turns']:g} | {p['limit_hits']} |"
        )
    return "\n".join(lines)


def main(argv: list | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m boardgames.benchmarks.barc_skill", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--start", default="alternating", help="the start position (boardgames.envs.barc.game.START_NAMES)"
    )
    parser.add_argument("--games", type=int, default=200, help="games per pair (default 200)")
    parser.add_argument(
        "--agents", nargs="+", default=DEFAULT_AGENTS, help="the round robin's agents, the first the anchor"
    )
    parser.add_argument("--selfplay", default="mcts:400", help="the agent whose self-play is measured ('' for none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="output folder (default runs/barc_skill/<start>)")
    args = parser.parse_args(argv)

    import torch

    from boardgames.envs.registry import make_game

    torch.set_num_threads(1)
    game = make_game("barc", start=args.start)
    out = Path(args.out or f"runs/barc_skill/{args.start}")
    todo = [(a, b) for i, a in enumerate(args.agents) for b in args.agents[i + 1 :]]
    if args.selfplay:
        todo.append((args.selfplay, args.selfplay))
    pairs = []
    for k, (a, b) in enumerate(todo):
        path = out / "pairs" / f"{a.replace(':', '')}__{b.replace(':', '')}.json"
        if path.exists():
            pair = json.loads(path.read_text())
        else:
            t0 = time.time()
            pair = play_pair(game, a, b, args.games, args.seed + k)
            pair["wall_s"] = round(time.time() - t0, 1)
            _write_json(path, pair)
        pairs.append(pair)
        print(
            f"{a} vs {b}: {pair['wins']}-{pair['draws']}-{pair['losses']}, {pair['mean_turns']:.1f} turns "
            f"(median {pair['median_turns']:g}), limit {pair['limit_hits']}",
            file=sys.stderr,
            flush=True,
        )
    rows = ratings(pairs, args.agents)
    summary = {
        "start": args.start,
        "games_per_pair": args.games,
        "seed": args.seed,
        "ranking": rows,
        "pairs": [{k: v for k, v in p.items() if k != "lengths"} for p in pairs],
    }
    _write_json(out / "summary.json", summary)
    text = summary_markdown(args.start, rows, summary["pairs"])
    (out / "summary.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
