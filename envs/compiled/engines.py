"""A game's compiled engine, loaded once per process: :func:`engine`.

Every compiled consumer of a game's kernels (the PettingZoo adapters' per-turn kernels in
:mod:`boardgames.envs.compiled.turns`, the batch loops of :mod:`boardgames.envs.vector.loops`, the search of
:mod:`boardgames.envs.search.loops`, the AlphaZero evaluator through
:func:`boardgames.envs.vector.positions.observe_positions`)
takes its functions from one module per game, the game's *engine*: the text of the templates of
:mod:`boardgames.envs.compiled.render` with the game's slots filled in, numba functions compiled on first use
and cached on disk by numba (``cache=True``).

Where it comes from:

* **the library's games** keep theirs beside their rules (``envs/dorix/engine.py``), rendered by ``make
  engines`` and checked by ``tests/test_generated_engines.py``; :func:`engine` imports it when its text is
  what the templates and the sources give today (its digest names them);
* **anything else** (a game from another package, or a library game whose rules were edited since its engine
  was rendered) gets the same text written into the cache folder (:func:`kernel_folder`, file
  ``<game>_engine_<digest>.py``, written atomically; the older files of the game beyond :data:`KEEP` are
  removed) and imported from there. A change to the rules names a new file, so numba never runs code
  compiled from older sources. Where that folder cannot be written, a temporary folder of the process is.

An engine compiles in parts, each on its first use (:data:`PARTS`: the adapters' per-turn kernels, the batch
loops, the search). The first time a process compiles something of a part (numba found no cached code for it: a
new install, a changed library, a part not used before, a new kind of call) one line on stderr names the game and
the part and says how long it usually takes (:func:`first_compile_line`); nothing is said when numba reads it from
disk.
"""

from __future__ import annotations

import importlib
import importlib.util
import linecache
import os
import sys
import tempfile
import uuid
from pathlib import Path
from types import ModuleType

from numba.core import event

from boardgames import __version__
from boardgames.envs.compiled.render import game_label, render, repository_path
from boardgames.envs.core.game_kernels import GameKernels, module_label

CACHE_ENV = "BOARDGAMES_CACHE_DIR"
"""The environment variable naming the cache folder (default: ``$XDG_CACHE_HOME/boardgames``, else
``~/.cache/boardgames``)."""
KEEP = 4
"""Engine files kept per game in the cache folder (other checkouts or versions may use the older ones)."""


def cache_root() -> Path:
    """The cache folder of the library: ``$BOARDGAMES_CACHE_DIR``, else ``$XDG_CACHE_HOME/boardgames``, else
    ``~/.cache/boardgames``."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "boardgames"


def kernel_folder() -> Path:
    """Where engines rendered at run time are written: ``<cache_root()>/kernels/<version of the library>``."""
    return cache_root() / "kernels" / __version__


def engine(kernels: GameKernels) -> ModuleType:
    """The engine module of ``kernels``' game (see the module docstring), the same module on every call."""
    return kernels.derived("engine", lambda: _load_engine(kernels))


def _load_engine(kernels: GameKernels) -> ModuleType:
    game = game_label(kernels)
    text = render(kernels)
    kept = repository_path(kernels)
    if kept is not None and _same_text(kept, text):
        name = module_label(kernels.rules).rpartition(".")[0] + ".engine"
        _WATCHED[name] = game
        return importlib.import_module(name)
    digest = text.partition("\ndigest: ")[2][:16]
    path = kernel_folder() / f"{game}_engine_{digest}.py"
    try:
        return _load_file(path, text, game)
    except OSError as why:  # an unwritable cache folder: a folder of this process's own
        note = f"cannot write {_shown(path.parent)} ({why.strerror or type(why).__name__})"
        _announce(game, f"{note}; compiled for this process only")
        return _load_file(Path(tempfile.mkdtemp(prefix="boardgames-engine-")) / path.name, text, game)


