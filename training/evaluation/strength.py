"""Strength during training: win rates against fixed opponents, measured every N steps.

In self-play ``ep_rew_mean`` says little (the opponents get stronger with the learner).
:class:`StrengthCallback` plays the learner's current policy (arg-max over the legal actions) against
fixed agents (default ``random`` and ``greedy``), ``games`` games each with sides swapped
(:func:`boardgames.training.evaluation.evaluate.play_match`), at the start of training and every ``every`` steps.
Each measurement goes to

* TensorBoard: ``strength/win_rate_vs_<opponent>`` and ``strength/draw_rate_vs_<opponent>``;
* the progress bar (:class:`StrengthProgressBar`): ``vs random 85% · greedy 40%``;
* ``<run>/strength.csv`` (one row per measurement and opponent, with the 95% Wilson interval), which
  :func:`boardgames.training.evaluation.evaluate.plot_strength` draws: the run's ``results.png`` shows that curve.

The games are cheap with the compiled engine (a few dozen games take about a second on Dorix); the
settings are ``train.eval_every`` (steps between measurements, 0 turns them off), ``train.eval_games``
(games per opponent) and ``train.eval_opponents`` (agent specs).
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback, ProgressBarCallback

from boardgames.envs.core.game import Game

FIELDS = ["steps", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]
DEFAULT_OPPONENTS = ("random", "greedy")


class StrengthCallback(BaseCallback):
    """Every ``every`` steps (and when training starts), ``games`` games of the learner against each of
    ``opponents`` (agent specs or Agent objects); results logged to TensorBoard, kept in :attr:`history`
    and appended to ``csv_path``."""

    def __init__(
        self,
        game: Game,
        every: int,
        games: int = 20,
        opponents=DEFAULT_OPPONENTS,
        seed: int = 0,
        csv_path: str | Path | None = None,
    ):
        super().__init__()
        from boardgames.training.agent_kinds import make_agent

        self.game = game
        self.every = int(every)
        self.games = int(games)
        self.seed = int(seed)
        agents = [make_agent(o, game, seed=seed + 1 + i) for i, o in enumerate(opponents)]
        # an agent spec is named by its text, an Agent object by its name
        self.opponents = {
            o if isinstance(o, str) else getattr(a, "name", type(a).__name__): a for o, a in zip(opponents, agents)
        }
        self.csv_path = Path(csv_path) if csv_path is not None else None
        self.history: list[dict] = []  # one row (FIELDS) per measurement and opponent
        self.last = None
        self.seconds = 0.0  # wall time spent measuring (recorded in run.json)

    def _on_training_start(self) -> None:
        self.measure()

    def _on_step(self) -> bool:
        if self.num_timesteps - self.last >= self.every:
            self.measure()
        return True

    def measure(self) -> list[dict]:
        """Play the matches now; returns this measurement's rows."""
        from boardgames.training.agent_kinds import PolicyAgent
        from boardgames.training.evaluation.evaluate import play_match

        start = time.time()
        self.last = self.num_timesteps
        policy = self.model.policy
        was_training = policy.training
        policy.set_training_mode(False)
        learner = PolicyAgent(policy, deterministic=True, name="learner")
        rows = []
        for k, (name, opponent) in enumerate(self.opponents.items()):
            r = play_match(
                self.game,
                learner,
                opponent,
                self.games,
                seed=self.seed + 7919 * len(self.history) + k,
                name_a="learner",
                name_b=name,
            )
            lo, hi = r.win_interval()
            rows.append(
                {
                    "steps": int(self.num_timesteps),
                    "opponent": name,
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "losses": r.losses,
                    "win_rate": round(r.win_rate, 4),
                    "ci_low": round(lo, 4),
                    "ci_high": round(hi, 4),
                }
            )
            self.logger.record(f"strength/win_rate_vs_{name}", r.win_rate)
            self.logger.record(f"strength/draw_rate_vs_{name}", r.draws / max(r.games, 1))
        policy.set_training_mode(was_training)
        self.history.extend(rows)
        if self.csv_path is not None:
            self._append(rows)
        self.seconds += time.time() - start
        return rows

    def _append(self, rows: list[dict]) -> None:
        """Add ``rows`` to the CSV, which is rewritten whole and durably
        (:mod:`boardgames.training.storage.durable`): a kill leaves the rows before or after, never a row cut
        short."""
        from boardgames.training.storage.durable import read_csv_rows, write_csv

        write_csv(self.csv_path, FIELDS, [*read_csv_rows(self.csv_path, FIELDS), *rows])

    def summary(self) -> str:
        """The latest measurement as a short text: ``vs random 85% · greedy 40%``."""
        if not self.history:
            return ""
        latest = [r for r in self.history if r["steps"] == self.history[-1]["steps"]]
        return "vs " + " · ".join(f"{r['opponent']} {100 * r['win_rate']:.0f}%" for r in latest)


class StrengthProgressBar(ProgressBarCallback):
    """SB3's progress bar with the latest win rates of ``strength`` as its description."""

    def __init__(self, strength: StrengthCallback | None):
        super().__init__()
        self.strength = strength
        self.shown = 0

    def _on_step(self) -> bool:
        if self.strength is not None and len(self.strength.history) != self.shown:
            self.shown = len(self.strength.history)
            self.pbar.set_description_str(self.strength.summary(), refresh=False)
        return super()._on_step()


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
    from boardgames.training.storage.durable import write_with

    path = Path(out) / "results.png"
    try:
        write_with(path, lambda tmp: fig.savefig(tmp, dpi=100, format="png"))
    finally:
        plt.close(fig)
    return path
