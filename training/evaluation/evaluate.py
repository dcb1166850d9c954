"""Play agents and saved models against each other: ``boardgames evaluate``.

Examples::

    boardgames evaluate --game dorix --players 2 --agents models/dorix_2p random greedy --games 200
    boardgames evaluate --game dorix --players 4 --agents models/dorix_4p random --games 200 --first-only

Every pair of agents (a round robin; ``--first-only`` keeps the pairs with the first agent) plays
``--games`` games. In a game "A against B", A plays every seat of one side (a seat, or a team at
team games) and B every other seat; the side A takes rotates from game to game, so seats are swapped
evenly (at 3 players: A alone against two copies of B). A game counts for A as a win when A's return
is positive, a loss when negative, a draw otherwise (a draw includes a game stopped by the turn limit).

Prints the win/draw/loss table with 95% Wilson confidence intervals on A's win rate and, with three
agents or more, an Elo rating per agent (Bradley-Terry fit on all games, draws counted half; ``random``
anchored at 0 when present; see :data:`ELO_MEANING`), and saves ``<out>/results.csv``,
``<out>/elo.csv`` and ``<out>/results.png``. With two agents the rating would only restate the one score of
the table (and a sweep's figure would be set by the fit's prior), so it is not printed. An earlier
evaluation is never overwritten silently: the default folder ``runs/eval/<game>`` goes on to
``runs/eval/<game>-2``, ``-3``... when it holds results (the output says which), and an ``--out`` folder
that holds results is refused unless ``--overwrite``.
Agent specs (:data:`AGENT_SPECS`): ``random``, ``greedy``, ``mcts`` / ``mcts:<simulations>``, a saved
model (``.zip`` or a folder; arg-max over the legal actions), a shipped model by name
(``models/dorix_2p``), or ``sample:<model>`` (the model samples its policy instead).
Runs are reproducible for a given ``--seed``. ``--openings PLIES`` starts every game after PLIES random
legal decisions, each opening played once from every side: two agents that choose deterministically (a
search without noise, an arg-max policy) would otherwise play the same game again and again.
``--save-games N`` keeps the first N games of each pair as
move lists in ``<out>/games/`` (the ``--save-moves`` format; ``boardgames web --replay FILE`` shows
one in the browser).
"""

from __future__ import annotations

import argparse
import csv
import math
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from boardgames.envs.agents import DEFAULT_SIMULATIONS
from boardgames.envs.agents.play import play_game
from boardgames.envs.core.game import Game
from boardgames.envs.tools.replay import GameRecord
from boardgames.training.agent_kinds import make_agent, shipped_models
from boardgames.training.cli import (
    add_game_arguments,
    add_torch_threads_argument,
    apply_torch_threads,
    game_options_of,
    positive_int,
)

AGENT_SPECS = """agent specs (--agents):
  random          uniformly random legal moves
  greedy          the game's one-move heuristic (envs/<game>/heuristic.py)
  mcts, mcts:N    Monte-Carlo tree search with N simulations per move (mcts alone: {mcts})
  PATH.zip, DIR   a saved model (arg-max over the legal actions), e.g. runs/dorix_2p_s0/final.zip
  models/NAME     a shipped model by name: {shipped}
  rllib:PATH      a policy exported by boardgames rllib (policy.pt or its run folder)
  sample:MODEL    the model drawing its moves from its policy instead of the arg-max"""

ELO_MEANING = (
    "one Bradley-Terry fit over every game above, draws counted half; a difference of 400 "
    "means 10-to-1 odds; {anchor}; a perfect score is kept finite by a prior of one draw against "
    "the average agent, so an unbeaten agent's figure is a floor, not a measurement"
)


