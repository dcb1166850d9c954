"""One leaderboard per game and player count: ``boardgames leaderboard --game G``.

Examples::

    boardgames leaderboard --game dorix --players 2 --games 200 --write-docs
    boardgames leaderboard --game barc --agents random greedy mcts:400 models/barc --games 50

Every agent of the game (by default: ``random``, ``greedy``, ``mcts:100``, ``mcts:400``,
``mcts:1600``, at a game whose seats act at once the mixed-strategy search ``smmcts:6400:heuristic:t0.33``,
and every shipped model of this game and player count, see :func:`default_agents`;
or ``--agents``) plays every other one ``--games`` games (a round robin, as ``boardgames.training.evaluation.evaluate``
plays it: sides rotate, teams at team games). The ratings are one Bradley-Terry fit on the Elo scale
over all games, draws counted half, ``random`` anchored at 0; their 95% confidence intervals come from
a parametric bootstrap (every pair's games drawn again from its observed win/draw/loss shares, the fit
redone, ``--bootstrap`` times, the 2.5th and 97.5th percentiles kept).

Writes ``<out>/leaderboard.csv`` and ``<out>/leaderboard.png`` (ratings with their intervals), the
pairwise table as ``boardgames.training.evaluation.evaluate`` does (``results.csv``, ``elo.csv``,
``results.png``), and with ``--write-docs`` the game's section of docs/leaderboard.md (between its markers)
with the picture in docs/images/, the command and the date. ``--exploitability`` (games whose seats act at
once: Barc) adds each agent's one-turn exploitability at the fixed positions beside its Elo (measure (b) of
``boardgames exploit``, :mod:`boardgames.training.evaluation.exploit`): a rating alone does not say how much an
opponent who knows the agent's play could take from it.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import re
import shlex
from pathlib import Path

import numpy as np

from boardgames.envs.core.game import Game
from boardgames.envs.registry import parallel_games
from boardgames.training.agent_kinds import shipped_models
from boardgames.training.cli import (
    add_game_arguments,
    add_torch_threads_argument,
    apply_torch_threads,
    game_options_of,
    positive_int,
)
from boardgames.training.evaluation.evaluate import (
    PairResult,
    add_openings_argument,
    agent_name,
    check_openings,
    fit_elo,
    round_robin,
    save_results,
)

EXPLOIT_NOTE = (
    "One-turn exploitability: how much the agent's first order loses to its best reply at five fixed positions, "
    "both seats, averaged (0 = equilibrium, at most 2; `boardgames exploit --parts fixed`, docs/search.md).\n\n"
)
BASELINES = ("random", "greedy", "mcts:100", "mcts:400", "mcts:1600")
SIMULTANEOUS_BASELINES = ("smmcts:6400:heuristic:t0.33",)
"""Added to the baselines of a game whose seats act at once: the simultaneous-move search that mixes its
orders (docs/rules/barc.md, "What competent play looks like")."""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "leaderboard.md"


def board_key(game: str, players: int | None) -> str:
    """The name of a game and player count in models/ and docs (``dorix_2p``, ``olix``)."""
    return f"{game}_{players}p" if players else game


def default_agents(game: str, players: int | None) -> list[str]:
    """The baselines (and :data:`SIMULTANEOUS_BASELINES` where the seats act at once) and every shipped model
    of ``game`` at ``players``: the PPO model named like the board (``models/dorix_2p``), models whose name
    starts with it (``models/dorix_2p_<kind>``), and exported RLlib policies (``models/rllib_<board>...``
    holding a ``policy.pt``)."""
    key = board_key(game, players)
    specs = list(BASELINES) + (list(SIMULTANEOUS_BASELINES) if game in parallel_games() else [])
    models = Path(__file__).resolve().parents[2] / "models"
    for name in shipped_models():
        if name == key or name.startswith(key + "_"):
            specs.append(f"models/{name}")
    if models.is_dir():
        for folder in sorted(models.glob(f"rllib_{key}*")):
            policy = folder / "policy.pt"
            if policy.exists():
                specs.append(f"rllib:{policy}")
    return specs


def bootstrap_elo(names: list, results: list, samples: int = 100, seed: int = 0, anchor: str | None = "random") -> dict:
    """95% intervals of the Bradley-Terry ratings: ``{name: (low, high)}`` from ``samples`` fits on
    results drawn again pair by pair from their observed win/draw/loss shares (parametric bootstrap)."""
    rng = np.random.default_rng(seed)
    draws: dict[str, list] = {n: [] for n in names}
    for _ in range(samples):
        again = []
        for p in results:
            if not p.games:
                continue
            shares = np.array([p.wins, p.draws, p.losses], dtype=float) / p.games
            w, d, l = rng.multinomial(p.games, shares)
            again.append(PairResult(p.a, p.b, int(w), int(d), int(l)))
        for n, v in fit_elo(names, again, anchor=anchor).items():
            draws[n].append(v)
    return {n: (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))) for n, v in draws.items()}


def ranking(elo: dict, intervals: dict, results: list) -> list[dict]:
    """The leaderboard rows, best first: agent, Elo, its interval, games played."""
    games = {n: 0 for n in elo}
    for p in results:
        games[p.a] += p.games
        games[p.b] += p.games
    return [
        {"agent": n, "elo": elo[n], "low": intervals[n][0], "high": intervals[n][1], "games": games[n]}
        for n in sorted(elo, key=lambda n: -elo[n])
    ]


def format_ranking(rows: list[dict]) -> str:
    """The leaderboard as a Markdown table (with an exploitability column when the rows have one)."""
    extra = "exploit" in rows[0] if rows else False
    head = "| rank | agent | Elo | 95% interval | games |" + (" one-turn exploitability |" if extra else "")
    lines = [head, "|---:|---|---:|---|---:|" + ("---:|" if extra else "")]
    for i, r in enumerate(rows, 1):
        cells = f"| {i} | {r['agent']} | {r['elo']:+.0f} | [{r['low']:+.0f}, {r['high']:+.0f}] | {r['games']} |"
        lines.append(cells + (f" {r['exploit']:.3f} |" if extra else ""))
    return "\n".join(lines)


def add_exploitability(game: Game, specs: list, rows: list[dict], samples: int = 4, seed: int = 0) -> None:
    """Each row's ``exploit``: its agent's mean one-turn exploitability at the fixed positions of
    :mod:`boardgames.training.evaluation.exploit` (heuristic values, ``samples`` calls a position and seat)."""
    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.evaluation.exploit import evaluator_values, measure_fixed

    values = evaluator_values(game)
    by_name = dict(zip([agent_name(s) for s in specs], specs))
    for r in rows:
        fixed = measure_fixed(game, make_agent(by_name[r["agent"]], game, seed=seed), values, samples)
        r["exploit"] = float(np.mean([v for row in fixed for v in row[1:]]))


def save_ranking(out: Path, rows: list[dict], title: str) -> Path:
    """``leaderboard.csv`` and ``leaderboard.png`` (the ratings with their intervals) in ``out``; the
    picture's path."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "leaderboard.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["rank", "agent", "elo", "ci_low", "ci_high", "games", "exploitability"])
        for i, r in enumerate(rows, 1):
            exploit = f"{r['exploit']:.4f}" if "exploit" in r else ""
            w.writerow([i, r["agent"], f"{r['elo']:.1f}", f"{r['low']:.1f}", f"{r['high']:.1f}", r["games"], exploit])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.6))
    y = np.arange(len(rows))
    elo = np.array([r["elo"] for r in rows])
    err = np.clip([elo - [r["low"] for r in rows], [r["high"] for r in rows] - elo], 0.0, None)
    ax.errorbar(elo, y, xerr=err, fmt="o", color="#2f6fb0", ecolor="black", capsize=3)
    ax.set_yticks(y, [r["agent"] for r in rows])
    ax.invert_yaxis()
    ax.axvline(0, color="#999999", lw=0.8)
    ax.set_xlabel("Elo (random = 0), 95% bootstrap interval")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    picture = out / "leaderboard.png"
    fig.savefig(picture, dpi=100)
    plt.close(fig)
    return picture


