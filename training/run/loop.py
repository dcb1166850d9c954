"""The loop of the families that train in iterations (AlphaZero, RLlib), and what their trainer gives it.

SB3 drives its own loop (``learn``), into which the scaffold's hooks go as callbacks
(:mod:`boardgames.training.sb3.trainer`); the other two hand the scaffold a :class:`Trainer` and
:func:`train_until` runs it: one unit, its checkpoint when one is due, the progress, the unit's report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from boardgames.training.progress import Progress


class Trainer(Protocol):
    """What a family gives the scaffold's loop: where it is, one unit of training, the state to save.
    (Loading that state back is the family's own, before the loop starts: ``load_checkpoint``, ``restore``.)"""

    @property
    def iteration(self) -> int:
        """The units of training done so far (those of the checkpoint the run resumed from included)."""
        ...

    def advance(self) -> str:
        """One unit of training (self-play or sampling, learning, and the strength hook when it is due); the
        short text the progress shows after it."""
        ...

    def checkpoint(self) -> None:
        """Write the state to resume from (durably) and ``run.json``."""
        ...


def train_until(
    trainer: Trainer,
    total: int,
    progress: Progress,
    report: Callable[[str, bool], None] | None = None,
    checkpoint_every: int = 1,
) -> None:
    """Advance ``trainer`` until it has done ``total`` units: a checkpoint after every ``checkpoint_every``
    units and after the last, the progress told after each (with the unit's text), then ``report(text,
    checkpointed)`` when given (the families' own line per unit)."""
    if checkpoint_every < 1:
        raise ValueError(f"checkpoint_every must be at least 1, got {checkpoint_every}")
    while trainer.iteration < total:
        text = trainer.advance()
        due = trainer.iteration % checkpoint_every == 0 or trainer.iteration >= total
        if due:
            trainer.checkpoint()
        progress.update(trainer.iteration, text)
        if report is not None:
            report(text, due)
