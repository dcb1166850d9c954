"""``training/`` is grouped by family, and the families meet only through the shared modules.

The parts of ``boardgames.training`` (the first name after it) and what each may import of the others:

================  ==================================================================================
``settings``      nothing: config files, ``--set``, SettingError and the range checks
``cli``           ``settings``, ``torch_threads``: the flags every command shares
``torch_threads`` nothing: the one rule for torch's thread count (commands, agents)
``progress``      nothing: how far a run or a long evaluation is (a bar on a terminal, lines elsewhere)
``ray_cluster``   ``settings``: connecting a run to Ray with a CPU per worker (RLlib, AlphaZero's actors)
``storage``       ``settings``: files on disk (safe loading, shipped models, durable run folders)
``agent_kinds``   ``settings``, ``storage``: the families are plug-ins registered by name (``module:function``
                  texts imported with ``importlib`` when a spec of their kind is met), never imported here
``evaluation``    the shared modules: a leaf service, it reaches the families' agents only through
                  ``agent_kinds`` and imports no family
``run``           the run scaffold: the shared modules but ``agent_kinds``, and ``evaluation``
``sb3``,          the shared modules, ``evaluation`` and ``run``, never each other
``alphazero``,
``rllib``
``demo``          the shared modules, ``evaluation`` and the family it demonstrates (``sb3``)
================  ==================================================================================

The table is a stack of layers (:data:`LAYERS`: a part imports only parts of lower layers, the families
are independent of each other) and the parts' import graph has no cycle; both are tested, as import-linter's
layers and independence contracts would check them. (The hand-written walk stays: it sees imports made
inside functions and maps the repository's folders to ``boardgames.*`` without an installed package.)

Beside ``training/``, ``boardgames.play`` (a person against an agent: terminal, window, browser) may import its
shared modules only, reaching every family's agents through ``agent_kinds``; nothing in ``training/`` imports it.

Imports inside functions count (the walk of ``tests/helpers/imports.py``, as in ``tests/package/test_architecture.py``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers.imports import find_cycle, import_graph

TRAINING = "boardgames.training"
SHARED = {"settings", "cli", "storage", "agent_kinds", "torch_threads", "ray_cluster", "progress"}
FAMILIES = {"sb3", "alphazero", "rllib"}
MAY_IMPORT = {
    "": set(),  # boardgames.training itself
    "settings": set(),
    "cli": {"settings", "torch_threads"},
    "torch_threads": set(),
    "progress": set(),
    "ray_cluster": {"settings"},
    "storage": {"settings"},
    "agent_kinds": {"settings", "storage"},
    **{family: SHARED | {"evaluation", "run"} for family in FAMILIES},
    "evaluation": set(SHARED),
    "run": SHARED - {"agent_kinds"} | {"evaluation"},
    "demo": SHARED | {"evaluation", "sb3"},
}
"""The parts each part may import besides itself."""
LAYERS = [
    {"", "settings", "torch_threads", "progress"},
    {"cli", "ray_cluster", "storage"},
    {"agent_kinds"},
    {"evaluation"},
    {"run"},
    FAMILIES,
    {"demo"},
]
"""The parts of ``training/`` as layers, bottom first: every import :data:`MAY_IMPORT` allows points to a lower
layer, and the families (one layer) never import each other."""
CONSUMERS = {"boardgames.play": SHARED | {None}}
"""Packages beside ``training/`` that use its agents (``play/``: a person against an agent), and the parts of
``training/`` each may import (None: anything outside ``training/``); ``training/`` imports none of them."""


def part_of(module: str) -> str:
    """The part of ``boardgames.training`` that ``module`` belongs to (``""`` for the package itself)."""
    return module.removeprefix(TRAINING).removeprefix(".").split(".")[0]


def forbidden_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import between parts of ``training/`` that :data:`MAY_IMPORT` does not allow, and every import
    between ``training/`` and its consumers outside (:data:`CONSUMERS`) that the layout forbids, as
    ``"a -> b"``; a part missing from the table is reported too."""
    wrong = []
    for module, deps in sorted(graph.items()):
        consumer = next((c for c in CONSUMERS if module == c or module.startswith(c + ".")), None)
        if consumer is not None:
            wrong += [f"{module} -> {dep}" for dep in sorted(deps) if _part_in_training(dep) not in CONSUMERS[consumer]]
            continue
        if module != TRAINING and not module.startswith(TRAINING + "."):
            continue
        part = part_of(module)
        if part not in MAY_IMPORT:
            wrong.append(f"{module}: a part of training/ that MAY_IMPORT does not list")
            continue
        for dep in sorted(deps):
            if any(dep == c or dep.startswith(c + ".") for c in CONSUMERS):
                wrong.append(f"{module} -> {dep}")
            if not dep.startswith(TRAINING + "."):
                continue
            other = part_of(dep)
            if other != part and other not in MAY_IMPORT[part]:
                wrong.append(f"{module} -> {dep}")
    return wrong


