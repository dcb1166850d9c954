"""The progress of a training run (told the same way by every family) or of a long evaluation.

On a terminal (standard output and standard error both one) :class:`Progress` draws a bar (tqdm, on standard
error). Elsewhere (output to a log file, through ``tee``, in CI) a bar would appear once at the end, so it
prints a plain line instead, at a steady interval (every ``interval`` seconds, 30 by default) and once at the
end::

    train dorix: 25,000/50,000 steps (50%) · 812 steps/s · elapsed 0:30 · eta 0:31 · vs random 85% · greedy 40%

The count shown never runs past the total: a trainer that works in whole units (SB3 collects whole rollouts,
so 50,000 steps asked of 8 games of 2,048 steps end at 65,536) shows the total, and the final line says how
many were done in fact. Messages (:meth:`Progress.write`) go above the bar, or as lines of their own.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

DEFAULT_INTERVAL_S = 30.0
"""Seconds between two progress lines when the output is not a terminal."""


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal (False for a file, a pipe, or a stream without ``isatty``)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def clock_text(seconds: float) -> str:
    """``h:mm:ss`` (``m:ss`` under an hour) of a duration in seconds."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """How far a run is: ``update(done, note)`` with the units done so far (a total, not an increment) and
    the latest strength (or any short note), ``write(text)`` for a message, ``close()`` at the end.

    Args:
        total: the units the run ends at; ``initial``: those done before this process (a resumed run).
        unit: what is counted (``steps``, ``it``); ``desc``: the run's name at the start of the line.
        enabled: False draws and prints no progress (``--no-progress``); messages are still printed.
        stream: where lines and messages go (standard output by default).
        terminal: draw a bar (True) or print lines (False); None: a bar when ``stream`` and standard error
            are both terminals.
        interval: seconds between two lines when there is no bar (:data:`DEFAULT_INTERVAL_S` when None);
            ``clock``: the time in seconds (for tests).
    """

    def __init__(
        self,
        total: int,
        unit: str = "steps",
        desc: str = "",
        *,
        initial: int = 0,
        enabled: bool = True,
        stream: TextIO | None = None,
        terminal: bool | None = None,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        if total < 0 or initial < 0:
            raise ValueError(f"a progress total and start must be at least 0, got {total} and {initial}")
        interval = DEFAULT_INTERVAL_S if interval is None else interval
        if not interval > 0:
            raise ValueError(f"the interval between progress lines must be above 0 seconds, got {interval}")
        self.total, self.unit, self.desc = int(total), unit, desc
        self.initial = self.done = int(initial)
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stdout
        if terminal is None:
            terminal = is_terminal(self.stream) and is_terminal(sys.stderr)
        self.interval, self.clock = float(interval), clock
        self.note = ""
        self.started = self.last_line = clock()
        self.bar = self._bar() if enabled and terminal else None

    def _bar(self):
        from tqdm import tqdm

        return tqdm(total=self.total, initial=min(self.done, self.total), desc=self.desc, unit=self.unit,
                    dynamic_ncols=True)  # fmt: skip

    @property
    def draws_a_bar(self) -> bool:
        """Whether the progress is a bar (on a terminal) rather than lines."""
        return self.bar is not None

    def update(self, done: int, note: str | None = None) -> None:
        """``done`` units so far (shown clamped to the total) and, when given, the note that follows them."""
        self.done = int(done)
        if note is not None:
            self.note = note
        if not self.enabled:
            return
        if self.bar is not None:
            if note is not None:
                self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(min(self.done, self.total) - self.bar.n)
            return
        if self.clock() - self.last_line >= self.interval:
            self._line()

    def write(self, text: str) -> None:
        """A message: above the bar, or a line of its own."""
        if self.bar is not None:
            self.bar.write(text)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        """End the bar, or print the last line (the run's end, whatever the interval)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.enabled:
            self._line(final=True)
        self.enabled = False

    def line(self, final: bool = False) -> str:
        """The progress as one line of text (see the module docstring)."""
        shown = min(self.done, self.total)
        elapsed = self.clock() - self.started
        rate = (self.done - self.initial) / elapsed if elapsed > 0 else 0.0
        parts = [f"{shown:,}/{self.total:,} {self.unit} ({100 * shown / max(self.total, 1):.0f}%)"]
        parts.append(f"{rate:,.0f} {self.unit}/s" if rate >= 10 else f"{rate:.2f} {self.unit}/s")
        parts.append(f"elapsed {clock_text(elapsed)}")
        if not final and rate > 0 and shown < self.total:
            parts.append(f"eta {clock_text((self.total - shown) / rate)}")
        if final and self.done > self.total:
            parts.append(f"{self.done:,} {self.unit} done in whole units of training")
        if self.note:
            parts.append(self.note)
        return (f"{self.desc}: " if self.desc else "") + " · ".join(parts)

    def _line(self, final: bool = False) -> None:
        print(self.line(final), file=self.stream, flush=True)
        self.last_line = self.clock()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
