"""Render a game's compiled engine from the templates: the text of ``envs/<game>/engine.py``.

A game's engine (:mod:`boardgames.envs.compiled.engines` loads it) is one module of numba functions: the step
after a decision and everything built on it. It is the text of three templates in ``templates/`` with
named slots (``string.Template``'s ``$name``) filled from the game's
:class:`~boardgames.envs.core.game_kernels.GameKernels`:

=====================  =================================================================================
``engine_head``        the module docstring, the ``$kernel_imports`` (each kernel and constant of the
                       game's contract imported from the module that defines it:
                       :func:`kernel_imports`) and the ``$digest`` (:func:`sources_digest`)
``turn_moves`` or      how a decision is played: the only part that differs between turn-based and
``joint_moves``        simultaneous games (``$moves_template`` names which)
``engine_body``        the step, the adapters' kernels, the batch loops and the search; ``$listed_def``:
                       ``legal_mask_listed`` made of ``legal_mask`` where the rules have none;
                       ``$leaf_def``: ``leaf_values`` giving 0 where the rules value no position;
                       ``$packed_by_rules``: ``True`` where the rules' mask kernels also write packed masks
                       (``WRITES_PACKED = True``, :mod:`boardgames.envs.compiled.packing`), which the
                       engine then hands them, else ``False`` (a bool mask on the stack, packed)
=====================  =================================================================================

``python -m boardgames.envs.compiled.render`` (``make engines``) writes the engine of every game of the library
into its folder; ``--check`` only says which differ (exit status 1). A game from elsewhere gets the same text
rendered into the cache folder instead (:mod:`boardgames.envs.compiled.engines`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path
from string import Template
from types import ModuleType

from boardgames.envs.core.game_kernels import GameKernels, KernelContractError, module_label

TEMPLATES = Path(__file__).with_name("templates")
HEAD, BODY = "engine_head.py.tmpl", "engine_body.py.tmpl"
MOVES = {False: "turn_moves.py.tmpl", True: "joint_moves.py.tmpl"}
ENGINE_IMPORTS = (
    "boardgames.envs.compiled.buffers",
    "boardgames.envs.compiled.packing",
    "boardgames.envs.compiled.regret",
    "boardgames.envs.compiled.sampling",
    "boardgames.envs.compiled.tree_layout",
    "boardgames.envs.compiled.variants",
    "boardgames.envs.compiled.views",
)
"""The library's modules an engine imports besides the game's own (their source is in its digest)."""

LISTED_DEF = '''

@njit(cache=True)
def legal_mask_listed(data, seat, mask, listed):
    """The seat's legal mask, and its legal actions listed (the rules list none as they go)."""
    legal_mask(data, seat, mask)
    list_legal(mask, listed)
'''

LEAF_DEF = '''

@njit(cache=True)
def leaf_values(data, out):
    """No value of a running position (the rules give none): 0 for every seat."""
    out[:] = 0.0
