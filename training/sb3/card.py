"""Measure a shipped model and write its card: ``python -m boardgames.training.sb3.card models/dorix_2p``.

Reads ``<dir>/run.json`` (written by ``boardgames train --save <dir>/model.zip``: command,
steps, wall time), plays the model against random and greedy (``--games``, default 200) and against
MCTS (``--mcts-games`` games with ``--mcts-sims`` simulations) with
:func:`boardgames.training.evaluation.evaluate.round_robin`,
and writes ``<dir>/card.md`` (its machine-readable front matter by :mod:`boardgames.training.run.card`, then the
exact ``boardgames evaluate`` commands that reproduce
each figure), ``<dir>/results.csv`` / ``results.png`` and ``<dir>/meta.json`` (game, options, the test's
fixed-seed margin against random). ``--target`` states a target win rate against random
and ``--target-greedy`` the one against greedy; ``--notes`` adds a paragraph (what was tried).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from boardgames.training.torch_threads import add_torch_threads_argument, apply_torch_threads

TEST_GAMES = 40
TEST_SEED = 1


def evaluate_command(game: str, options: dict, agents: list, games: int, seed: int, first_only: bool = True) -> str:
    opts = "".join(f" --players {v}" if k == "num_players" else f" --option {k}={v}" for k, v in options.items())
    return f"boardgames evaluate --game {game}{opts} --agents {' '.join(agents)} --games {games} --seed {seed}" + (
        " --first-only" if first_only else ""
    )


def network_text(algo: dict) -> str:
    if algo.get("network", "mlp") == "conv":
        return (
            f"convolutional (`boardgames.training.sb3.networks.BoardPolicy`): "
            f"{algo.get('conv_channels', 32)} channels, "
            f"3x3 layers with dilations {list(algo.get('conv_dilations', (1, 2, 4, 2, 1)))}, "
            f"{algo.get('head', 'square')} policy head, value head"
        )
    return f"MLP {algo.get('net_arch')} (policy and value), observation flattened"


def pretrain_text(run: dict) -> list:
    p = run.get("pretrain")
    if not p:
        return []
    return [
        f"| pretraining | behaviour cloning of `{p['teacher']}`: {p['games']} games against "
        f"{p['opponents'] or ['random', p['teacher']]}, {p['positions']:,} positions, {p['epochs']} epochs; "
        f"arg-max agrees with the teacher on {100 * p['agreement']:.1f}% of them; "
        f"{p['wall_time_s'] / 60:.1f} min (in the wall time) |"
    ]


def card_lines(
    d: Path, run: dict, game, spec: str, mcts_spec: str, results: list, elo: dict, args, margin: float, test
) -> list:
    """The card's Markdown lines after the front matter: what trained the model, the measured table, the
    reproducing commands, the targets and notes of ``args`` and the shipped-model test's threshold."""
    from boardgames.training.evaluation.evaluate import agent_name, format_table

    game_name, options = run["game"], run["game_options"]
    vs = {r.b: r for r in results if r.a == agent_name(spec)}
    rnd, grd = vs["random"], vs["greedy"]
    sides = "team" if len(set(game.info.teams)) < game.info.num_seats else "seat"
    settings = ", ".join(f"{k}={v}" for k, v in options.items())
    lines = [f"# {d.name}: MaskablePPO agent for {game_name}" + (f" ({settings})" if settings else ""), ""]
    lines += [
        "| | |",
        "|---|---|",
        f"| trained by | `{run['command']}` |",
        f"| steps | {run['steps']:,} |",
        f"| wall time | {run['wall_time_s'] / 60:.1f} min on a shared 2-core CPU, no GPU |",
        f"| network | {network_text(run['config']['algo'])} |",
        *pretrain_text(run),
        f"| self-play | opponents drawn from {run['config']['opponents']} (random, greedy, learner snapshots) |",
        "",
        "## Measured results",
        "",
        f"The model plays as one {sides}; the opponent agent "
        f"plays every other seat; sides alternate between games. Win rates with 95% Wilson intervals.",
        "",
        "```",
        format_table(results, elo),
        "```",
        "",
    ]
    for label, r in (("random", rnd), ("greedy", grd), (mcts_spec, vs[agent_name(mcts_spec)])):
        lo, hi = r.win_interval()
        lines.append(
            f"- against {label}: **{100 * r.win_rate:.1f}%** wins, {100 * r.draws / r.games:.1f}% draws "
            f"over {r.games} games (95% CI of the win rate {100 * lo:.1f}–{100 * hi:.1f}%)"
        )
    if args.sampled:
        lines += [
            "",
            "The model is measured **sampling** its policy over the legal actions (`sample:` agent spec), "
            "the way it was trained: its arg-max play repeats itself into draws.",
        ]
    lines += [
        "",
        "Elo: one Bradley-Terry fit over every game in the table (random = 0).",
        "",
        "Reproduce (same seed, same figures):",
        "",
        "```",
        evaluate_command(game_name, options, [spec, "random", "greedy"], args.games, args.seed, False),
        evaluate_command(game_name, options, [spec, mcts_spec], args.mcts_games, args.seed),
        "```",
        "",
    ]
    if args.target is not None or args.target_greedy is not None:
        lines += ["## Target", ""]
        for label, target, r in (("random", args.target, rnd), ("greedy", args.target_greedy, grd)):
            if target is None:
                continue
            status = "**met**" if r.win_rate >= target else "**missed**"
            lines.append(f"- at least {100 * target:.0f}% wins against {label}: {status} ({100 * r.win_rate:.1f}%)")
        lines.append("")
    if args.notes:
        lines += ["## Notes", "", args.notes, ""]
    lines += [
        f"The test `tests/training/test_shipped_models.py` plays a fixed-seed match of {TEST_GAMES} games "
        f"against random (seed {TEST_SEED}) and requires at least {100 * margin:.0f}% wins "
        f"(measured {100 * test.win_rate:.0f}% when this card was written).",
        "",
    ]
    return lines


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m boardgames.training.sb3.card", description=__doc__.split("\n\n")[0])
    p.add_argument("model_dir")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--mcts-games", type=int, default=40)
    p.add_argument("--mcts-sims", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--target", type=float, default=None, help="target win rate against random (0..1)")
    p.add_argument("--target-greedy", type=float, default=None, help="target win rate against greedy (0..1)")
    p.add_argument("--notes", default="", help="free text added to the card")
    p.add_argument("--sampled", action="store_true", help="the model samples its policy (sample:<dir>)")
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    apply_torch_threads(p, args)

    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.evaluation.evaluate import (
        agent_name,
        fit_elo,
        play_match,
        round_robin,
        save_results,
    )
    from boardgames.training.run.card import card_metadata, with_front_matter
    from boardgames.training.storage.model_version import model_game, version_record

    d = Path(args.model_dir)
    run = json.loads((d / "run.json").read_text())
    game_name, options = run["game"], run["game_options"]
    game = model_game(game_name, options, run)
    # the model's metadata first (a previous model's meta.json would name its own version), the test after
    first_meta = {"game": game_name, "game_options": options, **version_record(game)}
    (d / "meta.json").write_text(json.dumps(first_meta) + "\n")
    spec = f"sample:{d}" if args.sampled else str(d)
    base, _ = round_robin(game, [spec, "random", "greedy"], args.games, args.seed)
    mcts_spec = f"mcts:{args.mcts_sims}"
    mcts, _ = round_robin(game, [spec, mcts_spec], args.mcts_games, args.seed, first_only=True)
    results = base + mcts
    elo = fit_elo([agent_name(spec), "random", "greedy", agent_name(mcts_spec)], results)
    save_results(d, results, elo, f"{d.name}: {args.games} games vs random/greedy, {args.mcts_games} vs {mcts_spec}")
    test = play_match(
        game,
        make_agent(spec, game, seed=TEST_SEED),
        make_agent("random", game, seed=TEST_SEED + 1),
        TEST_GAMES,
        seed=TEST_SEED,
    )
    margin = max(0.0, round(test.win_rate - 0.1, 2))
    meta = {
        "game": game_name,
        "game_options": options,
        **version_record(game),
        "algorithm": run["config"]["train"].get("algorithm"),
        "sampled": bool(args.sampled),
        "test": {"games": TEST_GAMES, "seed": TEST_SEED, "min_win_rate_vs_random": margin, "measured": test.win_rate},
    }
    (d / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")

    lines = card_lines(d, run, game, spec, mcts_spec, results, elo, args, margin, test)
    algorithm = run["config"]["train"].get("algorithm") or "maskable_ppo"
    meta = card_metadata(results, family="sb3", algorithm=algorithm, game=game_name, options=options,
                         env_version=int(game.version), seed=args.seed, elo=elo)  # fmt: skip
    (d / "card.md").write_text(with_front_matter(meta, "\n".join(lines)))
    print((d / "card.md").read_text())


if __name__ == "__main__":
    main()
