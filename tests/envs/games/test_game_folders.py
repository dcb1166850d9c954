"""Every game folder has the same modules with the same roles, wired the same way: the Game and State
classes of ``game.py`` name their rules, observe, notation, render and heuristic modules in their class
statements (explicit references, no lookup by naming convention), and what a game draws and scores with
is what its own folder holds."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from boardgames.envs.agents import GreedyAgent
from boardgames.envs.core.kernel_state import KernelGame, KernelState
from boardgames.envs.registry import HEURISTICS, game_names, make_game

ROOT = Path(__file__).resolve().parents[3]
CORE_MODULES = {"__init__", "rules", "observe", "engine", "notation", "game", "spec", "render", "heuristic"}
"""The modules every game folder has, with the same role in each (docs/architecture.md)."""


def game_package(name: str) -> str:
    """The package of game ``name``'s folder, from where its Game class is defined."""
    return type(make_game(name)).__module__.rpartition(".")[0]


def folder(package: str) -> Path:
    return ROOT / "envs" / package.rpartition(".")[2]


def module(package: str, part: str):
    return importlib.import_module(f"{package}.{part}")


def imported_modules(path: Path) -> set[str]:
    """The modules ``path`` names in its import statements (module level or inside functions)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


@pytest.fixture(params=game_names())
def name(request) -> str:
    return request.param


def test_every_game_folder_has_the_core_modules(name):
    package = game_package(name)
    present = {p.stem for p in folder(package).glob("*.py")}
    assert CORE_MODULES <= present, f"{name}: missing {sorted(CORE_MODULES - present)}"
    assert package == f"boardgames.envs.{name}"


def test_the_package_exports_its_game_and_state(name):
    package = importlib.import_module(game_package(name))
    game_class = type(make_game(name))
    state_class = game_class.state_class
    assert package.__all__ == [game_class.__name__, state_class.__name__]
    assert getattr(package, game_class.__name__) is game_class
    assert getattr(package, state_class.__name__) is state_class
    assert game_class.__module__ == state_class.__module__ == f"{package.__name__}.game"


def test_the_state_names_its_modules_in_its_class_statement(name):
    package = game_package(name)
    state_class = type(make_game(name)).state_class
    assert issubclass(state_class, KernelState)
    for attribute in ("rules", "encoder", "renderer"):
        assert attribute in vars(state_class), f"{state_class.__name__} does not name its {attribute}"
    assert state_class.rules is module(package, "rules")
    assert state_class.encoder is module(package, "observe")
    assert state_class.renderer is module(package, "render")


def test_the_game_names_its_modules_in_its_class_statement(name):
    package = game_package(name)
    game_class = type(make_game(name))
    assert issubclass(game_class, KernelGame)
    for attribute in ("state_class", "parse_position", "write_position", "heuristic"):
        assert attribute in vars(game_class), f"{game_class.__name__} does not name its {attribute}"
    notation = module(package, "notation")
    assert game_class.parse_position is notation.parse_position
    assert game_class.write_position is notation.write_position
    assert game_class.heuristic is module(package, "heuristic").heuristic


def test_render_heuristic_and_notation_do_not_import_the_game_module(name):
    """They work on the rules' state data (and the State passed to them), so ``game.py`` can import them
    without a cycle."""
    package = game_package(name)
    for part in ("rules", "observe", "notation", "render", "heuristic", "spec"):
        imported = imported_modules(folder(package) / f"{part}.py")
        assert f"{package}.game" not in imported, f"{package}.{part} imports {package}.game"


def test_no_module_is_found_by_naming_convention():
    """The wiring is explicit: the State contract, the greedy agent and the game folders look nothing up
    by name with importlib."""
    paths = [ROOT / "envs/core/kernel_state.py", ROOT / "envs/agents/greedy.py"]
    paths += [p for name in game_names() for p in sorted(folder(game_package(name)).glob("*.py"))]
    for path in paths:
        assert not any(m == "importlib" or m.startswith("importlib.") for m in imported_modules(path)), path
    assert not hasattr(KernelState, "render_module")


def test_a_games_pictures_and_score_come_from_its_folder(name):
    package = game_package(name)
    game = make_game(name)
    state = game.new_initial_state()
    render = module(package, "render")
    assert state.render_text() == render.render_text(state)
    assert (state.render_canvas().to_array() == render.render_canvas(state).to_array()).all()
    heuristic = module(package, "heuristic").heuristic
    assert game.heuristic is heuristic
    assert GreedyAgent(game).heuristic is heuristic
    assert HEURISTICS[name] is heuristic
    assert state.to_text() == module(package, "notation").write_position(state)
    assert game.from_text(state.to_text()) == state


def test_heuristics_lists_every_registered_game():
    assert list(HEURISTICS) == game_names()
    assert len(HEURISTICS) == len(game_names())
    with pytest.raises(KeyError):
        HEURISTICS["no-such-game"]


def test_a_state_without_a_renderer_says_so():
    class Bare(KernelState):
        __slots__ = ()
        action_to_text = text_to_action = check_invariants = None

    state = object.__new__(Bare)
    with pytest.raises(NotImplementedError, match="Bare names no renderer"):
        state.render_text()
