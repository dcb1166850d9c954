"""Measure a trained AlphaZero network and write its card:
``python -m boardgames.training.alphazero.card models/dorix_2p_az --run runs/az_dorix_2p [--ppo models/dorix_2p]``.

Copies the run's ``latest/`` network into the model folder (unless it is there already), reads the run's
``run.json`` (command, iterations, wall time, settings), then plays the agent (its default simulations,
``--simulations`` to change them) against random and greedy (``--games-baselines`` games each) and
against its targets (``--games`` games each, default 200): MCTS-400 and the game's PPO model
(``--ppo``), sides alternating. For each pair the card gives the score and the Elo difference it implies
with a 95% bootstrap interval, and whether the target (+200 Elo) is met; ``<dir>/results.csv`` holds the
games, and the exact ``boardgames evaluate`` commands reproduce them. The card opens with its machine-readable
front matter (:mod:`boardgames.training.run.card`). ``--jobs N`` plays the pairs in N
processes at once, each pair's games the same as in one process.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
from pathlib import Path

from boardgames.training.torch_threads import add_torch_threads_argument, apply_torch_threads

TARGET_ELO = 200
TARGET_GAMES = 200


def target_status(gap: float, games: int) -> str:
    """A target's cell: met or missed by the Elo difference ``gap``, and said to rest on too few games when
    the pair played fewer than :data:`TARGET_GAMES`."""
    status = "**met**" if gap >= TARGET_ELO else "**missed**"
    return status if games >= TARGET_GAMES else f"{status} on {games} games (the target asks {TARGET_GAMES})"


def elo_of_score(score: float) -> float:
    """The Elo difference a score (draws counted half) implies, capped at +-800 for perfect scores."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return max(-800.0, min(800.0, 400 * math.log10(score / (1 - score))))


def card_matches(game, spec: str, opponents: list, args) -> list:
    """The card's pairs, in its order: ``spec`` against random and greedy (``args.games_baselines`` games,
    seed ``args.seed``), then against each of ``opponents`` (``args.games`` games, seeds ``args.seed + 1``
    on), each pair seeded as ``boardgames evaluate --first-only`` seeds it so that the card's reproduce
    commands replay it; ``args.jobs`` > 1 plays the pairs in that many processes at once."""
    from boardgames.training.evaluation.evaluate import agent_name, play_pairs_in_processes, round_robin

    matches = [([spec, "random", "greedy"], args.games_baselines, args.seed)]
    matches += [([spec, opp], args.games, args.seed + 1 + i) for i, opp in enumerate(opponents)]
    if args.jobs <= 1:
        opening = {"openings": args.openings} if args.openings else {}
        results = []
        for specs, games, seed in matches:
            results += round_robin(game, specs, games, seed, first_only=True, **opening)[0]
        return results
    tasks = [
        (specs, [agent_name(s) for s in specs], 0, j, games, seed)
        for specs, games, seed in matches
        for j in range(1, len(specs))
    ]
    return play_pairs_in_processes(game, tasks, args.jobs, openings=args.openings)


def header_rows(run: dict, simulations: int, folder: str, meta: dict | None = None) -> list:
    """The card's table of how the agent was made, from the run's ``run.json`` (``run``): the commands
    (marked when the run was stopped before its ``iterations``), the warm start if any, iterations,
    wall time, network, self-play search (:func:`self_play_search`), simulations in play and how it plays
    (``meta``, its ``alphazero.json``: :func:`mixed_play`)."""
    s = run["settings"]
    stopped = f" (stopped by hand after iteration {run['iterations']})" if run["iterations"] < s["iterations"] else ""
    teacher = run.get("teacher") or {}
    taught = int(teacher.get("samples", 0))
    teacher_rows = (
        [
            f"| warm start | {teacher['games']} games of `{teacher['teacher']}` against itself ({taught:,} positions), "
            f"{s['teacher_steps']} gradient steps on them before self-play (docs/alphazero.md) |"
        ]
        if teacher
        else []
    )
    start = run.get("started_from")
    if start:
        teacher_rows.insert(
            0, f"| starts from | the network of `{start['folder']}` ({start['iterations']} iterations of its own run) |"
        )
    actors = run.get("actors")
    where = (
        f"{actors['count']} Ray self-play actors on {actors['nodes']} node(s) and the learner (last command)"
        if isinstance(actors, dict)
        else "self-play and learner in one process"
    )
    search = self_play_search(s)
    commands = " then ".join(f"`{c}`" for c in run.get("commands", [run["command"]]))
    return [
        "| | |",
        "|---|---|",
        f"| trained by | {commands}{stopped} |",
        *teacher_rows,
        f"| iterations | {run['iterations']} ({run['samples_added'] - taught:,} positions of self-play) |",
        f"| wall time | {run['wall_seconds'] / 60:.0f} min on a shared 2-core CPU (torch on 1 thread), no GPU; "
        f"{where} |",
        f"| network | residual CNN, {s['channels']} channels x {s['blocks']} blocks, {s['head']} policy head, "
        f"per-seat value head (training/alphazero/network.py) |",
        f"| self-play | {search}, {s['parallel']} games in lock step |",
        f"| plays with | {simulations} simulations a move{mixed_play(meta or {})} (`{folder}@N` for another count) |",
    ]