@dataclass
class PairResult:
    """Results of agent ``a`` against agent ``b`` (counted for ``a``)."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    records: list = field(default_factory=list, repr=False)
    """The games kept by ``save_games`` (:class:`boardgames.envs.tools.replay.GameRecord`), in the order played."""
    outcomes: list = field(default_factory=list, repr=False)
    """``a``'s return in each game, in the order played (game ``g`` with ``a`` on side ``g % sides``)."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def win_interval(self, z: float = 1.96) -> tuple:
        return wilson_interval(self.wins, self.games, z)

    def seat_decided(self) -> tuple[int, int]:
        """``(decided, pairs)`` for a two-sided game whose games come in pairs from one opening (``a`` on
        the first side, then on the second: :func:`play_match` with ``openings``): how many pairs the same
        side won both times, so that the opening rather than the agents decided them (such a pair scores
        50% for either agent), out of the complete pairs."""
        pairs = len(self.outcomes) // 2
        decided = sum(
            1
            for k in range(pairs)
            if self.outcomes[2 * k] * self.outcomes[2 * k + 1] < 0  # one win, one loss: the same side won twice
        )
        return decided, pairs


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


MAX_OPENING_PLIES = 50


def random_openings(game: Game, count: int, plies: int, seed: int) -> list:
    """``count`` openings, each ``(state, moves)``: the position reached from the initial one by ``plies``
    decisions of uniformly random legal actions (every acting seat's, at simultaneous turns) and those
    decisions in the records' notation. An opening that ends the game is drawn again (up to 100 times,
    then ValueError: ``plies`` is too many for this game)."""
    if not 0 <= plies <= MAX_OPENING_PLIES:
        raise ValueError(f"opening plies must be 0..{MAX_OPENING_PLIES}, got {plies}")
    rng = np.random.default_rng([seed, plies, 104729])
    openings = []
    for _ in range(count):
        for _attempt in range(100):
            state, moves = game.new_initial_state(), []
            for _ply in range(plies):
                actions = {seat: int(rng.choice(state.legal_actions(seat))) for seat in state.current_seats()}
                moves.append(state.move_of(actions))
                state.apply_actions(actions)
                if state.is_terminal():
                    break
            if not state.is_terminal():
                openings.append((state, moves))
                break
        else:
            raise ValueError(f"{game.info.name}: 100 random openings of {plies} plies all ended the game")
    return openings


def add_openings_argument(p: argparse.ArgumentParser) -> None:
    """The ``--openings PLIES`` option of the commands that play matches (evaluate, leaderboard, the AlphaZero
    card); :func:`check_openings` checks its value."""
    p.add_argument(
        "--openings",
        type=int,
        default=0,
        metavar="PLIES",
        help="start every game after PLIES random legal decisions, each opening played from every side "
        "(default 0: the initial position; deterministic agents then repeat the same games)",
    )


def check_openings(p: argparse.ArgumentParser, plies: int) -> None:
    """A usage error (exit status 2) naming ``--openings`` when ``plies`` is out of 0..:data:`MAX_OPENING_PLIES`."""
    if not 0 <= plies <= MAX_OPENING_PLIES:
        p.error(f"--openings must be 0..{MAX_OPENING_PLIES} plies, got {plies}")