def write_docs_section(key: str, body: str, docs: Path = DOCS) -> None:
    """Put ``body`` between the markers ``<!-- leaderboard:<key> -->`` and ``<!-- /leaderboard:<key> -->``
    of ``docs`` (added at the end, under a heading, when the file lacks them); the rest is untouched."""
    start, end = f"<!-- leaderboard:{key} -->", f"<!-- /leaderboard:{key} -->"
    text = docs.read_text() if docs.exists() else "# Leaderboards\n"
    block = f"{start}\n{body.strip()}\n{end}"
    if start in text and end in text:
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, text, count=1, flags=re.S)
    else:
        text = text.rstrip("\n") + f"\n\n## {key}\n\n{block}\n"
    docs.write_text(text)


def leaderboard(
    game: Game,
    specs: list,
    games: int,
    seed: int = 0,
    bootstrap: int = 100,
    show_progress: bool = True,
    jobs: int = 1,
    openings: int = 0,
    plan: bool = False,
) -> tuple:
    """Play the round robin of ``specs`` (each game after ``openings`` random plies, each opening from every
    side) and rate them: ``(results, rows)``. ``plan``: print the plan first (games, pairs, rough time) and show
    the time left estimated pair by pair (:mod:`boardgames.training.evaluation.plan`)."""
    names = [agent_name(s) for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"two agents would have the same name in the table: {names}")
    results, elo = round_robin(
        game, specs, games, seed, names=names, show_progress=show_progress, jobs=jobs, openings=openings, plan=plan
    )
    anchor = "random" if "random" in names else None
    intervals = bootstrap_elo(names, results, bootstrap, seed, anchor=anchor)
    return results, ranking(elo, intervals, results)


