"""The line said when a part of a game's engine is compiled: which part (the adapters, the batch loops, the
search), how long it usually takes, once per part and process (envs/compiled/engines.py)."""

from __future__ import annotations

import pytest

from boardgames.envs.compiled import engines
from boardgames.envs.compiled.engines import PARTS, STEP_PART, engine, engine_part, first_compile_line
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.registry import make_game

ADAPTERS, BATCH, SEARCH = (part[1:] for part in PARTS)


@pytest.mark.parametrize("game", ["dorix", "barc"])
@pytest.mark.parametrize(
    "name, part",
    [
        ("turn_refresh", ADAPTERS),
        ("joint_step", ADAPTERS),
        ("restart", BATCH),
        ("observe_pairs", BATCH),
        ("run_rollouts", SEARCH),
        ("step", STEP_PART),
        ("legal_mask_listed", STEP_PART),
    ],
)
def test_each_function_of_an_engine_belongs_to_the_part_of_its_section(game, name, part):
    module = engine(kernels_of(make_game(game)))
    assert engine_part(getattr(module, name).py_func) == part


def test_the_line_names_the_game_the_part_and_its_usual_time():
    line = first_compile_line("adix", BATCH)
    assert line.startswith("boardgames: compiling the adix engine's batch loops")
    assert BATCH[1] in line and "other parts" in line
    assert "(once" not in line  # the old line said "once" and came back for the next part


def test_each_part_is_said_once_per_process_and_the_step_only_first(monkeypatch, capsys):
    monkeypatch.setattr(engines, "_ANNOUNCED", set())
    for part in (ADAPTERS, ADAPTERS, STEP_PART, SEARCH, SEARCH):
        engines._announce("olix", part=part)
    engines._announce("dorix", part=STEP_PART)  # a game's step called first is said
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        first_compile_line("olix", ADAPTERS),
        first_compile_line("olix", SEARCH),
        first_compile_line("dorix", STEP_PART),
    ]


class _Event:
    def __init__(self, function):
        self.data = {"dispatcher": type("Dispatcher", (), {"py_func": function})()}


def test_a_compile_inside_another_belongs_to_the_outer_ones_part(monkeypatch, capsys):
    module = engine(kernels_of(make_game("dorix")))
    monkeypatch.setattr(engines, "_ANNOUNCED", set())
    listener = engines._ColdCache()
    outer, inner = _Event(module.run_rollouts.py_func), _Event(module.restart.py_func)
    listener.on_start(outer)  # the search called from Python
    listener.on_start(inner)  # a batch-loop function compiled on the way: not a part of its own here
    listener.on_end(inner)
    listener.on_end(outer)
    listener.on_start(inner)  # called from Python later: its own part
    listener.on_end(inner)
    assert capsys.readouterr().err.splitlines() == [
        first_compile_line("dorix", SEARCH),
        first_compile_line("dorix", BATCH),
    ]
