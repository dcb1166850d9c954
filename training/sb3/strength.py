"""The SB3 family's hooks into the run scaffold: strength during training and progress, as callbacks.

:class:`StrengthCallback` plays the learner's current policy (arg-max over the legal actions) against fixed
agents with the shared strength hook (:class:`boardgames.training.evaluation.strength.StrengthMeter`), at the
start of training and every ``every`` steps. Each measurement goes to

* TensorBoard: ``strength/win_rate_vs_<opponent>`` and ``strength/draw_rate_vs_<opponent>``;
* the progress (:class:`ProgressCallback`): ``vs random 85% · greedy 40%``;
* ``<run>/strength.csv`` (one row per measurement and opponent, with the 95% Wilson interval), which
  :func:`boardgames.training.evaluation.evaluate.plot_strength` draws: the run's ``results.png`` shows that curve.
"""

from __future__ import annotations

from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from boardgames.envs.core.game import Game
from boardgames.training.evaluation.strength import (
    DEFAULT_OPPONENTS,
    FIELDS,
    StrengthMeter,
    append_rows,
    win_rates_text,
)
from boardgames.training.progress import Progress
from boardgames.training.sb3.agent import PolicyAgent


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
        self.game = game
        self.every = int(every)
        self.seed = int(seed)
        self.meter = StrengthMeter(game, opponents, games, seed)
        self.csv_path = Path(csv_path) if csv_path is not None else None
        self.history: list[dict] = []  # one row (FIELDS) per measurement and opponent
        self.last: int | None = None  # the step count of the last measurement

    @property
    def seconds(self) -> float:
        """Wall time spent measuring (recorded in run.json)."""
        return self.meter.seconds

    def _on_training_start(self) -> None:
        self.measure()

    def _on_step(self) -> bool:
        if self.last is None or self.num_timesteps - self.last >= self.every:
            self.measure()
        return True

    def measure(self) -> list[dict]:
        """Play the matches now; returns this measurement's rows."""
        self.last = self.num_timesteps
        policy = self.model.policy
        was_training = policy.training
        policy.set_training_mode(False)
        learner = PolicyAgent(policy, deterministic=True, name="learner")
        seed = self.seed + 7919 * len(self.history)
        results = self.meter.play(learner, lambda k: seed + k)
        rows = [self._row(name, r) for name, r in results.items()]
        for name, r in results.items():
            self.logger.record(f"strength/win_rate_vs_{name}", r.win_rate)
            self.logger.record(f"strength/draw_rate_vs_{name}", r.draws / max(r.games, 1))
        policy.set_training_mode(was_training)
        self.history.extend(rows)
        if self.csv_path is not None:
            append_rows(self.csv_path, FIELDS, rows)
        return rows

    def _row(self, name: str, r) -> dict:
        lo, hi = r.win_interval()
        return {
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

    def summary(self) -> str:
        """The latest measurement as a short text: ``vs random 85% · greedy 40%``."""
        if not self.history:
            return ""
        latest = [r for r in self.history if r["steps"] == self.history[-1]["steps"]]
        return win_rates_text({r["opponent"]: r["win_rate"] for r in latest})


class ProgressCallback(BaseCallback):
    """The run's steps told to the scaffold's :class:`~boardgames.training.progress.Progress` (a bar on a
    terminal, a line every N seconds otherwise), with the latest win rates of ``strength`` after them."""

    def __init__(self, progress: Progress, strength: StrengthCallback | None):
        super().__init__()
        self.progress = progress
        self.strength = strength
        self.shown = 0

    def _on_step(self) -> bool:
        note = None
        if self.strength is not None and len(self.strength.history) != self.shown:
            self.shown = len(self.strength.history)
            note = self.strength.summary()
        self.progress.update(int(self.num_timesteps), note)
        return True