def self_play_search(s: dict) -> str:
    """The card's words for a run's self-play search (its ``settings``, ``s``): Gumbel, regret matching or
    Exp3 (simultaneous games), or PUCT with root noise."""
    if s.get("gumbel"):
        return (
            f"Gumbel root selection ({s['max_considered']} actions considered, sequential halving), "
            f"{s['simulations']} simulations a move"
        )
    if s.get("rule", "puct") != "puct":
        name = "regret matching" if s["rule"] == "regret" else "Exp3"
        return (
            f"{name} at every node (exploration share {s['gamma']}), {s['simulations']} simulations a move; "
            "policy targets and orders from each seat's average strategy at the root"
        )
    return (
        f"PUCT c={s['c']}, {s['simulations']} simulations a move, Dirichlet({s['noise_alpha']}) x "
        f"{s['noise_fraction']} at the root"
    )


def mixed_play(meta: dict) -> str:
    """How a model trained with a simultaneous rule plays, from its ``alphazero.json`` (``meta``); "" for PUCT."""
    rule = meta.get("rule", "puct")
    if rule == "puct":
        return ""
    name = "regret matching" if rule == "regret" else "Exp3"
    return (
        f", {name} (exploration share {meta.get('gamma', 0.3)}), its order drawn from the average strategy at "
        f"temperature {meta.get('temperature', 1.0)}"
    )


def exploitability_section(game, spec: str, games: int, seed: int) -> list:
    """The card's section for a game whose seats act at once: ``boardgames exploit``'s one-turn
    exploitability at the fixed positions and, with ``games``, the predicting best-responder's score over
    that many games, with the command that reproduces them (a rating alone does not say how predictable
    a player is: issue 47)."""
    from boardgames.training.evaluation.exploit import exploit

    parts = ("play", "fixed") if games > 0 else ("fixed",)
    report = exploit(game, spec, parts, games=max(games, 1), seed=seed)
    command = f"boardgames exploit --agent {spec} --parts {','.join(parts)}"
    command += f" --games {games}" if games > 0 else ""
    return [
        "## Exploitability (docs/search.md)",
        "",
        "```",
        *report.lines(),
        "```",
        "",
        "Reproduce:",
        "",
        "```",
        f"{command} --seed {seed}",
        "```",
        "",
    ]