def main(argv: list | None = None) -> None:
    from boardgames.envs.registry import make_game

    p = argparse.ArgumentParser(
        prog="boardgames leaderboard",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p, choices=False)
    p.add_argument(
        "--agents",
        nargs="+",
        default=None,
        help="agent specs as boardgames evaluate takes them (default: the baselines and every shipped "
        "model of this game and player count)",
    )
    p.add_argument("--games", type=positive_int, default=200, help="games per pair (default 200)")
    p.add_argument("--bootstrap", type=positive_int, default=100, help="bootstrap fits for the intervals")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="output folder (default runs/leaderboard/<game>[_<n>p])")
    p.add_argument("--write-docs", action="store_true", help="update this game's section of docs/leaderboard.md")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="pairs played at once in processes of their own (the same games as one process)",
    )
    p.add_argument(
        "--exploitability",
        action="store_true",
        help="add each agent's one-turn exploitability at fixed positions (Barc; boardgames exploit --parts fixed)",
    )
    add_openings_argument(p)
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    apply_torch_threads(p, args)
    check_openings(p, args.openings)
    if args.exploitability and args.game != "barc":
        p.error("--exploitability is measured on the Barc duel only (the one game whose seats act at once)")
    options = game_options_of(args)
    game = make_game(args.game, **options)
    key = board_key(args.game, args.players)
    specs = args.agents or default_agents(args.game, args.players)
    if len(specs) < 3:
        p.error(f"a leaderboard needs three agents or more (with two, boardgames evaluate says it all), got {specs}")
    try:
        results, rows = leaderboard(
            game, specs, args.games, args.seed, args.bootstrap, not args.no_progress, args.jobs, args.openings, True
        )
    except (ValueError, FileNotFoundError) as e:
        p.error(str(e))
    if args.exploitability:
        add_exploitability(game, specs, rows, seed=args.seed)
    today = datetime.date.today().isoformat()
    opened = f", {args.openings}-ply random openings from both sides" if args.openings else ""
    title = f"{key}: {args.games} games per pair, seed {args.seed}{opened}, {today}"
    table = format_ranking(rows)
    print(title)
    print(table)
    out = Path(args.out or Path("runs") / "leaderboard" / key)
    picture = save_ranking(out, rows, title)
    save_results(out, results, {r["agent"]: r["elo"] for r in rows}, title)
    print(f"saved {out / 'leaderboard.csv'}, {picture.name} and the pairwise results.csv, elo.csv, results.png")
    if args.write_docs:
        images = DOCS.parent / "images"
        images.mkdir(parents=True, exist_ok=True)
        (images / f"leaderboard_{key}.png").write_bytes(picture.read_bytes())
        command = "boardgames leaderboard " + shlex.join(argv if argv is not None else _argv())
        note = EXPLOIT_NOTE if args.exploitability else ""
        body = (
            f"{title}. Command: `{command}`.\n\n{table}\n\n{note}![{key} leaderboard](images/leaderboard_{key}.png)\n"
        )
        write_docs_section(key, body)
        print(f"updated the {key} section of {DOCS}")


def _argv() -> list:
    import sys

    return sys.argv[1:]


if __name__ == "__main__":
    main()
