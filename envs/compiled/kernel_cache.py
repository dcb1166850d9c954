"""The kernels generated from a game's kernels, compiled once and then read from disk.

The adapters' per-turn kernels (:mod:`boardgames.envs.compiled.turns`), the batch loops
(:mod:`boardgames.envs.vector.loops`) and the compiled search (:mod:`boardgames.envs.search.loops`) are written once for
every game, as closures over a game's :class:`~boardgames.envs.core.game_kernels.GameKernels`. numba does not keep
a closure in its disk cache (it finds a cached function by its file and name, and checks the values it closes
over by pickling them, and the game's kernels pickle differently in every process), so every process would
compile them again. :func:`disk_cached` writes them out as a real module instead, which numba caches like any
other:

* **the source**: each closure's own source (``inspect``), undecorated and decorated again
  ``@njit(cache=True)`` with the options of the dispatcher it stands for (``parallel=True`` for the threaded
  loops), and every value it closes over or reads as a global written as a module global: numbers and tuples
  as literals, modules imported, the game's kernels and any other module-level function imported from the
  module that defines it, a closure it calls written out the same way. numba reads a global as a compile-time
  constant exactly as it reads a closed-over value, so the compiled code is the same.
* **the file**: ``<game>_<variant>_<digest>.py`` in :func:`kernel_folder`, written atomically (a temporary
  file, then ``os.replace``). The digest hashes the source and the source files of every module of the
  library (or of the game's package) that it reaches: the game's rules, the compiled helpers they call, the
  modules of the closures. numba's own cache notices only a change to the file of the function itself; here a
  change to any of them names a new file, and the older files of the same game and variant beyond the
  :data:`KEEP` newest are removed with what numba cached for them.
* **then** it is imported, and numba keeps what it compiles next to it (``__pycache__``, or under
  ``NUMBA_CACHE_DIR`` when that is set).

The first time a game's generated kernels compile in a process (the disk cache is cold: a new install, a
changed library, a new variant) one line on stderr says so; nothing is said when they are read from disk.
Where no module can be written or imported (an unwritable cache folder, a closure over a value that has no
source form) the closures themselves are compiled in memory, as every process did before, and the line says
that too; under ``NUMBA_DISABLE_JIT=1`` nothing is generated.
"""

from __future__ import annotations

import ast
import builtins
import copy
import hashlib
import importlib.util
import math
import os
import re
import sys
import textwrap
import types
import uuid
from pathlib import Path
from types import ModuleType

import numba
from numba.core import event
from numba.core.dispatcher import Dispatcher

from boardgames import __version__
from boardgames.envs.core.game_kernels import GameKernels

CACHE_ENV = "BOARDGAMES_CACHE_DIR"
"""The environment variable naming the cache folder (default: ``$XDG_CACHE_HOME/boardgames``, else
``~/.cache/boardgames``)."""
KEEP = 4
"""Generated files kept per game and variant (other checkouts or versions of the library may use the older
ones); older ones are removed when a new one is written."""

_DROPPED_OPTIONS = ("nopython", "cache")
"""Dispatcher options the generated decorator sets itself (``njit`` and ``cache=True``)."""


def cache_root() -> Path:
    """The cache folder of the library: ``$BOARDGAMES_CACHE_DIR``, else ``$XDG_CACHE_HOME/boardgames``, else
    ``~/.cache/boardgames``."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "boardgames"


def kernel_folder() -> Path:
    """Where the generated kernel modules are written: ``<cache_root()>/kernels/<version of the library>``."""
    return cache_root() / "kernels" / __version__


# ----- the public entry --------------------------------------------------------------------------------------


def disk_cached(kernels: GameKernels, variant: str, functions: dict) -> dict:
    """``functions`` (name -> value) with each numba dispatcher of a closure replaced by the same function of a
    generated module cached on disk (see the module docstring); other values are kept as they are. ``variant``
    names what they are (``"turn"``, ``"batch_..."``), readable in the file name. Where no module can be used,
    ``functions`` itself (compiled in memory, one line on stderr saying so)."""
    roots = {name: value for name, value in functions.items() if _generated_here(value)}
    if not roots or numba.config.DISABLE_JIT:
        return functions
    game = game_label(kernels)
    try:
        source, names, writer = _module_source(game, variant, roots)
        path = kernel_folder() / f"{_file_stem(game, variant)}_{_digest(source, writer.modules)}.py"
        module = _load(path, source, game)
        missing = sorted(name for name in writer.values if not hasattr(module, name))
        if missing:
            raise ImportError(f"{path.name} does not define {', '.join(missing)}")
    except Exception as why:  # the cache is only a shortcut: whatever fails, compile as without it
        _announce(game, f"compiled in memory, every run: {_reason(why)}")
        return functions
    return {name: getattr(module, names[name]) if name in roots else value for name, value in functions.items()}


def njit_variant(fn, suffix: str, **options):
    """``njit(cache=True, **options)`` of a copy of the plain function ``fn`` named ``<its name><suffix>``: a
    second compiled form of the same code (``parallel=True`` beside the serial one) with numba cache files of
    its own. numba names a function's cache files after its module, name and first line, and checks only the
    signature and the code, so two forms of one function would read each other's cached code."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + suffix, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + suffix
    copy.__module__, copy.__doc__ = fn.__module__, fn.__doc__
    return numba.njit(cache=True, **options)(copy)