def main(argv: list | None = None) -> None:
    from boardgames.training.evaluation.evaluate import add_openings_argument, check_openings

    p = argparse.ArgumentParser(
        prog="python -m boardgames.training.alphazero.card", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("model_dir")
    p.add_argument("--run", required=True, help="the training run folder (run.json, latest/)")
    p.add_argument("--ppo", default=None, help="the game's PPO model (default: models/<board>)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--games-baselines", type=int, default=100)
    p.add_argument("--simulations", type=int, default=None)
    p.add_argument("--extra", nargs="*", default=[], help="more opponents (agent specs), --games games each")
    p.add_argument("--seed", type=int, default=0)
    add_openings_argument(p)
    p.add_argument("--jobs", type=int, default=1, help="pairs played at once in processes of their own")
    p.add_argument(
        "--exploit-games",
        type=int,
        default=0,
        help="games whose seats act at once: also play the predicting best-responder this many games "
        "(boardgames exploit's measure (a); the one-turn measure (b) is always taken)",
    )
    p.add_argument("--notes", default="", help="a paragraph for the card (text, or @file to read it from)")
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    apply_torch_threads(p, args)
    check_openings(p, args.openings)
    if args.jobs < 1:
        p.error(f"--jobs must be at least 1, not {args.jobs}")

    from boardgames.envs.registry import make_game
    from boardgames.training.evaluation.evaluate import PairResult, fit_elo, format_table, save_results
    from boardgames.training.evaluation.leaderboard import board_key, bootstrap_elo
    from boardgames.training.run.card import card_metadata, with_front_matter
    from boardgames.training.storage.shipped import find_model

    d, run_dir = Path(args.model_dir), Path(args.run)
    run = json.loads((run_dir / "run.json").read_text())
    if not (d / "alphazero.pt").exists():
        shutil.copytree(run_dir / "latest", d, dirs_exist_ok=True)
    meta = json.loads((d / "alphazero.json").read_text())
    if args.simulations:
        meta["simulations"] = args.simulations
        (d / "alphazero.json").write_text(json.dumps(meta, indent=1) + "\n")
    game_name, options = meta["game"], meta["options"]
    game = make_game(game_name, **options)
    players = options.get("num_players")
    board = board_key(game_name, players)
    ppo = args.ppo or f"models/{board}"
    spec = str(d)
    me = d.name
    targets = ["mcts:400"] + ([ppo] if find_model(ppo.removeprefix("sample:")) else [])
    results = card_matches(game, spec, targets + list(args.extra), args)
    names = [me, "random", "greedy", *[x.a if x.a != me else x.b for x in results[2:]]]
    elo = fit_elo(names, results)
    save_results(d, results, elo, f"{me}: {args.games_baselines} games vs random/greedy, {args.games} vs the rest")

    opts = "".join(f" --players {v}" if k == "num_players" else f" --option {k}={v}" for k, v in options.items())
    opts += f" --openings {args.openings}" if args.openings else ""
    lines = [f"# {me}: AlphaZero agent for {game_name}" + (f" ({players} players)" if players else ""), ""]
    lines += [
        *header_rows(run, meta["simulations"], str(d), meta),
        "",
        "## Measured results",
        "",
        "The agent plays as one side, the opponent every other seat; sides alternate between games"
        + (
            f"; every game starts after {args.openings} random plies, each opening played from both sides."
            if args.openings
            else "."
        ),
        "",
        "```",
        format_table(results, elo),
        "```",
        "",
        "## Targets (at least +200 Elo, over at least 200 games per pair)",
        "",
        "| opponent | games | score | Elo difference | 95% interval | target |",
        "|---|---:|---:|---:|---|---|",
    ]
    for spec_, r in zip(targets + list(args.extra), results[2:]):
        other = r.b
        gap = elo_of_score(r.score)
        pair = [PairResult(me, other, r.wins, r.draws, r.losses)]
        lo_hi = bootstrap_elo([me, other], pair, 200, args.seed, other)[me]
        status = "-" if spec_ not in targets else target_status(gap, r.games)
        lines.append(
            f"| {spec_} | {r.games} | {100 * r.score:.1f}% | {gap:+.0f} "
            f"| [{lo_hi[0]:+.0f}, {lo_hi[1]:+.0f}] | {status} |"
        )
    lines += [
        "",
        "Elo differences from the score (draws half); intervals from a parametric bootstrap of the games.",
        "",
        "Reproduce:",
        "",
        "```",
        f"boardgames evaluate --game {game_name}{opts} --agents {spec} random greedy "
        f"--games {args.games_baselines} --seed {args.seed} --first-only",
    ]
    for i, opp in enumerate(targets + list(args.extra)):
        lines.append(
            f"boardgames evaluate --game {game_name}{opts} --agents {spec} {opp} --games {args.games} "
            f"--seed {args.seed + 1 + i} --first-only"
        )
    lines += ["```", ""]
    if game.info.acting_seats > 1:
        lines += exploitability_section(game, spec, args.exploit_games, args.seed)
    if args.notes:
        notes = Path(args.notes[1:]).read_text().strip() if args.notes.startswith("@") else args.notes
        lines += ["## Notes", "", notes, ""]
    meta = card_metadata(results, family="alphazero", algorithm="alphazero", game=game_name, options=options,
                         env_version=int(game.version), seed=args.seed, elo=elo)  # fmt: skip
    (d / "card.md").write_text(with_front_matter(meta, "\n".join(lines)))
    print((d / "card.md").read_text())


if __name__ == "__main__":
    main()
