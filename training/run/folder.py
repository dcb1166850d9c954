"""A run folder, as every family keeps it: ``run.json``, ``strength.csv``, the commands that built the run,
and what resuming does to the folder before the trainer loads its checkpoint.

Each family writes its checkpoint in its own form (an SB3 zip with its manifest, AlphaZero's set of three
files, RLlib's signed folder) through :mod:`boardgames.training.storage.durable`; the folder around it is
handled here, the same way for all three:

* :meth:`RunFolder.refuse_links_out` before anything is written into a folder being resumed;
* :meth:`RunFolder.clear_leftovers` after the family opened its checkpoint (which may still need files under
  their temporary names): the temporary files of killed processes go; :meth:`RunFolder.recover` puts back a
  folder a kill left aside;
* :meth:`RunFolder.keep_strength` drops the ``strength.csv`` rows measured past the checkpoint (measured again
  as the run goes on, so none is doubled);
* :func:`commands_so_far` and :meth:`RunFolder.write_record`: ``run.json``, with every command that built
  the run (the first run, then each ``--resume``).
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from boardgames.training.storage.durable import (
    keep_csv_rows,
    number,
    read_json,
    recover_folder,
    refuse_links_out,
    remove_stale_temps,
    write_json,
)

RECORD = "run.json"
STRENGTH = "strength.csv"


class RunFolder:
    """The folder of one run (``path``), whatever the family."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    @property
    def record_path(self) -> Path:
        """``run.json``: the command, the settings really used, the units done, the wall time."""
        return self.path / RECORD

    @property
    def strength_path(self) -> Path:
        """``strength.csv``: the learner against fixed opponents, one row per measurement and opponent."""
        return self.path / STRENGTH

    def refuse_links_out(self) -> None:
        """Before a folder is resumed: :class:`~boardgames.training.storage.durable.CheckpointError` naming the
        first symbolic link in it that leads out of it (nothing is changed); nothing when there is no folder."""
        if self.path.is_dir():
            refuse_links_out(self.path)

    def clear_leftovers(self, subfolders: Iterable[str] = ()) -> None:
        """What killed processes left: the temporary files and folders removed from the run folder and its
        ``subfolders`` (a folder a kill left aside put back first, when its process is gone)."""
        for folder in (self.path, *(self.path / name for name in subfolders)):
            remove_stale_temps(folder)

    def recover(self, name: str) -> bool:
        """Put back the folder ``name`` of the run when a kill left it aside while it was being replaced;
        whether one was put back."""
        return recover_folder(self.path / name)

    def keep_strength(self, fields: list, column: str, until: float, inclusive: bool = True) -> int:
        """Drop the ``strength.csv`` rows whose ``column`` is past ``until`` (at or past it when not
        ``inclusive``); how many were dropped."""
        if inclusive:
            return keep_csv_rows(self.strength_path, fields, lambda r: number(r[column]) <= until)
        return keep_csv_rows(self.strength_path, fields, lambda r: number(r[column]) < until)

    def previous_record(self) -> dict:
        """The ``run.json`` already there (an empty dict when there is none, or an older version's that
        cannot be read: it is mended by the next write)."""
        record = read_json(self.record_path, {})
        return record if isinstance(record, dict) else {}

    def write_record(self, info: dict, indent: int = 1) -> Path:
        """Replace ``run.json`` by ``info``, durably."""
        return write_json(self.record_path, info, indent=indent)


def commands_so_far(earlier, this: str) -> list:
    """The commands that built a run: ``earlier`` (a list read from a checkpoint or an older ``run.json``;
    anything else counts as none), then ``this``."""
    return [*(earlier if isinstance(earlier, list) else []), this]


def command_line(prefix: list, argv: list | None = None) -> str:
    """The command line ``prefix`` followed by ``argv`` (this process's arguments by default), quoted as a
    shell would need them."""
    return shlex.join([*prefix, *(argv if argv is not None else sys.argv[1:])])


def elapsed_since(started: float, earlier: float = 0.0) -> float:
    """Seconds of a run, to the tenth: those of the processes before it (``earlier``) and this one's since
    ``started`` (a ``time.time()``)."""
    return round(time.time() - started + float(earlier), 1)
