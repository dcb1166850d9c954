"""``make dist``'s build, done the same way: the sdist, then the wheel built from it, offline (``python -m build
--no-isolation``: this environment's setuptools, no index), both passing ``twine check --strict``; the wheel
built from the sdist has the package data (models, configs, templates, the web page), so the sdist lacks
nothing the wheel needs. The README and docs say how to install from a clone or from that wheel, and name the
package index only for once the package is published."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers.wheel import WHEEL_FILES

import boardgames

ROOT = Path(__file__).resolve().parents[2]
BUILD = [sys.executable, "-m", "build", "--no-isolation"]
CHECK = [sys.executable, "-m", "twine", "check", "--strict"]


def test_make_dist_runs_these_commands():
    recipe = (ROOT / "Makefile").read_text().split("\ndist: setup\n", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python -m build --no-isolation --outdir $(DIST) ." in recipe
    assert "$(BIN)/twine check --strict $(DIST)/*.whl $(DIST)/*.tar.gz" in recipe
    assert re.search(r"^\.PHONY:.* dist( |$)", (ROOT / "Makefile").read_text(), flags=re.M)


@pytest.mark.slow
def test_the_sdist_and_the_wheel_built_from_it_pass_twine_check(tmp_path):
    for module in ("build", "twine"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the dev extra: pip install -e '.[dev]')")
    done = subprocess.run([*BUILD, "--outdir", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    version = boardgames.__version__
    sdist = tmp_path / f"boardgame_rl_envs-{version}.tar.gz"
    wheel = tmp_path / f"boardgame_rl_envs-{version}-py3-none-any.whl"
    assert sdist.exists() and wheel.exists(), sorted(p.name for p in tmp_path.iterdir())

    checked = subprocess.run([*CHECK, str(wheel), str(sdist)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2 and "warning" not in checked.stdout.lower(), checked.stdout

    top = f"boardgame_rl_envs-{version}/"
    in_sdist = set(tarfile.open(sdist).getnames())
    for name in ("pyproject.toml", "README.md", "LICENSE", "PKG-INFO", "models/dorix_2p/model.zip"):
        assert top + name in in_sdist, f"{name} not in the sdist"
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    for name in (*WHEEL_FILES, "boardgames/envs/compiled/templates/engine_body.py.tmpl"):
        assert name in in_wheel, f"{name} not in the wheel built from the sdist"
    metadata = zipfile.ZipFile(wheel).read(f"boardgame_rl_envs-{version}.dist-info/METADATA").decode()
    assert "Description-Content-Type: text/markdown" in metadata and "# boardgame-rl-envs" in metadata


def test_the_install_story_is_a_clone_or_a_built_wheel_until_the_package_is_published():
    """The index line (``pip install "boardgame-rl-envs[...]"``) works only once the package is on an index:
    wherever the README or a docs page gives it, the same sentence says so."""
    readme = (ROOT / "README.md").read_text()
    assert "make dist" in readme and 'pip install -e ".[train]"' in readme
    wheels = re.findall(r"pip install \"dist/boardgame_rl_envs-([^-\"]+)-py3-none-any\.whl\[train\]\"", readme)
    assert wheels == [boardgames.__version__]  # the wheel make dist builds, at this version
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    for page in pages:
        text = re.sub(r"\s+", " ", page.read_text())
        for hit in re.finditer(r'pip install "boardgame-rl-envs', text):
            sentence = text[max(0, hit.start() - 300) : hit.end() + 300].lower()
            assert "once" in sentence and "published" in sentence, f"{page.name}: {sentence}"
