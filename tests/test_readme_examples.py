"""Every Python example of the README runs as written (they are what a new user copies first)."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index):
    # the blocks build on each other in reading order (the second uses the first one's import)
    namespace: dict = {}
    for i, block in enumerate(BLOCKS[: index + 1]):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
    assert out.getvalue().strip(), "every README example prints what it shows"