def play_match(
    game: Game,
    agent_a,
    agent_b,
    games: int,
    seed: int = 0,
    name_a: str = "A",
    name_b: str = "B",
    progress=None,
    save_games: int = 0,
    openings: int = 0,
) -> PairResult:
    """``games`` games of A against B, A taking each side in turn (see the module docstring); the first
    ``save_games`` are kept as records in ``result.records`` (the move lists ``--save-games`` writes).
    ``openings`` > 0: each game starts after that many random plies (:func:`random_openings`), and each
    opening is played once from every side, so that deterministic agents (a search without noise, an
    arg-max policy) play different games and neither side profits from a lucky opening."""
    result = PairResult(name_a, name_b)
    side_list = game.info.sides()
    rng = np.random.default_rng(seed)
    starts = None
    if openings:
        drawn = random_openings(game, -(-games // len(side_list)), openings, seed)
        starts = [drawn[g // len(side_list)] for g in range(games)]
    if hasattr(agent_a, "act_batch") or hasattr(agent_b, "act_batch"):
        return _play_match_side_by_side(game, agent_a, agent_b, games, rng, result, progress, save_games, starts)
    for g in range(games):
        side = side_list[g % len(side_list)]
        seat_agents = [agent_a if s in side else agent_b for s in range(game.info.num_seats)]
        _seed_agents((agent_a, agent_b), rng)
        moves: list = list(starts[g][1]) if starts else []
        note = (lambda st, actions, moves=moves: moves.append(st.move_of(actions))) if g < save_games else None
        # checked moves: an agent's illegal move is an error
        state = play_game(starts[g][0].clone() if starts else game, seat_agents, on_decision=note)
        if note is not None:
            result.records.append(GameRecord(game.new_initial_state(), moves))
        _count(result, float(state.returns()[side[0]]), progress)
    return result


def _seed_agents(agents, rng) -> None:
    """Each of ``agents`` that takes a seed seeded from ``rng``."""
    for agent in agents:
        if hasattr(agent, "seed"):
            agent.seed(int(rng.integers(2**31)))


def _count(result: PairResult, r: float, progress) -> None:
    """One game counted in ``result`` by the first agent's return ``r`` (a win, a loss or a draw); then
    ``progress()`` when given."""
    result.outcomes.append(r)
    if r > 0:
        result.wins += 1
    elif r < 0:
        result.losses += 1
    else:
        result.draws += 1
    if progress is not None:
        progress()


SIDE_BY_SIDE = 64  # games played at once when an agent searches in batches


def _play_match_side_by_side(
    game: Game, agent_a, agent_b, games: int, rng, result: PairResult, progress, save_games: int = 0, starts=None
) -> PairResult:
    """:func:`play_match` for agents that act in batches (``act_batch``, e.g. AlphaZero): up to
    :data:`SIDE_BY_SIDE` games at once, sides alternating the same way; each agent is seeded once per
    group of games instead of once per game."""
    from boardgames.envs.agents.play import play_games_side_by_side

    side_list = game.info.sides()
    for start in range(0, games, SIDE_BY_SIDE):
        group = range(start, min(games, start + SIDE_BY_SIDE))
        _seed_agents((agent_a, agent_b), rng)
        sides = [side_list[g % len(side_list)] for g in group]
        seatings = [[agent_a if s in side else agent_b for s in range(game.info.num_seats)] for side in sides]
        moves: dict = {i: list(starts[g][1]) if starts else [] for i, g in enumerate(group) if g < save_games}

        def note(i, st, actions, moves=moves):
            if i in moves:
                moves[i].append(st.move_of(actions))

        finals = play_games_side_by_side(
            game,
            seatings,
            on_decision=note if moves else None,
            starts=[starts[g][0] for g in group] if starts else None,
        )
        result.records += [GameRecord(game.new_initial_state(), moves[i]) for i in sorted(moves)]
        for side, state in zip(sides, finals):
            _count(result, float(state.returns()[side[0]]), progress)
    return result


def fit_elo(names: list, results: list, anchor: str | None = "random", iterations: int = 100) -> dict:
    """Bradley-Terry ratings on the Elo scale (400 log10) from pairwise scores, draws counted half.

    The ratings solve "expected score = actual score" for every agent, with a weak prior (one virtual
    draw against the average agent) so that a perfect score gives a large but finite rating; solved by
    Newton's method (a few iterations; at most ``iterations``). ``anchor`` is set to 0 when present,
    else the mean.
    """
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    played = [p for p in results if p.games]
    a = np.array([idx[p.a] for p in played], dtype=np.int64)
    b = np.array([idx[p.b] for p in played], dtype=np.int64)
    score = np.array([p.wins + 0.5 * p.draws for p in played], dtype=float)
    games = np.array([p.games for p in played], dtype=float)
    c = math.log(10) / 400
    centre = np.eye(k) - 1.0 / k  # d(r_i - mean)/dr
    r = np.zeros(k)
    for _ in range(iterations):
        e = 1 / (1 + np.exp(-c * (r[a] - r[b])))
        surprise = score - games * e  # A's actual minus expected score, per pair
        prior = 1 / (1 + np.exp(-c * (r - r.mean())))
        grad = np.bincount(a, surprise, k) - np.bincount(b, surprise, k) + 0.5 - prior
        slope = c * games * e * (1 - e)
        jac = -c * (prior * (1 - prior))[:, None] * centre
        np.add.at(jac, (a, a), -slope)
        np.add.at(jac, (b, b), -slope)
        np.add.at(jac, (a, b), slope)
        np.add.at(jac, (b, a), slope)
        move = np.linalg.lstsq(jac, -grad, rcond=None)[0]  # ratings are free up to a common shift
        r += np.clip(move, -400.0, 400.0)  # a bounded step keeps the first iterations stable
        if np.abs(move).max() < 1e-9:
            break
    shift = r[idx[anchor]] if anchor in idx else r.mean()
    return {n: float(r[idx[n]] - shift) for n in names}


def _pair_seed(seed: int, i: int, j: int) -> int:
    """The seed of the match between agents ``i`` and ``j`` of a round robin seeded ``seed``."""
    return seed * 7919 + 31 * i + j


def _pair_match(
    game: Game,
    pair: tuple,
    names: list,
    i: int,
    j: int,
    games: int,
    seed: int,
    save_games: int,
    openings: int,
    progress=None,
) -> PairResult:
    """The match of a round robin between its agents ``i`` and ``j`` (``pair``): :func:`play_match` with the
    pair's seed and names."""
    agent_a, agent_b = pair
    return play_match(
        game,
        agent_a,
        agent_b,
        games,
        seed=_pair_seed(seed, i, j),
        name_a=names[i],
        name_b=names[j],
        progress=progress,
        save_games=save_games,
        openings=openings,
    )


def _play_pair(
    game: Game, specs: list, names: list, i: int, j: int, games: int, seed: int, save_games: int, openings: int = 0
):
    """One pair of a round robin in a process of its own (:func:`round_robin` with ``jobs``): the agents
    are made as the serial loop makes them and reseeded by :func:`play_match` as there, so the games are
    the same."""
    from boardgames.training.torch_threads import use_torch_threads

    use_torch_threads(1)  # the jobs share the cores: one thread each
    a, b = make_agent(specs[i], game, seed=seed + i), make_agent(specs[j], game, seed=seed + j)
    return _pair_match(game, (a, b), names, i, j, games, seed, save_games, openings)


def round_robin(
    game: Game,
    specs: list,
    games: int,
    seed: int = 0,
    first_only: bool = False,
    names: list | None = None,
    show_progress: bool = True,
    save_games: int = 0,
    jobs: int = 1,
    openings: int = 0,
    plan: bool = False,
) -> tuple:
    """Play every pair (or the first agent against each other); returns ``(results, elo)`` (the first
    ``save_games`` games of each pair kept in its ``records``). ``jobs`` > 1 plays the pairs in that many
    processes at once (the same games as one process: each match is seeded by its pair alone); ``openings``
    random plies start every game (:func:`play_match`). ``plan``: print the plan first (games, pairs, rough
    time: :mod:`boardgames.training.evaluation.plan`) and show the time left estimated pair by pair."""
    names = names or [agent_name(s) for s in specs]
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs)) if not first_only or i == 0]
    if jobs > 1:
        return _round_robin_in_processes(
            game, specs, names, pairs, games, seed, show_progress, save_games, jobs, openings, plan
        )
    agents = [make_agent(s, game, seed=seed + i) for i, s in enumerate(specs)]
    remaining = _announce_plan(game, agents, names, pairs, games, 1, seed) if plan else None
    results = []
    with _games_bar(games * len(pairs), show_progress, remaining) as bar:
        for k, (i, j) in enumerate(pairs):

            def played(k=k):
                if remaining is not None:
                    remaining.played(k)
                bar.set_postfix_str(_bar_note(names, pairs[k], remaining), refresh=False)
                bar.update(1)

            bar.set_postfix_str(_bar_note(names, (i, j), remaining))
            results.append(
                _pair_match(game, (agents[i], agents[j]), names, i, j, games, seed, save_games, openings, played)
            )
    return results, fit_elo(names, results)


def _announce_plan(game: Game, agents: list, names: list, pairs: list, games: int, jobs: int, seed: int):
    """Print the plan of a round robin (:func:`boardgames.training.evaluation.plan.format_plan`) and return its
    :class:`~boardgames.training.evaluation.plan.Remaining`."""
    from boardgames.training.evaluation.plan import Remaining, format_plan, make_plan

    print(f"measuring the move time of {len(agents)} agents for the plan...", flush=True)
    made = make_plan(game, agents, names, pairs, games, jobs, seed, batch=min(games, SIDE_BY_SIDE))
    print(format_plan(made), flush=True)
    return Remaining(made)


def _games_bar(total: int, show_progress: bool, remaining):
    """The round robin's progress, in games: a bar on a terminal (with a plan, the time left is the plan's,
    :class:`~boardgames.training.evaluation.plan.Remaining`, not the bar's own rate-based guess), a plain line
    every 30 seconds elsewhere (a log, ``tee``, CI), where a bar would show only at the end."""
    from boardgames.training.progress import is_terminal

    if not (is_terminal(sys.stdout) and is_terminal(sys.stderr)):
        return _GamesLines(total, show_progress)
    from tqdm import tqdm

    form = None
    if remaining is not None:
        form = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} games [{elapsed}{postfix}]"
    return tqdm(total=total, desc="evaluating", unit="game", disable=not show_progress, bar_format=form)


