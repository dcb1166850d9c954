"""``training/`` is grouped by family, and the families meet only through the shared modules.

The parts of ``boardgames.training`` (the first name after it) and what each may import of the others:

================  ==================================================================================
``settings``      nothing: config files, ``--set``, SettingError and the range checks
``cli``           ``settings``, ``torch_threads``: the flags every command shares
``torch_threads`` nothing: the one rule for torch's thread count (commands, agents)
``ray_cluster``   ``settings``: connecting a run to Ray with a CPU per worker (RLlib, AlphaZero's actors)
``storage``       ``settings``: files on disk (safe loading, shipped models, durable run folders)
``agent_kinds``   ``settings``, ``storage`` and, of each family, only the module of its agents
                  (:data:`AGENT_MODULES`), imported when a spec of that kind is met
``sb3``,          the shared modules and ``evaluation`` (the consumer of agents that measures them),
``alphazero``,    never each other
``rllib``
``evaluation``    the shared modules: it reaches the families' agents only through ``agent_kinds``
``demo``          the shared modules, ``evaluation`` and the family it demonstrates (``sb3``)
================  ==================================================================================

Beside ``training/``, ``boardgames.play`` (a person against an agent: terminal, window, browser) may import its
shared modules only, reaching every family's agents through ``agent_kinds``; nothing in ``training/`` imports it.

Imports inside functions count (the walk of ``tests/test_architecture.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_architecture import import_graph  # noqa: E402

TRAINING = "boardgames.training"
SHARED = {"settings", "cli", "storage", "agent_kinds", "torch_threads", "ray_cluster"}
FAMILIES = {"sb3", "alphazero", "rllib"}
AGENT_MODULES = {"sb3": "sb3.agent", "alphazero": "alphazero.agent", "rllib": "rllib.policy_file"}
"""The one module of each family that ``agent_kinds`` may import: where the family's agents are built."""
MAY_IMPORT = {
    "": set(),  # boardgames.training itself
    "settings": set(),
    "cli": {"settings", "torch_threads"},
    "torch_threads": set(),
    "ray_cluster": {"settings"},
    "storage": {"settings"},
    "agent_kinds": {"settings", "storage"},
    **{family: SHARED | {"evaluation", "run"} for family in FAMILIES},
    "evaluation": set(SHARED),
    "run": SHARED - {"agent_kinds"} | {"evaluation"},
    "demo": SHARED | {"evaluation", "sb3"},
}
"""The parts each part may import besides itself (and, for ``agent_kinds``, :data:`AGENT_MODULES`)."""
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
            allowed = other == part or other in MAY_IMPORT[part]
            if part == "agent_kinds" and other in AGENT_MODULES:
                allowed = dep == f"{TRAINING}.{AGENT_MODULES[other]}"
            if not allowed:
                wrong.append(f"{module} -> {dep}")
    return wrong


def _part_in_training(module: str) -> str | None:
    """The part of ``training/`` that ``module`` is in, or None outside ``training/`` (always allowed to a
    consumer: the rooms of ``tests/test_architecture.py`` order the rest)."""
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
