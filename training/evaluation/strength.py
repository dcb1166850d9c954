"""The strength hook: during training, the learner against fixed opponents, every N units of training.

In self-play ``ep_rew_mean`` (or the loss) says little: the opponents get stronger with the learner. Every
family therefore plays its current learner (arg-max over the legal actions, or the network's search) against
fixed agents (default ``random`` and ``greedy``), a number of games each with sides swapped
(:func:`boardgames.training.evaluation.evaluate.play_match`), at the start of training and every N units, and
keeps the results in ``<run>/strength.csv`` (one row per measurement and opponent, written whole and durably).

This module is the part every family shares, and knows no family: :class:`StrengthMeter` (the opponents, the
games, the seconds spent), the CSV rows (:func:`append_rows`, :func:`replace_rows_from`), the short text of
the latest win rates (:func:`win_rates_text`), :func:`read_strength` and the run's ``results.png``
(:func:`save_strength_plot`). The families hook it in their own way: SB3 as a callback
(:mod:`boardgames.training.sb3.strength`; its rows are :data:`FIELDS`, with the 95% Wilson interval), AlphaZero
and RLlib after their iterations (with an Elo fit, and the environment steps).

The games are cheap with the compiled engine (a few dozen games take about a second on Dorix); the SB3
settings are ``train.eval_every`` (steps between measurements, 0 turns them off), ``train.eval_games`` (games
per opponent) and ``train.eval_opponents`` (agent specs).
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from boardgames.envs.core.game import Game
from boardgames.training.storage.durable import number, read_csv_rows, write_csv, write_with

FIELDS = ["steps", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]
"""The columns of an SB3 run's ``strength.csv``."""
DEFAULT_OPPONENTS = ("random", "greedy")


def make_opponents(opponents: Iterable, game: Game, seed: int) -> dict:
    """``{name: agent}`` of ``opponents`` (agent specs or Agent objects; the ``i``-th built with seed
    ``seed + 1 + i``): a spec is named by its text, an Agent object by its name."""
    from boardgames.training.agent_kinds import make_agent

    opponents = list(opponents)
    agents = [make_agent(o, game, seed=seed + 1 + i) for i, o in enumerate(opponents)]
    return {o if isinstance(o, str) else getattr(a, "name", type(a).__name__): a for o, a in zip(opponents, agents)}


class StrengthMeter:
    """The learner of a run against fixed ``opponents`` (specs or agents, built once with ``seed``),
    ``games`` games each; :attr:`seconds` counts the wall time spent measuring (``run.json`` records it)."""

    def __init__(self, game: Game, opponents: Iterable = DEFAULT_OPPONENTS, games: int = 20, seed: int = 0):
        self.game = game
        self.games = int(games)
        self.opponents = make_opponents(opponents, game, seed)
        self.seconds = 0.0

    def play(self, learner, seeds: Callable[[int], int], name: str = "learner", progress=None) -> dict:
        """``{opponent: PairResult}``: ``learner`` against each opponent, the ``k``-th match seeded
        ``seeds(k)`` (``progress()``, when given, after every game)."""
        from boardgames.training.evaluation.evaluate import play_match

        started = time.time()
        try:
            return {
                other: play_match(
                    self.game, learner, agent, self.games, seed=seeds(k), name_a=name, name_b=other, progress=progress
                )  # fmt: skip
                for k, (other, agent) in enumerate(self.opponents.items())
            }
        finally:
            self.seconds += time.time() - started


def win_rates_text(rates: dict, separator: str = " · ") -> str:
    """``vs random 85% · greedy 40%`` of ``{opponent: win rate in 0..1}``; empty when there is none."""
    if not rates:
        return ""
    return "vs " + separator.join(f"{name} {100 * rate:.0f}%" for name, rate in rates.items())


def append_rows(path: str | Path, fields: list, rows: list[dict]) -> None:
    """Add ``rows`` to the CSV ``path``, which is rewritten whole and durably
    (:mod:`boardgames.training.storage.durable`): a kill leaves the rows before or after, never a row cut
    short."""
    write_csv(path, fields, [*read_csv_rows(path, fields), *rows])


def replace_rows_from(path: str | Path, fields: list, column: str, at: float, rows: list[dict]) -> None:
    """Put ``rows`` (those of the measurement at ``at``) in the CSV ``path`` in place of every row whose
    ``column`` is ``at`` or later (rows of a killed run, measured again after its resume), rewritten whole
    and durably."""
    earlier = [r for r in read_csv_rows(path, fields) if number(r[column]) < at]
    write_csv(path, fields, [*earlier, *rows])


def read_strength(path: str | Path) -> list[dict]:
    """The rows of a ``strength.csv`` (numbers as numbers); empty when there is no such file."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return [
            {k: (v if k == "opponent" else float(v) if "." in v else int(v)) for k, v in row.items()}
            for row in csv.DictReader(f)
        ]


def save_strength_plot(out: str | Path, history: list[dict], title: str = "") -> Path:
    """``<out>/results.png`` with the curve of :func:`boardgames.training.evaluation.evaluate.plot_strength`
    alone (a run before any evaluation)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from boardgames.training.evaluation.evaluate import plot_strength

    fig, ax = plt.subplots(figsize=(7, 4))
    plot_strength(ax, history)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    path = Path(out) / "results.png"
    try:
        write_with(path, lambda tmp: fig.savefig(tmp, dpi=100, format="png"))
    finally:
        plt.close(fig)
    return path