class _GamesLines:
    """The part of tqdm's interface the round robin uses (``update``, ``set_postfix_str``, a context), told as
    :class:`~boardgames.training.progress.Progress` lines: one every 30 seconds and one at the end."""

    def __init__(self, total: int, enabled: bool):
        from boardgames.training.progress import Progress

        self.progress = Progress(total, unit="games", desc="evaluating", enabled=enabled, terminal=False)

    def update(self, n: int = 1) -> None:
        self.progress.update(self.progress.done + n)

    def set_postfix_str(self, note: str, refresh: bool = True) -> None:
        self.progress.note = note

    def close(self) -> None:
        self.progress.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _bar_note(names: list, pair: tuple | None, remaining) -> str:
    """The bar's note: the pair playing, and the time left when there is a plan."""
    playing = f"{names[pair[0]]} vs {names[pair[1]]}" if pair is not None else ""
    left = remaining.text() if remaining is not None else ""
    return ", ".join(part for part in (playing, left) if part)


def _round_robin_in_processes(
    game, specs, names, pairs, games, seed, show_progress, save_games, jobs, openings=0, plan=False
) -> tuple:
    """:func:`round_robin`'s pairs played by ``jobs`` worker processes (:func:`play_pairs_in_processes`),
    the results in the serial loop's order."""
    tasks = [(specs, names, i, j, games, seed) for i, j in pairs]
    results = play_pairs_in_processes(game, tasks, jobs, show_progress, save_games, openings, plan)
    return results, fit_elo(names, results)


