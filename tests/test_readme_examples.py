"""Every Python example of the README runs as written (they are what a new user copies first)."""

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
EXTRAS = {"pyspiel": "[openspiel]"}  # module an example imports -> the optional extra that installs it


def _missing_extra(block: str) -> str | None:
    """The extra that ``block`` needs and that is not installed here (its example is then skipped)."""
    return next((e for m, e in EXTRAS.items() if f"import {m}" in block and not importlib.util.find_spec(m)), None)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index):
    # the blocks build on each other in reading order (the second uses the first one's import)
    if extra := _missing_extra(BLOCKS[index]):
        pytest.skip(f"needs the {extra} extra")
    namespace: dict = {}
    for i, block in enumerate(BLOCKS[: index + 1]):
        if _missing_extra(block):  # an earlier example of a missing extra: the later ones do not use it
            continue
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
    assert out.getvalue().strip(), "every README example prints what it shows"
