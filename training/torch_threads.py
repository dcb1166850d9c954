"""How many threads torch uses for this library's networks: one rule, set in one place.

The networks here are small, and the environments and searches that feed them run on the same CPU
cores. Torch's default, a thread per core, makes every small inference wait for threads that fight the
environments for those cores: on a 2-core machine two moves of ``models/dorix_2p_az`` took 267 s with it
against 24 s with one thread. So every command and every agent that runs a network takes its count from
:func:`use_torch_threads`:

1. the count it is given (``--torch-threads N`` on the commands, ``use_torch_threads(N)`` in a script);
2. else the environment variable ``BOARDGAMES_TORCH_THREADS``;
3. else ``OMP_NUM_THREADS`` when the user set it (torch starts with that count too);
4. else 1.

It sets ``torch.set_num_threads`` and, while torch has not started its inter-op pool yet,
``torch.set_num_interop_threads``. A call without a count keeps the count an earlier call chose (so a
command's ``--torch-threads`` holds for every part of the command), and a call before torch is imported
imports nothing: it records the choice, and the next call once torch is loaded applies it.

The agents of trained models (``make_agent``'s AlphaZero, Stable-Baselines3 and RLlib agents) call
:func:`ensure_torch_threads` when they run their network: it applies the rule when nobody set the
threads, neither this module nor the user (a ``torch.set_num_threads`` of the user's own shows as a count
other than torch's default, and is kept), so a notebook that loads ``models/dorix_2p_az`` does not run
with a thread per core.
"""

from __future__ import annotations

import argparse
import os
import sys

ENV_VAR = "BOARDGAMES_TORCH_THREADS"
"""The environment variable that sets the count when no count is given."""
DEFAULT = 1
"""The count when neither a flag, :data:`ENV_VAR` nor ``OMP_NUM_THREADS`` gives one."""

_chosen: int | None = None  # the count this module chose (None: not yet)
_applied = False  # whether torch runs with the choice (or with a count of the user's own)
_interop_tried = False  # torch accepts one call of set_num_interop_threads at most


class TorchThreadsError(ValueError):
    """A thread count that cannot be used (not a whole number >= 1), naming where it came from."""


def _count_from(name: str, text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise TorchThreadsError(f"{name}={text!r}: the number of torch threads is a whole number >= 1") from None
    if value < 1:
        raise TorchThreadsError(f"{name}={text!r}: the number of torch threads is a whole number >= 1")
    return value


def default_torch_threads(environ=None) -> int:
    """The count when none is given: :data:`ENV_VAR`, else ``OMP_NUM_THREADS``, else :data:`DEFAULT`.
    TorchThreadsError for a value that is not a whole number >= 1."""
    environ = os.environ if environ is None else environ
    for name in (ENV_VAR, "OMP_NUM_THREADS"):
        text = environ.get(name, "").strip()
        if text:
            return _count_from(name, text)
    return DEFAULT


def torch_default_counts(environ=None) -> set[int]:
    """The counts torch may start with by itself here (``OMP_NUM_THREADS`` / ``MKL_NUM_THREADS`` when set,
    else the cores: logical ones for its OpenMP build, physical ones for the others): a thread count
    outside this set was chosen by someone."""
    environ = os.environ if environ is None else environ
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        text = environ.get(name, "").strip()
        if text.isdigit() and int(text) > 0:
            return {int(text)}
    logical = os.cpu_count() or 1
    counts = {logical}
    try:
        counts.add(len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        pass
    try:
        import psutil

        counts.add(psutil.cpu_count(logical=False) or logical)
    except ImportError:
        pass
    return counts


def use_torch_threads(threads: int | None = None) -> int:
    """Make torch use ``threads`` threads, or the count of the module docstring's rule when None (the
    count an earlier call chose, if any); returns the count. Imports nothing when torch is not loaded
    yet (the count is then applied by the next call after it is). TorchThreadsError for a bad count."""
    global _chosen, _applied
    if threads is not None:
        count = _count_from("--torch-threads", str(threads))
        if count != _chosen:
            _chosen, _applied = count, False
    elif _chosen is None:
        _chosen, _applied = default_torch_threads(), False
    if not _applied:
        _apply(_chosen)
    return _chosen


def ensure_torch_threads() -> int:
    """What an agent calls before it runs its network: :func:`use_torch_threads` when nobody chose the
    count yet (neither this module nor the user: a count of the user's own is kept). Cheap after the
    first call. Returns torch's count (0 when torch is not loaded)."""
    global _chosen, _applied
    if _applied and _chosen is not None:
        return _chosen
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    if _chosen is None:
        current = torch.get_num_threads()
        if current not in torch_default_counts():
            _chosen, _applied = current, True  # set by the user: theirs to keep
            return current
    return use_torch_threads()


def torch_threads_chosen() -> int | None:
    """The count this module chose (or found the user had chosen), None before any call."""
    return _chosen


def add_torch_threads_argument(parser: argparse.ArgumentParser) -> None:
    """``--torch-threads N`` on a command's ``parser`` (None when not given: the rule decides)."""
    parser.add_argument(
        "--torch-threads",
        type=_flag_count,
        default=None,
        metavar="N",
        help="threads torch uses for the networks (default 1, or BOARDGAMES_TORCH_THREADS / OMP_NUM_THREADS "
        "when set: more threads only help a large network on an idle machine)",
    )


def apply_torch_threads(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Torch's threads for a command: its ``--torch-threads`` or the rule's default (nothing is imported
    when torch is not loaded yet); a bad ``BOARDGAMES_TORCH_THREADS`` or ``OMP_NUM_THREADS`` is a usage
    error (``parser.error``)."""
    try:
        return use_torch_threads(getattr(args, "torch_threads", None))
    except TorchThreadsError as e:
        parser.error(str(e))


def _flag_count(text: str) -> int:
    try:
        return _count_from("--torch-threads", text)
    except TorchThreadsError as e:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from e


def _apply(count: int) -> None:
    """Set torch's threads to ``count`` when torch is loaded (never importing it)."""
    global _applied, _interop_tried
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "set_num_threads"):
        return
    if torch.get_num_threads() != count:
        torch.set_num_threads(count)
    if not _interop_tried:
        _interop_tried = True
        try:
            torch.set_num_interop_threads(count)
        except RuntimeError:  # its pool has started (or someone set it): it keeps its count
            pass
    _applied = True


def _reset_for_tests() -> None:
    """Forget every choice (the tests' fresh start; torch's own settings are left as they are)."""
    global _chosen, _applied, _interop_tried
    _chosen, _applied, _interop_tried = None, False, False
