"""The layers of the project keep their direction: ``envs`` never imports ``training`` (or
``benchmarks``), and no module of ``envs``, ``training`` or ``benchmarks`` takes part in an import
cycle, counting the imports made inside functions (which hide cycles from Python itself)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("envs", "training", "benchmarks")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imports_of(path: Path, name: str, known: dict) -> set[str]:
    """The project modules ``path`` imports anywhere in its code (module level or inside functions);
    ``from pkg import x`` counts as importing ``pkg.x`` when that is a module, else ``pkg``."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    known = project_modules()
    return {name: imports_of(path, name, known) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_sees_function_local_imports():
    graph = import_graph()
    # training.evaluate imports torch and envs.registry inside main(); the walk must see the latter
    assert "envs.registry" in graph["training.evaluate"]
    assert "envs.core.game" in graph["envs.core.play"]


def test_envs_never_imports_training_or_benchmarks():
    wrong = sorted(
        (mod, dep)
        for mod, deps in import_graph().items()
        if mod.split(".")[0] == "envs"
        for dep in deps
        if dep.split(".")[0] in ("training", "benchmarks")
    )
    assert not wrong, f"envs must not import training or benchmarks: {wrong}"


def test_training_never_imports_benchmarks():
    wrong = sorted(
        (mod, dep)
        for mod, deps in import_graph().items()
        if mod.startswith("training")
        for dep in deps
        if dep.startswith("benchmarks")
    )
    assert not wrong, wrong


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    graph = import_graph()
    sub = {
        m: {d for d in deps if d.split(".")[0] == package} for m, deps in graph.items() if m.split(".")[0] == package
    }
    cycle = find_cycle(sub)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_import_cycle_across_packages():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
