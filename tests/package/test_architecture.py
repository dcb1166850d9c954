"""The rooms of the house keep their order (docs/architecture.md): every import, counting those made inside
functions, points to the importing module's own room or a lower one, never up; the game folders do not
import each other; and no module takes part in an import cycle.

The rooms, bottom first, as module prefixes of ``boardgames``:

=============  =====================================================================================
root           ``boardgames`` itself: the version and ``layout``, importing nothing of the package
contract       ``envs.core``: Game/State, GameKernels, spec, errors, squares, options, rendering
compiled       ``envs.compiled``: numba helpers and the per-turn kernels generated from a game's kernels
games          ``envs.dorix``, ``envs.olix``, ``envs.adix``, ``envs.barc``: one folder per game
search         ``envs.search``: compiled MCTS over the rules kernels
agents         ``envs.agents``: baseline agents and the game loop they play in (``agents.play``)
catalogue      ``envs.registry``: the list of games (it imports their environment modules by name at run
               time, as a plugin registry does, never by an import statement)
adapters       ``envs.adapters``, ``envs.vector``, ``envs.interop``: PettingZoo, Gymnasium, batches, OpenSpiel
environments   ``envs.<game>_v<N>``, ``envs.registration`` and ``envs`` itself: what a user imports
tools          ``envs.tools``: game records and GIFs
training       ``training``: SB3, AlphaZero, RLlib, evaluation (its families: see the tests below)
play           ``play``: the terminal, window and browser play of any agent (it consumes agents, trains none)
benchmarks     ``benchmarks``
face           ``boardgames.cli``: the command line
=============  =====================================================================================
"""

from __future__ import annotations

import re

import pytest
from helpers.imports import find_cycle, import_graph, project_modules

GAMES = ("dorix", "olix", "adix", "barc")
ROOMS = [
    ("root", ["", "layout"]),  # package/: the version, the checkout laid out (layout); no package import
    ("contract", ["envs.core"]),
    ("compiled", ["envs.compiled"]),
    ("games", [f"envs.{game}" for game in GAMES]),
    ("search", ["envs.search"]),
    ("agents", ["envs.agents"]),
    ("catalogue", ["envs.registry"]),
    ("adapters", ["envs.adapters", "envs.vector", "envs.interop"]),
    ("environments", ["envs"]),  # envs/__init__, envs.registration, envs.<game>_v<N>
    ("tools", ["envs.tools"]),
    ("training", ["training"]),
    ("play", ["play"]),
    ("benchmarks", ["benchmarks"]),
    ("face", ["cli", "__main__"]),  # the command line
]
"""The rooms, bottom first: a module belongs to the room of its longest matching prefix."""


def room_of(module: str) -> int:
    """The index in :data:`ROOMS` of ``module``'s room (the longest prefix that matches)."""
    inner = module.removeprefix("boardgames").removeprefix(".")
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(ROOMS):
        for prefix in prefixes:
            if (inner == prefix or (prefix and inner.startswith(prefix + "."))) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of ``graph`` that points to a higher room, as ``"a (room) -> b (room)"``."""
    wrong = []
    for module, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if room_of(dep) > room_of(module):
                wrong.append(f"{module} ({ROOMS[room_of(module)][0]}) -> {dep} ({ROOMS[room_of(dep)][0]})")
    return wrong


def game_of(module: str) -> str | None:
    match = re.match(r"boardgames\.envs\.(\w+)", module)
    return match.group(1) if match and match.group(1) in GAMES else None


def imports_between_games(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one game folder into another."""
    return sorted(
        f"{module} -> {dep}"
        for module, deps in graph.items()
        for dep in deps
        if game_of(module) and game_of(dep) and game_of(module) != game_of(dep)
    )


def test_every_module_has_a_room():
    assert all(room_of(m) is not None for m in project_modules())
    assert ROOMS[room_of("boardgames.envs.core.game")][0] == "contract"
    assert ROOMS[room_of("boardgames.envs.registry")][0] == "catalogue"
    assert ROOMS[room_of("boardgames.envs.dorix_v0")][0] == "environments"
    assert ROOMS[room_of("boardgames.envs.barc.rules")][0] == "games"
    assert ROOMS[room_of("boardgames.cli")][0] == "face"


def test_the_graph_sees_function_local_imports():
    graph = import_graph()
    # the evaluation CLI imports the registry inside main(); the walk must see it
    assert "boardgames.envs.registry" in graph["boardgames.training.evaluation.evaluate"]
    assert "boardgames.envs.core.game" in graph["boardgames.envs.agents.play"]


def test_no_import_points_up_a_room():
    wrong = upward_imports(import_graph())
    assert not wrong, "imports that point up (docs/architecture.md):\n" + "\n".join(wrong)


def test_the_room_rule_fails_on_a_forbidden_import():
    graph = import_graph()
    before = set(upward_imports(graph))
    graph["boardgames.envs.core.game"] = graph["boardgames.envs.core.game"] | {"boardgames.envs.vector.batch"}
    graph["boardgames.envs.compiled.bits"] = {"boardgames.envs.search.tree"}
    assert [line for line in upward_imports(graph) if line not in before] == [
        "boardgames.envs.compiled.bits (compiled) -> boardgames.envs.search.tree (search)",
        "boardgames.envs.core.game (contract) -> boardgames.envs.vector.batch (adapters)",
    ]


def test_game_folders_do_not_import_each_other():
    graph = import_graph()
    assert not imports_between_games(graph)
    graph["boardgames.envs.olix.rules"] = {"boardgames.envs.dorix.rules"}
    assert imports_between_games(graph) == ["boardgames.envs.olix.rules -> boardgames.envs.dorix.rules"]


def test_the_contract_imports_nothing_of_the_project_but_itself():
    graph = import_graph()
    outside = sorted(
        f"{m} -> {d}"
        for m, deps in graph.items()
        if ROOMS[room_of(m)][0] == "contract"
        for d in deps
        if ROOMS[room_of(d)][0] not in ("contract", "root")
    )
    assert not outside, outside


@pytest.mark.parametrize(
    "package", ["boardgames.envs", "boardgames.training", "boardgames.play", "boardgames.benchmarks"]
)
def test_no_import_cycle(package):
    graph = import_graph()
    sub = {m: {d for d in deps if d.startswith(package)} for m, deps in graph.items() if m.startswith(package)}
    cycle = find_cycle(sub)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_import_cycle_across_packages():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
