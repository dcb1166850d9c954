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

The first time a process compiles something of a game's engine (numba found no cached code for it: a new
install, a changed library, a new kind of call) one line on stderr says so and how long it may take;
nothing is said when numba reads it from disk.
"""

from __future__ import annotations

import importlib
import importlib.util
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


# ----- one line on stderr, once per game and process ---------------------------------------------------------

_ANNOUNCED: set[str] = set()
_WATCHED: dict[str, str] = {}
"""Name of an engine module -> its game: a compile of one of its functions means numba had nothing cached."""


def _announce(game: str, how: str | None = None) -> None:
    if game in _ANNOUNCED:
        return
    _ANNOUNCED.add(game)
    how = how or "about 20 s to 2 min; numba caches it on disk, later runs read it back"
    print(f"boardgames: compiling the {game} engine for a first use ({how})", file=sys.stderr, flush=True)


def _shown(path: Path) -> str:
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


class _ColdCache(event.Listener):
    """numba's compile events (sent only when a function is not found in its disk cache): the first one for an
    engine's function announces its game."""

    def on_start(self, ev):
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        game = _WATCHED.get(getattr(getattr(dispatcher, "py_func", None), "__module__", None))
        if game is not None:
            _announce(game)

    def on_end(self, ev):
        pass


event.register("numba:compile", _ColdCache())