def _part_in_training(module: str) -> str | None:
    """The part of ``training/`` that ``module`` is in, or None outside ``training/`` (always allowed to a
    consumer: the rooms of ``tests/package/test_architecture.py`` order the rest)."""
    if module != TRAINING and not module.startswith(TRAINING + "."):
        return None
    return part_of(module)


def test_training_parts_import_only_what_the_layout_allows():
    wrong = forbidden_imports(import_graph())
    assert not wrong, "imports across training/ that the layout forbids (see this file's docstring):\n" + "\n".join(
        wrong
    )


def test_every_part_of_training_is_in_the_table():
    parts = {part_of(m) for m in import_graph() if m == TRAINING or m.startswith(TRAINING + ".")}
    assert parts == set(MAY_IMPORT), parts ^ set(MAY_IMPORT)


def test_the_layout_rule_fails_on_a_forbidden_import():
    graph = import_graph()
    assert not forbidden_imports(graph)
    t = TRAINING
    graph[f"{t}.alphazero.train"] = graph[f"{t}.alphazero.train"] | {f"{t}.sb3.train"}  # a family sideways
    graph[f"{t}.storage.durable"] = graph[f"{t}.storage.durable"] | {f"{t}.cli"}  # storage above settings
    graph[f"{t}.evaluation.evaluate"] = graph[f"{t}.evaluation.evaluate"] | {f"{t}.sb3.agent"}  # past agent_kinds
    graph["boardgames.play.moves"] = graph["boardgames.play.moves"] | {
        f"{t}.rllib.policy_file"
    }  # play past agent_kinds
    graph[f"{t}.agent_kinds"] = graph[f"{t}.agent_kinds"] | {f"{t}.sb3.train"}  # more than a family's agents
    graph[f"{t}.sb3.agent"] = graph[f"{t}.sb3.agent"] | {"boardgames.play.window"}  # training up into play
    graph[f"{t}.tools.extra"] = set()  # a new part nobody placed
    assert forbidden_imports(graph) == [
        f"boardgames.play.moves -> {t}.rllib.policy_file",
        f"{t}.agent_kinds -> {t}.sb3.train",
        f"{t}.alphazero.train -> {t}.sb3.train",
        f"{t}.evaluation.evaluate -> {t}.sb3.agent",
        f"{t}.sb3.agent -> boardgames.play.window",
        f"{t}.storage.durable -> {t}.cli",
        f"{t}.tools.extra: a part of training/ that MAY_IMPORT does not list",
    ]


def test_the_shared_settings_are_read_in_one_module():
    """The families take the config files and the setting checks from ``settings``, not from each other."""
    graph = import_graph()
    readers = sorted(m for m, deps in graph.items() if f"{TRAINING}.settings" in deps)
    for module in (f"{TRAINING}.sb3.train", f"{TRAINING}.alphazero.train", f"{TRAINING}.rllib.train"):
        assert module in readers, module


def test_importing_the_agent_kinds_loads_no_family_and_no_torch():
    code = (
        "import sys, boardgames.training.agent_kinds as k\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib', "
        "'ray') or m.startswith(('boardgames.training.sb3', 'boardgames.training.alphazero', "
        "'boardgames.training.rllib', 'boardgames.training.evaluation', 'boardgames.play')))\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def layer_of(part: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if part in layer)


def test_the_table_is_a_stack_of_layers_with_independent_families():
    assert set().union(*LAYERS) == set(MAY_IMPORT)
    upward = [f"{part} -> {other}" for part, others in MAY_IMPORT.items() for other in others
              if layer_of(other) >= layer_of(part)]  # fmt: skip
    assert not upward, upward


def part_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports between the parts of ``training/`` (a part's imports of itself left out)."""
    parts: dict[str, set[str]] = {}
    for module, deps in graph.items():
        if module == TRAINING or module.startswith(TRAINING + "."):
            part = part_of(module)
            others = {part_of(d) for d in deps if d == TRAINING or d.startswith(TRAINING + ".")}
            parts.setdefault(part, set()).update(others - {part})
    return parts


def test_no_import_loop_among_the_parts_of_training():
    parts = part_graph(import_graph())
    assert find_cycle(parts) is None, find_cycle(parts)
    assert not parts["agent_kinds"] & FAMILIES, "the hub imports no family"
    assert not parts["evaluation"] & (FAMILIES | {"run"}), "evaluation is a leaf service"
    parts["evaluation"].add("sb3")  # what the loop of old was: hub -> family -> evaluation -> hub
    assert find_cycle(parts) is not None


def test_every_family_kind_names_functions_that_exist():
    """The families' kinds are registered by name: each name must lead to a function of the family."""
    import importlib

    from boardgames.training import agent_kinds

    references = [f.reference for kind in agent_kinds.AGENT_KINDS.values() for f in (kind.build,)
                  if hasattr(f, "reference")]  # fmt: skip
    assert {r.partition(":")[0] for r in references} == set(agent_kinds.FAMILY_AGENTS.values())
    for reference in [*references, f"{agent_kinds.FAMILY_AGENTS['alphazero']}:parse_spec"]:
        module, _, name = reference.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), reference
    with pytest.raises(ValueError, match="module:function"):
        agent_kinds.by_name("boardgames.training.sb3.agent.load_agent")
