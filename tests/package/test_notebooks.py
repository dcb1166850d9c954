"""Every notebook in notebooks/ runs top to bottom without an error (with ``NOTEBOOK_QUICK=1``: tiny
step counts), and every registered game has its notebook."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from boardgames.envs.registry import game_names

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_every_game_has_a_notebook():
    names = {p.stem for p in NOTEBOOKS}
    missing = [g for g in game_names() if g not in names]
    assert not missing, f"no notebook for {missing}: run python notebooks/make_notebooks.py"
    assert "benchmarking" in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_without_errors(path, monkeypatch):
    monkeypatch.setenv("NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError naming the cell on the first error
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert code_cells and all(c.get("execution_count") for c in code_cells)
    for cell in code_cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", f"{path.name}: {output.get('ename')}: {output.get('evalue')}"