def play_pairs_in_processes(
    game: Game,
    tasks: list,
    jobs: int,
    show_progress: bool = True,
    save_games: int = 0,
    openings: int = 0,
    plan: bool = False,
) -> list:
    """Matches played by ``jobs`` worker processes (started afresh: no state shared with this one), each
    task ``(specs, names, i, j, games, seed)`` the pair ``i``, ``j`` of a round robin of ``specs`` seeded
    ``seed`` (:func:`_play_pair`: the games one process plays); the results in the tasks' order. ``plan``
    (tasks of one round robin): print its plan first, submit the slowest pairs first (no process left with a
    long pair at the end) and show the time left estimated pair by pair."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    made = {}
    for specs in {id(task[0]): task[0] for task in tasks}.values():  # a bad spec fails here, before any
        made[id(specs)] = [make_agent(spec, game, seed=i) for i, spec in enumerate(specs)]  # worker starts
    remaining = None
    if plan:
        specs, names = tasks[0][0], tasks[0][1]
        pairs = [(task[2], task[3]) for task in tasks]
        remaining = _announce_plan(game, made[id(specs)], names, pairs, tasks[0][4], jobs, tasks[0][5])
    order: list[int] = list(range(len(tasks)))
    if remaining is not None:
        order = sorted(order, key=lambda k: -remaining.plan.pair_seconds[k])
    context = multiprocessing.get_context("spawn")
    total = sum(task[4] for task in tasks)
    with (
        ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool,
        _games_bar(total, show_progress, remaining) as bar,
    ):
        futures = {}
        for k in order:
            specs, names, i, j, games, seed = tasks[k]
            futures[pool.submit(_play_pair, game, specs, names, i, j, games, seed, save_games, openings)] = k
        results = [None] * len(tasks)
        for future in as_completed(futures):
            k = futures[future]
            results[k] = future.result()
            if remaining is not None:
                remaining.played(k, tasks[k][4])
                bar.set_postfix_str(remaining.text(), refresh=False)
            bar.update(tasks[k][4])
    return results


def agent_name(spec) -> str:
    text = str(spec).rstrip("/")
    if text.startswith("sample:"):
        return agent_name(text[len("sample:") :]) + "-sampled"
    if text.startswith("rllib:"):  # the run folder's name (or the file's, when not policy.pt)
        p = Path(text[len("rllib:") :].rstrip("/"))
        return "rllib-" + (p.parent.name if p.name == "policy.pt" else p.stem if p.suffix == ".pt" else p.name)
    if text.endswith(".zip"):
        p = Path(text)
        return p.parent.name if p.stem in ("model", "final") else p.stem
    if Path(text).is_dir() or text.startswith("models/"):  # a folder, or a shipped model by name
        return Path(text).name
    return text.replace(":", "")


def format_table(results: list, elo: dict) -> str:
    """The results as a text table (the one printed)."""
    lines = [
        f"{'agent A':<21} {'agent B':<21} {'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}{'win %':>8}   95% CI",
        "-" * 92,
    ]
    for p in results:
        lo, hi = p.win_interval()
        lines.append(
            f"{p.a:<21} {p.b:<21} {p.games:>6}{p.wins:>6}{p.draws:>6}{p.losses:>7}"
            f"{100 * p.win_rate:>7.1f}%   [{100 * lo:.1f}, {100 * hi:.1f}]"
        )
    lines.append("")
    if elo_is_meaningful(elo):
        anchor = "random = 0" if "random" in elo else "the mean = 0"
        lines.append("Elo:  " + "   ".join(f"{n} {v:+.0f}" for n, v in sorted(elo.items(), key=lambda kv: -kv[1])))
        lines.append(f"({ELO_MEANING.format(anchor=anchor)})")
    else:
        lines.append("(no Elo with two agents: it would only restate the score above)")
    return "\n".join(lines)


def seat_decided_lines(results: list) -> str:
    """What the openings decided (:meth:`PairResult.seat_decided`), a line per pair, with each pair's score
    (a draw counting half): the share of a pair's games that its agents' skill could change."""
    lines = ["Openings the side decided (the same side won both games of an opening: 50% whoever plays it):"]
    for p in results:
        decided, pairs = p.seat_decided()
        lines.append(f"  {p.a} vs {p.b}: {decided} of {pairs} openings; score {100 * p.score:.1f}% (draws half)")
    return "\n".join(lines)


def elo_is_meaningful(elo: dict) -> bool:
    """Whether ratings say more than the table: three agents or more (with two, the one score is all there is)."""
    return len(elo) >= 3


def save_results(out: str | Path, results: list, elo: dict, title: str = "", strength: list | None = None) -> None:
    """``results.csv``, ``elo.csv`` and ``results.png`` in ``out``; ``strength`` (rows of a run's
    ``strength.csv``, :mod:`boardgames.training.evaluation.strength`) adds the win-rate curve during training to the
    picture."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent_a", "agent_b", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"])
        for p in results:
            lo, hi = p.win_interval()
            w.writerow([p.a, p.b, p.games, p.wins, p.draws, p.losses, f"{p.win_rate:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
    with open(out / "elo.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", "elo"])
        for n, v in sorted(elo.items(), key=lambda kv: -kv[1]):
            w.writerow([n, f"{v:.1f}"])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [2] + ([1] if elo_is_meaningful(elo) else []) + ([2] if strength else [])
    fig, axes = plt.subplots(
        1,
        len(panels),
        figsize=(5.5 * sum(panels) / 1.5, max(0.5 * len(results) + 2.5, 4)),
        gridspec_kw={"width_ratios": panels},
        squeeze=False,
    )
    ax1 = axes[0][0]
    labels = [f"{p.a} vs {p.b}" for p in results]
    y = np.arange(len(results))
    wins = np.array([p.wins / max(p.games, 1) for p in results])
    draws = np.array([p.draws / max(p.games, 1) for p in results])
    losses = 1 - wins - draws
    ax1.barh(y, wins, color="#4c9a2a", label="win")
    ax1.barh(y, draws, left=wins, color="#bbbbbb", label="draw")
    ax1.barh(y, losses, left=wins + draws, color="#c0392b", label="loss")
    ci = np.array([p.win_interval() for p in results]).reshape(-1, 2)
    xerr = np.clip([wins - ci[:, 0], ci[:, 1] - wins], 0.0, None)  # rounding at 0% / 100% wins
    ax1.errorbar(wins, y, xerr=xerr, fmt="none", ecolor="black", capsize=3)
    ax1.set_yticks(y, labels)
    ax1.invert_yaxis()
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("share of games (A's point of view), 95% CI on wins")
    ax1.legend(loc="lower right", fontsize=8)
    if elo_is_meaningful(elo):
        ax2 = axes[0][1]
        names = sorted(elo, key=lambda n: -elo[n])
        ax2.barh(range(len(names)), [elo[n] for n in names], color="#2f6fb0")
        ax2.set_yticks(range(len(names)), names)
        ax2.invert_yaxis()
        ax2.set_xlabel("Elo" + (" (random = 0)" if "random" in elo else " (mean = 0)"))
    if strength:
        plot_strength(axes[0][-1], strength)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out / "results.png", dpi=100)
    plt.close(fig)