def _same_text(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8").replace("\r\n", "\n") == text
    except OSError:
        return False


# ----- files in the cache folder -----------------------------------------------------------------------------

_LOADED: dict[Path, ModuleType] = {}


def _load_file(path: Path, text: str, game: str) -> ModuleType:
    """The module of ``path``, written first if it is missing or differs from ``text``."""
    module = _LOADED.get(path)
    if module is not None:
        return module
    if not _same_text(path, text):
        _write(path, text)
        _prune(path)
    name = "boardgames_engine_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no Python module at {path}")
    module = importlib.util.module_from_spec(spec)
    _WATCHED[name] = game
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    _LOADED[path] = module
    return module


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _prune(path: Path) -> None:
    """Remove the engine files of ``path``'s game but the :data:`KEEP` newest, with what numba and Python
    cached for them next to them (best effort: another process may be removing them too)."""
    prefix = path.stem.rpartition("_")[0] + "_"
    try:
        siblings = [p for p in path.parent.glob(prefix + "*.py") if p.stem.rpartition("_")[0] + "_" == prefix]
        siblings.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in siblings[KEEP:]:
            for cached in (old.parent / "__pycache__").glob(old.stem + ".*"):
                cached.unlink(missing_ok=True)
            old.unlink(missing_ok=True)
    except OSError:
        pass


# ----- one line on stderr, once per part of a game's engine and process -------------------------------------

PARTS = (
    ("the PettingZoo adapters", "adapters (PettingZoo and Gymnasium environments)", "about 5 to 40 s"),
    ("the batch loops", "batch loops (make_vec, LearnerBatch, training)", "about 10 s to 2 min"),
    ("the search", "search (MCTS and AlphaZero agents)", "about 20 s to 2 min"),
)
"""The parts of an engine that compile apart, each on its first use: (the start of its section's title in the
rendered engine, what it is, how long its first compile usually takes: measured with an empty cache on the
2-core development machine, the short figure quiet, the long one at a load of 7 to 12; README "First use")."""
STEP_PART = ("step (moves, masks, observations)", "about 5 to 40 s")
"""A function of the engine's first sections (how a decision is played, masks, the step) called on its own."""

_ANNOUNCED: set = set()
_WATCHED: dict[str, str] = {}
"""Name of an engine module -> its game: a compile of one of its functions means numba had nothing cached."""


def engine_part(function) -> tuple[str, str]:
    """(what it is, how long its first compile usually takes) of the part of an engine (:data:`PARTS`) that
    ``function`` belongs to: the section of the engine's text it is defined in."""
    code = getattr(function, "__code__", None)
    if code is None:
        return STEP_PART
    lines = linecache.getlines(code.co_filename)[: code.co_firstlineno]
    title = next((line for line in reversed(lines) if line.startswith("# ----- ")), "")[len("# ----- ") :]
    return next(((what, usual) for start, what, usual in PARTS if title.startswith(start)), STEP_PART)


def first_compile_line(game: str, part: tuple[str, str]) -> str:
    """The line said when ``part`` of ``game``'s engine is compiled: which part, how long it usually takes, and
    that it is cached on disk while the engine's other parts compile on their own first use."""
    what, usual = part
    return (
        f"boardgames: compiling the {game} engine's {what}, first use on this machine: {usual}. numba caches it "
        "on disk, so later runs start at once; the engine's other parts (and new kinds of call) compile on their "
        "own first use"
    )


def _announce(game: str, how: str | None = None, part: tuple[str, str] | None = None) -> None:
    """Say, once per process for each part of ``game``'s engine, that it is being compiled (``how``: a note
    replacing the line, said once per game). The step's functions are said only when nothing of the game was."""
    key = (game, None if how else part)
    if key in _ANNOUNCED or (part == STEP_PART and any(said[0] == game for said in _ANNOUNCED)):
        return  # a function of the step called on its own after a part: compiled with it, or quick
    _ANNOUNCED.add(key)
    line = f"boardgames: compiling the {game} engine ({how})" if how else first_compile_line(game, part or STEP_PART)
    print(line, file=sys.stderr, flush=True)


def _shown(path: Path) -> str:
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


class _ColdCache(event.Listener):
    """numba's compile events (sent only when a function is not found in its disk cache). A compile started
    outside any other is a call from Python: the first engine function it compiles, itself or nested, names the
    part announced (:func:`engine_part`); the functions it compiles on the way belong to that part."""

    def __init__(self):
        self.depth = 0
        self.claimed = False  # the outermost compile under way has named its part

    def on_start(self, ev):
        if self.depth == 0:
            self.claimed = False
        self.depth += 1
        if self.claimed:
            return
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        function = getattr(dispatcher, "py_func", None)
        game = _WATCHED.get(getattr(function, "__module__", None))
        if game is not None:
            self.claimed = True
            _announce(game, part=engine_part(function))

    def on_end(self, ev):
        self.depth = max(0, self.depth - 1)


event.register("numba:compile", _ColdCache())
