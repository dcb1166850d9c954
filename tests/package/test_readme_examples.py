"""Every Python example of the README runs as written, each on its own (they are what a new user copies
first, often one block alone): a fresh namespace per block, so none leans on an earlier block's imports."""

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
EXTRAS = {"pyspiel": "[openspiel]"}  # module an example imports -> the optional extra that installs it


def _missing_extra(block: str) -> str | None:
    """The extra that ``block`` needs and that is not installed here (its example is then skipped)."""
    return next((e for m, e in EXTRAS.items() if f"import {m}" in block and not importlib.util.find_spec(m)), None)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs_on_its_own(index):
    block = BLOCKS[index]
    if extra := _missing_extra(block):
        pytest.skip(f"needs the {extra} extra")
    namespace: dict = {"__name__": "__main__"}  # this block alone, as a user pasting it into a new session
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(block, f"README.md python block {index + 1}", "exec"), namespace)
    assert out.getvalue().strip(), "every README example prints what it shows"


def test_the_game_table_gives_each_games_version_and_state():
    from boardgames.envs.registry import current_version, env_modules, game_names

    text = README.read_text()
    header = "| game | players | board | API | version and state | rules |"
    assert header in text
    rows = text[text.index(header) :].split("\n\n", 1)[0].splitlines()[2:]
    column = header.strip("|").split("|").index(" version and state ")
    states = [row.strip("|").split("|")[column].strip() for row in rows]
    assert len(states) == len(game_names())
    for name in game_names():
        current = f"`{name}_v{current_version(name)}`: "
        (state,) = [s for s in states if s.startswith(current)]  # one row per game, its current version first
        assert len(state) > len(current) + 20, f"{name}: the row names the version but not the game's state"
        for version in env_modules(name):  # an older version kept registered is named too, with what it is for
            assert f"`{name}_v{version}`" in state