def plot_strength(ax, history: list[dict]) -> None:
    """Win rate against each opponent over training steps (95% Wilson band) on the matplotlib ``ax``;
    ``history``: the rows of a run's ``strength.csv`` (:mod:`boardgames.training.evaluation.strength`)."""
    for name in dict.fromkeys(r["opponent"] for r in history):
        rows = sorted((r for r in history if r["opponent"] == name), key=lambda r: r["steps"])
        steps = [r["steps"] for r in rows]
        (line,) = ax.plot(steps, [r["win_rate"] for r in rows], marker="o", markersize=3, label=f"vs {name}")
        ax.fill_between(
            steps, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.15, color=line.get_color()
        )
    ax.set_ylim(0, 1)
    ax.set_xlabel("training steps")
    ax.set_ylabel("win rate (arg-max play)")
    games = history[0]["games"] if history else 0
    ax.set_title(f"strength during training ({games} games per point)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)


def main(argv: list | None = None) -> None:
    from boardgames.envs.registry import make_game

    p = argparse.ArgumentParser(
        prog="boardgames evaluate",
        description=__doc__.split("\n\n")[0],
        epilog=AGENT_SPECS.format(shipped=", ".join(shipped_models()) or "none found", mcts=DEFAULT_SIMULATIONS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p, choices=False)
    p.add_argument(
        "--agents",
        nargs="+",
        default=["random", "greedy"],
        help="two agent specs or more (listed below; default: random greedy)",
    )
    p.add_argument("--games", type=positive_int, default=200, help="games per pair (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first-only", action="store_true", help="only the first agent against each other one")
    p.add_argument(
        "--out",
        default=None,
        help="output folder (default runs/eval/<game>[_<n>p], or the next free runs/eval/<game>[_<n>p]-2, -3... "
        "when it holds an earlier evaluation)",
    )
    p.add_argument("--overwrite", action="store_true", help="replace the results an --out folder already holds")
    p.add_argument("--no-progress", action="store_true")
    add_openings_argument(p)
    add_torch_threads_argument(p)
    p.add_argument(
        "--save-games",
        type=int,
        default=0,
        metavar="N",
        help="save the first N games of each pair as move lists in <out>/games/ (the --save-moves "
        "format: boardgames web --replay FILE shows them)",
    )
    args = p.parse_args(argv)
    if len(args.agents) < 2:
        p.error(f"--agents needs two agents or more to play each other, got {args.agents}")
    apply_torch_threads(p, args)
    check_openings(p, args.openings)
    options = game_options_of(args)
    default_out = Path("runs") / "eval" / (args.game + (f"_{args.players}p" if args.players else ""))
    try:
        out, note = output_folder(args.out, default_out, args.overwrite)
    except FileExistsError as e:
        p.error(str(e))
    if note:
        print(note)
    game = make_game(args.game, **options)
    try:
        agents = [make_agent(spec, game, seed=args.seed + i) for i, spec in enumerate(args.agents)]
    except (ValueError, FileNotFoundError) as e:
        p.error(str(e))
    results, elo = round_robin(
        game,
        agents,
        args.games,
        args.seed,
        args.first_only,
        names=[agent_name(s) for s in args.agents],
        show_progress=not args.no_progress,
        save_games=max(0, args.save_games),
        openings=args.openings,
        plan=True,
    )
    opened = f", {args.openings}-ply random openings played from both sides" if args.openings else ""
    title = f"{args.game} {options or ''} — {args.games} games per pair, seed {args.seed}{opened}"
    print(title)
    print(format_table(results, elo))
    if args.openings and len(game.info.sides()) == 2:
        print(seat_decided_lines(results))
    if args.overwrite:
        shutil.rmtree(out / "games", ignore_errors=True)  # the earlier evaluation's games: none kept beside these
    save_results(out, results, elo, title)
    print(f"saved {Path(out) / 'results.csv'}, elo.csv and results.png")
    saved = save_records(out, results)
    if saved:
        print(f"saved {len(saved)} games as move lists in {Path(out) / 'games'} (e.g. {saved[0]})")


RESULT_FILES = ("results.csv", "elo.csv", "results.png", "games")
"""What an evaluation writes in its folder (:func:`save_results`, :func:`save_records`)."""


def holds_results(folder: str | Path) -> bool:
    """Whether ``folder`` holds the results of an evaluation."""
    return any((Path(folder) / name).exists() for name in RESULT_FILES)


def output_folder(out: str | Path | None, default: Path, overwrite: bool = False) -> tuple[Path, str | None]:
    """The folder an evaluation writes to and what to tell about it (None: nothing to tell). An ``out`` folder
    holding results raises FileExistsError unless ``overwrite``; without ``out``, the ``default`` folder, or,
    when it holds results (and not ``overwrite``), the first of ``<default>-2``, ``-3``... that holds none."""
    if out is not None:
        out = Path(out)
        if not holds_results(out):
            return out, None
        if not overwrite:
            raise FileExistsError(
                f"{out} already holds the results of an evaluation: choose another --out, or add --overwrite "
                "to replace them"
            )
        return out, f"replacing the earlier evaluation in {out} (--overwrite)"
    if not holds_results(default):
        return default, None
    if overwrite:
        return default, f"replacing the earlier evaluation in {default} (--overwrite)"
    n = 2
    while holds_results(default.with_name(f"{default.name}-{n}")):
        n += 1
    chosen = default.with_name(f"{default.name}-{n}")
    return chosen, f"{default} holds an earlier evaluation (kept): this one is saved in {chosen}"


def save_records(out: str | Path, results: list) -> list[Path]:
    """Write the games kept in each pair's ``records`` to ``<out>/games/<a>_vs_<b>_<k>.txt`` (move lists in
    notation, as ``boardgames play --save-moves`` writes them); returns the paths."""
    paths = []
    for pair in results:
        for k, record in enumerate(pair.records, 1):
            folder = Path(out) / "games"
            folder.mkdir(parents=True, exist_ok=True)
            safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in f"{pair.a}_vs_{pair.b}_{k}")
            path = folder / f"{safe}.txt"
            path.write_text(record.to_text())
            paths.append(path)
    return paths


if __name__ == "__main__":
    main()