'''


def writes_packed(kernels: GameKernels) -> bool:
    """Whether the rules' mask kernels also write a packed mask (uint8) themselves: ``WRITES_PACKED = True``
    in the rules module (:mod:`boardgames.envs.compiled.packing`)."""
    return getattr(kernels.rules, "WRITES_PACKED", False) is True


def game_label(kernels: GameKernels) -> str:
    """A game's name for messages and file names, from its rules module (``boardgames.envs.dorix.rules`` ->
    ``dorix``)."""
    parts = module_label(kernels.rules).split(".")
    name = parts[-2] if parts[-1] == "rules" and len(parts) > 1 else parts[-1]
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def template_text(name: str) -> str:
    """The text of the template ``name``."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def slots(kernels: GameKernels) -> dict:
    """The values of the templates' slots for ``kernels`` (see the module docstring)."""
    listed = kernels.legal_mask_listed is not None
    rules, observe = module_label(kernels.rules), module_label(kernels.encoder)
    return {
        "game": game_label(kernels),
        "rules": rules,
        "observe": observe,
        "kind_line": "Every seat acts at once." if kernels.simultaneous else "The seats take turns.",
        "moves_template": MOVES[kernels.simultaneous].split(".")[0],
        "listed_from": "by the rules" if listed else "from legal_mask",
        "kernel_imports": kernel_imports(kernels),
        "listed_def": "" if listed else LISTED_DEF,
        "leaf_def": "" if kernels.leaf_values is not None else LEAF_DEF,
        "packed_by_rules": str(writes_packed(kernels)),
        "digest": sources_digest(kernels),
    }


CONSTANTS = ("NUM_ACTIONS", "TO_MOVE", "TRUNCATED", "TURN")
"""The rules' constants an engine reads."""


class NotImportable(KernelContractError):
    """A game's kernel that an engine cannot import by name (a function made inside another, a lambda)."""


def kernel_imports(kernels: GameKernels) -> str:
    """The engine's import lines for the game's kernels and constants: each imported from the module that
    defines it (under the contract's name), a constant of a rules namespace that is no module written as a
    number. NotImportable names a kernel that no module holds at its top level."""
    rules, encoder = kernels.rules, kernels.encoder
    wanted = [(rules, name) for name in CONSTANTS]
    wanted += [(rules, "apply_joint" if kernels.simultaneous else "apply_action")]
    wanted += [(rules, name) for name in ("is_over", "legal_mask", "returns")]
    wanted += [(rules, name) for name in ("legal_mask_listed", "leaf_values") if getattr(kernels, name) is not None]
    wanted.append((encoder, "observe"))
    by_module: dict[str, list[str]] = {}
    literals = []
    for holder, name in wanted:
        value = getattr(holder, name)
        if isinstance(holder, ModuleType):
            origin = (holder.__name__, name)
        elif isinstance(value, int):
            literals.append(f"{name} = {int(value)!r}")
            continue
        else:
            origin = _defined_at(value, name, holder)
        module, attr = origin
        by_module.setdefault(module, []).append(name if attr == name else f"{attr} as {name}")
    lines = [_from_import(module, names) for module, names in sorted(by_module.items())]
    return "\n".join(lines + ([""] + literals if literals else []))


def _defined_at(value, name: str, holder) -> tuple[str, str]:
    """(module, name) from which ``value`` (a function or numba dispatcher) imports as itself."""
    target = getattr(value, "py_func", value)
    module, attr = getattr(target, "__module__", None), getattr(target, "__qualname__", "")
    if isinstance(module, str) and "." not in attr and "<" not in attr:
        if getattr(sys.modules.get(module), attr, None) is value:
            return module, attr
    raise NotImportable(
        f"{module_label(holder)}.{name} cannot be imported by name (an engine imports each kernel from the module "
        "that defines it): define it at the top level of a module"
    )


def _from_import(module: str, names: list[str]) -> str:
    names = sorted(set(names), key=lambda n: (not n.isupper(), n))
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= 120:
        return line
    return f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"


def kernel_modules(kernels: GameKernels) -> set[str]:
    """The modules the engine imports the game's kernels from."""
    text = kernel_imports(kernels)
    return {line.split()[1] for line in text.splitlines() if line.startswith("from ")}


def render(kernels: GameKernels) -> str:
    """The text of ``kernels``' engine module."""
    values = slots(kernels)
    parts = (Template(template_text(name)).substitute(values) for name in (HEAD, MOVES[kernels.simultaneous], BODY))
    text = "".join(parts)
    while "\n\n\n\n" in text:  # an empty slot leaves no hole
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text.rstrip() + "\n"


# ----- the digest --------------------------------------------------------------------------------------------


def sources_digest(kernels: GameKernels) -> str:
    """16 hex digits of the hash of the templates and of the source of every module the engine compiles: the
    game's rules and observe modules, the library's modules they and the engine import (line endings made
    the same first, so that a checkout on any system gets the same digest)."""
    h = hashlib.sha256()
    for name in sorted((HEAD, BODY, *MOVES.values())):
        h.update(name.encode() + b"\0" + _normalised((TEMPLATES / name).read_bytes()))
    start = kernel_modules(kernels) | set(ENGINE_IMPORTS)
    for name in _reached_modules(start):
        path = getattr(sys.modules[name], "__file__", None)
        if path and os.path.exists(path):
            h.update(name.encode() + b"\0" + _file_hash(path))
    return h.hexdigest()[:16]


_FILE_HASHES: dict = {}


def _normalised(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


def _file_hash(path: str) -> bytes:
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _FILE_HASHES:
        with open(path, "rb") as f:
            _FILE_HASHES[key] = hashlib.sha256(_normalised(f.read())).digest()
    return _FILE_HASHES[key]


def _reached_modules(start: set) -> list[str]:
    """``start`` and every module reached from them through the functions, classes and modules they hold,
    within their top-level packages (``boardgames``, a plugin game's package): the code an engine may compile.
    A package's own submodules are not followed (which ones are attributes depends on what the process has
    imported), so the answer is the same in every process."""
    for name in start:
        if name not in sys.modules:
            __import__(name)
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
            owner: str | None
            if isinstance(value, ModuleType):
                owner = value.__name__
                if owner.startswith(name + "."):
                    continue
            else:
                owner = getattr(value, "__module__", None)
            if isinstance(owner, str) and owner.partition(".")[0] in tops and owner not in seen:
                todo.append(owner)
    return sorted(seen)


# ----- the library's engines ---------------------------------------------------------------------------------


def repository_path(kernels: GameKernels) -> Path | None:
    """Where ``kernels``' engine is kept beside its rules: ``engine.py`` in the folder of a rules module named
    ``<package>.rules`` (None for any other module, or one without a file)."""
    name, path = module_label(kernels.rules), getattr(kernels.rules, "__file__", None)
    if not name.endswith(".rules") or not path:
        return None
    return Path(path).with_name("engine.py")


def library_kernels() -> list[GameKernels]:
    """The kernels of every game of the library (one per rules module), from the catalogue."""
    import importlib

    registry = importlib.import_module("boardgames.envs.registry")  # the catalogue, named at run time
    from boardgames.envs.core.game_kernels import kernels_of

    found: dict[str, GameKernels] = {}
    for name in registry.game_names():
        kernels = kernels_of(registry.make_game(name))
        if module_label(kernels.rules).startswith("boardgames.envs."):
            found.setdefault(module_label(kernels.rules), kernels)
    return list(found.values())


def main(argv: list | None = None) -> int:
    """Write (or with ``--check`` compare) the engine of every game of the library."""
    parser = argparse.ArgumentParser(prog="python -m boardgames.envs.compiled.render", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="only report the engines that differ (exit 1)")
    args = parser.parse_args(argv)
    stale = []
    for kernels in library_kernels():
        path = repository_path(kernels)
        assert path is not None, "a library game's rules module is <package>.rules"
        text = render(kernels)
        old = path.read_text(encoding="utf-8").replace("\r\n", "\n") if path.exists() else None
        if old == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(("differs: " if args.check else "rendered: ") + str(path))
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
