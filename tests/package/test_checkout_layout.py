"""One copy of every module in a checkout (:mod:`boardgames.layout`, docs/architecture.md): the package's
folders import only as ``boardgames.*`` (by their own names they are refused, naming the right import),
names outside the package do not import under ``boardgames``, and the site-packages of this environment
name the laid-out package in a plain ``.pth`` path, which static tools read, resolving to the checkout's
files."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from boardgames import layout

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"envs": "boardgames.envs", "training": "boardgames.training", "play": "boardgames.play",
           "benchmarks": "boardgames.benchmarks", "package": "boardgames"}  # fmt: skip
"""Each folder of the checkout that is a package -> the only name it imports under."""


def _python(code: str) -> subprocess.CompletedProcess:
    """``code`` run by this Python from the repository root (where ``''`` on sys.path finds its folders)."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_a_package_folder_imported_by_its_own_name_is_refused_naming_the_package(folder):
    done = _python(f"import {folder}")
    assert done.returncode != 0
    assert f"ImportError: {folder}/ is the package {FOLDERS[folder]}: import {FOLDERS[folder]}, not {folder}" in (
        done.stderr
    ), done.stderr[-2000:]


def test_every_module_of_the_checkout_is_imported_under_one_name_only():
    code = (
        "import os, sys\n"
        "import boardgames.envs, boardgames.envs.dorix_v0, boardgames.training.agent_kinds, boardgames.play\n"
        "import boardgames.benchmarks.loops\n"
        "for folder in ('envs', 'envs.dorix_v0', 'training', 'play', 'benchmarks', 'package'):\n"
        "    try:\n"
        "        __import__(folder)  # the folders by their own names: refused, or the very same modules\n"
        "    except ImportError:\n"
        "        pass\n"
        "for name, module in sorted(sys.modules.items()):\n"
        "    file = getattr(module, '__file__', None)\n"
        "    if file: print(name, os.path.realpath(file))\n"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr[-2000:]
    names_of: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        name, file = line.split(" ", 1)
        if Path(file).is_relative_to(ROOT) and Path(file).relative_to(ROOT).parts[0] in FOLDERS:
            names_of.setdefault(file, []).append(name)
    assert names_of, "no module of the checkout was imported"
    assert all(name.startswith("boardgames") for names in names_of.values() for name in names)
    twice = {file: names for file, names in names_of.items() if len(names) > 1}
    assert not twice, f"files imported under two names: {twice}"
    assert names_of[str(ROOT / "envs" / "dorix_v0.py")] == ["boardgames.envs.dorix_v0"]


@pytest.mark.parametrize("name", ["tests", "docs", "notebooks", "examples", "boardgames", "package", "build"])
def test_folders_outside_the_package_do_not_import_under_its_name(name):
    assert importlib.util.find_spec(f"boardgames.{name}") is None


def _static_paths() -> list[Path]:
    """The folders the ``.pth`` files of this environment's site-packages name as plain lines (their
    ``import`` lines, which only Python runs, left out): what a static tool adds to its search path."""
    site = Path(sysconfig.get_paths()["purelib"])
    paths = []
    for pth in sorted(site.glob("*.pth")):
        for line in pth.read_text().splitlines():
            if line.strip() and not line.startswith(("#", "import ", "import\t")):
                paths.append((site / line.strip()).resolve())
    return paths


def test_a_static_tool_resolves_the_package_to_the_checkouts_files():
    assert not (ROOT / "boardgames").exists(), "a boardgames/ folder at the root shadows the package from there"
    found = [p / "boardgames" for p in _static_paths() if (p / "boardgames" / "__init__.py").is_file()]
    assert found, f"no .pth of {sysconfig.get_paths()['purelib']} names the laid-out package: run make setup"
    package = found[0]
    assert (package / "envs" / "dorix_v0.py").resolve() == ROOT / "envs" / "dorix_v0.py"
    assert (package / "__init__.py").resolve() == ROOT / "package" / "__init__.py"
    assert (package / "py.typed").is_file()
    # Python finds the same file there
    assert Path(importlib.util.find_spec("boardgames.envs.dorix_v0").origin).resolve() == ROOT / "envs" / "dorix_v0.py"


def _checkout(root: Path) -> Path:
    """A small checkout: pyproject.toml's package-dir, the package's own folder and one subpackage."""
    (root / "package").mkdir(parents=True)
    (root / "package" / "__init__.py").write_text("")
    (root / "games").mkdir()
    (root / "games" / "__init__.py").write_text("")
    (root / "pyproject.toml").write_text(
        '[tool.setuptools]\npackage-dir = { "boardgames" = "package", "boardgames.envs" = "games" }\n'
    )
    return root


def test_the_layout_links_every_folder_so_that_new_modules_appear_at_once(tmp_path):
    checkout = _checkout(tmp_path / "checkout")
    into = layout.lay_out(checkout, tmp_path / "tree")
    package = into / "boardgames"
    assert sorted(p.name for p in package.iterdir()) == ["__init__.py", "envs"]
    assert all(p.is_symlink() for p in package.iterdir())
    (checkout / "games" / "new_game.py").write_text("X = 1\n")
    assert (package / "envs" / "new_game.py").read_text() == "X = 1\n"


def test_the_layout_is_brought_up_to_date_in_place(tmp_path):
    checkout = _checkout(tmp_path / "checkout")
    package = layout.lay_out(checkout, tmp_path / "tree") / "boardgames"
    (package / "stale.py").write_text("")  # a copy left by an older layout
    (checkout / "package" / "cli.py").write_text("")
    (checkout / "pyproject.toml").write_text('[tool.setuptools]\npackage-dir = { "boardgames" = "package" }\n')
    layout.lay_out(checkout, tmp_path / "tree")
    assert sorted(p.name for p in package.iterdir()) == ["__init__.py", "cli.py"]


def test_the_pth_names_the_laid_out_folder(tmp_path):
    pth = layout.write_pth(tmp_path / "tree", site_packages=tmp_path)
    assert pth.name == layout.PTH_FILE and pth.read_text() == f"{(tmp_path / 'tree').resolve()}\n"