def game_label(kernels: GameKernels) -> str:
    """A game's name for messages and file names, from its rules module (``boardgames.envs.dorix.rules`` ->
    ``dorix``)."""
    parts = (getattr(kernels.rules, "__name__", None) or "game").split(".")
    name = parts[-2] if parts[-1] == "rules" and len(parts) > 1 else parts[-1]
    return re.sub(r"\W", "_", name)


# ----- one line on stderr, once per game and process ---------------------------------------------------------

_ANNOUNCED: set[str] = set()
_WATCHED: dict[str, str] = {}
"""Name of a generated module -> its game: a compile of one of its functions is a cold cache."""


def _announce(game: str, how: str | None = None) -> None:
    if game in _ANNOUNCED:
        return
    _ANNOUNCED.add(game)
    how = how or f"once; cached in {_shown(cache_root())}"
    print(f"boardgames: compiling the {game} kernels ({how})", file=sys.stderr, flush=True)


def _shown(path: Path) -> str:
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


class _ColdCache(event.Listener):
    """numba's compile events (sent only when a function is not found in its disk cache): the first one for a
    generated module's function announces its game."""

    def on_start(self, ev):
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        game = _WATCHED.get(getattr(getattr(dispatcher, "py_func", None), "__module__", None))
        if game is not None:
            _announce(game)

    def on_end(self, ev):
        pass


event.register("numba:compile", _ColdCache())


# ----- the file ----------------------------------------------------------------------------------------------


def _file_stem(game: str, variant: str) -> str:
    return f"{game}_{re.sub(r'[^0-9A-Za-z]+', '_', variant).strip('_')}"


_LOADED: dict[Path, ModuleType] = {}


def _load(path: Path, source: str, game: str) -> ModuleType:
    """The module of ``path``, written first if it is missing or differs from ``source``."""
    module = _LOADED.get(path)
    if module is not None:
        return module
    name = "boardgames_kernels_" + path.stem
    try:
        fresh = path.read_text(encoding="utf-8") != source
    except OSError:
        fresh = True
    if fresh:
        _write(path, source)
        _prune(path)
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


def _write(path: Path, source: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _prune(path: Path) -> None:
    """Remove the files of ``path``'s game and variant but the :data:`KEEP` newest, with what numba and Python
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


def _reason(why: BaseException) -> str:
    if isinstance(why, OSError) and why.filename:
        return f"cannot write {_shown(Path(why.filename))} ({why.strerror or type(why).__name__})"
    return f"{type(why).__name__}: {why}"


# ----- the digest --------------------------------------------------------------------------------------------


def _digest(source: str, modules: set) -> str:
    """16 hex digits of the hash of ``source`` and of the source files of every module reached from
    ``modules`` (:func:`_reached_modules`)."""
    h = hashlib.sha256(source.encode())
    for name in _reached_modules(modules):
        path = getattr(sys.modules[name], "__file__", None)
        if path and os.path.exists(path):
            st = os.stat(path)
            h.update(name.encode() + b"\0" + _file_hash(path, st.st_mtime_ns, st.st_size))
    return h.hexdigest()[:16]


_FILE_HASHES: dict = {}


def _file_hash(path: str, mtime: int, size: int) -> bytes:
    key = (path, mtime, size)
    if key not in _FILE_HASHES:
        with open(path, "rb") as f:
            _FILE_HASHES[key] = hashlib.sha256(f.read()).digest()
    return _FILE_HASHES[key]


def _reached_modules(start: set) -> list[str]:
    """``start`` and every module reached from them through the functions, classes and modules they hold,
    within their top-level packages (``boardgames``, a plugin game's package): the code the generated kernels
    may compile. A package's own submodules are not followed (which ones are attributes depends on what the
    process has imported), so the answer is the same in every process."""
    tops = {name.partition(".")[0] for name in start}
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        module = sys.modules.get(name)
        if name in seen or module is None:
            continue
        seen.add(name)
        for value in list(vars(module).values()):
            if isinstance(value, ModuleType):
                owner = value.__name__
                if owner.startswith(name + "."):
                    continue
            else:
                owner = getattr(value, "__module__", None)
            if isinstance(owner, str) and owner.partition(".")[0] in tops and owner not in seen:
                todo.append(owner)
    return sorted(seen)


# ----- the source --------------------------------------------------------------------------------------------


class _NoSource(Exception):
    """A closure that cannot be written as module source (its source is unavailable, or a value it uses has no
    source form)."""


def _generated_here(value) -> bool:
    """Whether ``value`` is a numba dispatcher this module writes out: one not importable from its module (a
    closure, a function made inside another)."""
    return isinstance(value, Dispatcher) and _import_path(value) is None


def _import_path(value) -> tuple[str, str] | None:
    """``(module, name)`` from which ``value`` (a function, dispatcher or class) is imported as itself, or None."""
    target = value.py_func if isinstance(value, Dispatcher) else value
    module_name = getattr(target, "__module__", None)
    qualname = getattr(target, "__qualname__", None)
    if not isinstance(module_name, str) or not isinstance(qualname, str) or "<" in qualname or "." in qualname:
        return None
    module = sys.modules.get(module_name)
    return (module_name, qualname) if module is not None and getattr(module, qualname, None) is value else None


def _literal(value) -> str | None:
    """``value`` as a Python literal (numbers, strings, None and tuples of them), or None."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else None
    if isinstance(value, tuple):
        items = [_literal(v) for v in value]
        if any(item is None for item in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return None


def _module_source(game: str, variant: str, roots: dict) -> tuple[str, dict, _Writer]:
    """The source of the module of ``roots`` (name -> closure dispatcher), the name of each root's function in
    it, and the writer that made it (its global names, the modules its code reads from)."""
    writer = _Writer()
    names = {name: writer.function(dispatcher, name) for name, dispatcher in roots.items()}
    origins = ", ".join(sorted(writer.templates))
    header = (
        f'"""The {variant} kernels of {game}, generated by boardgames.envs.compiled.kernel_cache from {origins}:\n'
        "every function compiled once by numba and cached on disk. Do not edit: a change to the library writes a\n"
        'new file."""\n\n'
    )
    imports = sorted(line for line in writer.header if line.startswith(("import ", "from ")))
    constants = [line for line in writer.header if not line.startswith(("import ", "from "))]
    parts = ["\n".join(imports), "\n".join(constants)] if constants else ["\n".join(imports)]
    source = header + "\n\n".join(parts) + "\n\n\n" + "\n\n\n".join(writer.bodies) + "\n"
    if writer.aliases:  # after the functions they may name
        source += "\n\n" + "\n".join(writer.aliases) + "\n"
    return source, names, writer


class _Writer:
    """Builds a module's source from closures: :meth:`function` writes one (and what it uses) and returns its
    name in the module."""

    def __init__(self):
        self.values: dict[str, object] = {"njit": numba.njit}  # global name -> what it holds
        self.header: list[str] = ["from numba import njit"]
        self.bodies: list[str] = []
        self.aliases: list[str] = []  # other names of what the module holds, read by some function
        self.written: dict[tuple, str] = {}  # (id of the Python function, its options) -> its name here
        self.keep: list = []  # the Python functions of `written`, alive while their ids are keys
        self.templates: set[str] = set()  # modules the closures were written in
        self.modules: set[str] = set()  # every module the source reads from

    def function(self, dispatcher: Dispatcher, preferred: str) -> str:
        py = dispatcher.py_func
        options = tuple(
            sorted((k, v) for k, v in dispatcher.targetoptions.items() if k not in _DROPPED_OPTIONS and v is not None)
        )
        key = (id(py), options)
        if key in self.written:
            return self.written[key]
        node, text = _definition(py)
        name = self.written[key] = self._free_name(preferred, py.__name__)
        self.values[name] = dispatcher
        self.keep.append(py)
        self.templates.add(py.__module__)
        self.modules.add(py.__module__)
        cells = dict(zip(py.__code__.co_freevars, (c.cell_contents for c in py.__closure__ or ())))
        renames = {}
        for free in sorted(_free_names(node)):
            if free in cells:
                bound = self._bind(free, cells[free], None)
            elif free in py.__globals__:
                bound = self._bind(free, py.__globals__[free], py.__module__)
            elif hasattr(builtins, free):
                continue
            else:
                raise _NoSource(f"{py.__qualname__} reads {free!r}, which is not defined")
            if bound != free:
                renames[free] = bound
        if renames or not text.startswith("def "):  # rewritten from the syntax tree (comments are lost)
            node = _Rename(renames).visit(copy.deepcopy(node))
            node.decorator_list = []
            text = ast.unparse(node)
        text = re.sub(rf"^def {re.escape(py.__name__)}\b", f"def {name}", text, count=1)
        settings = ", ".join(["cache=True"] + [f"{k}={v!r}" for k, v in options])
        self.bodies.append(f"@njit({settings})\n{text}")
        return name

    def _bind(self, free: str, value, module: str | None) -> str:
        """The global name under which the generated module holds ``value``, read as ``free`` by a function of
        ``module`` (None: closed over), written into it on first use: ``free`` itself unless that name holds
        something else."""
        literal = _literal(value)
        if literal is not None:
            if free in self.values:
                held = self.values[free]
                if type(held) is type(value) and held == value:
                    return free
            name = self._free_name(free)
            self.header.append(f"{name} = {literal}")
            self.values[name] = value
            return name
        if self.values.get(free) is value:
            return free
        name = next((name for name, held in self.values.items() if held is value), None)
        if name is None:
            name = self._write(free, value, module)
        if name != free and free not in self.values:  # the same object under the name the function reads
            self.aliases.append(f"{free} = {name}")
            self.values[free] = value
            return free
        return name

    def _write(self, free: str, value, module: str | None) -> str:
        """``value`` written into the module (a function, an import) under ``free`` or a name of its own."""
        if isinstance(value, Dispatcher) and _import_path(value) is None:
            return self.function(value, free)
        if isinstance(value, ModuleType):
            name = self._free_name(free)
            self.header.append(f"import {value.__name__} as {name}" if value.__name__ != name else f"import {name}")
            self.modules.add(value.__name__)
        else:
            path = _import_path(value)
            if path is None and module is not None and getattr(sys.modules.get(module), free, None) is value:
                path = (module, free)
            if path is None:
                raise _NoSource(f"{free!r} ({type(value).__name__}) has no source form")
            name = self._free_name(path[1])
            self.header.append(f"from {path[0]} import {path[1]}" + (f" as {name}" if name != path[1] else ""))
            self.modules.add(path[0])
        self.values[name] = value
        return name

    def _free_name(self, *preferred: str) -> str:
        for name in preferred:
            if name not in self.values:
                return name
        k = 2
        while f"{preferred[0]}_{k}" in self.values:
            k += 1
        return f"{preferred[0]}_{k}"


_PARSED: dict = {}
"""(source file, its mtime and size) -> (its lines, {first line: the function definition starting there})."""


def _definition(py) -> tuple[ast.FunctionDef, str]:
    """The syntax tree of ``py``'s definition and its source text without decorators, dedented, read from its
    source file (each file parsed once per process)."""
    code = py.__code__
    try:
        st = os.stat(code.co_filename)
        key = (code.co_filename, st.st_mtime_ns, st.st_size)
        if key not in _PARSED:
            with open(code.co_filename, encoding="utf-8") as f:
                text = f.read()
            starts = {}
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef):
                    starts[node.decorator_list[0].lineno if node.decorator_list else node.lineno] = node
            _PARSED[key] = (text.splitlines(), starts)
    except (OSError, SyntaxError, ValueError) as why:
        raise _NoSource(f"no source for {py.__qualname__}: {why}") from None
    lines, starts = _PARSED[key]
    node = starts.get(code.co_firstlineno)
    if node is None or node.name != py.__name__:
        raise _NoSource(f"the source of {py.__qualname__} is not where its code says")
    for inner in ast.walk(node):
        if inner is not node and isinstance(inner, (ast.FunctionDef, ast.Lambda, ast.Global, ast.Nonlocal)):
            raise _NoSource(f"{py.__qualname__} holds a nested function or a global statement")
    return node, textwrap.dedent("\n".join(lines[node.lineno - 1 : node.end_lineno]))


def _free_names(node: ast.FunctionDef) -> set[str]:
    """The names ``node`` reads without binding them: its closed-over values and globals."""
    loaded, bound = set(), set()
    arguments = node.args
    for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
        bound.add(arg.arg)
    for arg in (arguments.vararg, arguments.kwarg):
        if arg is not None:
            bound.add(arg.arg)
    for statement in node.body:
        for inner in ast.walk(statement):
            if isinstance(inner, ast.Name):
                (loaded if isinstance(inner.ctx, ast.Load) else bound).add(inner.id)
    return loaded - bound


class _Rename(ast.NodeTransformer):
    def __init__(self, renames: dict):
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.renames:
            node.id = self.renames[node.id]
        return node
