"""The package as a user gets it: the wheel builds offline, installs into a fresh virtual environment
and loads a shipped model by name there; LICENSE, version, py.typed, floors and extras are what the
metadata says."""

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import boardgames.envs

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
# what a wheel is built from (a checkout's build outputs and caches left out)
SOURCES = ["pyproject.toml", "README.md", "LICENSE", "envs", "training", "benchmarks", "models"]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "*.egg-info", "build", "results")


def test_license_file_is_the_mit_license_pyproject_names():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_version_has_one_source_and_a_changelog_entry():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "boardgames.envs.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", boardgames.envs.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{boardgames.envs.__version__}]" in changelog


def test_packages_are_marked_typed():
    for package in ("envs", "training"):
        assert (ROOT / package / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]


def test_python_floor_matches_the_classifiers_and_the_ruff_target():
    floor = re.fullmatch(r">=3\.(\d+)", PROJECT["requires-python"]).group(1)
    versions = sorted(
        int(c.rsplit(".", 1)[1])
        for c in PROJECT["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert versions[0] == int(floor)
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py3{floor}"
    # below 3.11 the training configs are read with tomli (training/sb3/train.py)
    train = PROJECT["optional-dependencies"]["train"]
    assert any(d.startswith("tomli") and "python_version < '3.11'" in d for d in train)


def test_the_pettingzoo_floor_has_the_registry_the_package_registers_with():
    import pettingzoo
    from pettingzoo.env_registry.registration import aec_registry

    assert "pettingzoo>=1.27" in [d.split("#")[0].strip() for d in PROJECT["dependencies"]]
    assert "boardgames/dorix-v0" in aec_registry and callable(pettingzoo.make)


def test_dev_extra_runs_the_notebooks_as_their_readme_says():
    readme = (ROOT / "notebooks" / "README.md").read_text()
    dev = " ".join(PROJECT["optional-dependencies"]["dev"])
    assert "jupyter nbconvert" in readme and "nbconvert" in dev


def _build_wheel(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=IGNORED)
        else:
            shutil.copy2(path, src / name)
    dist = tmp_path / "dist"
    # offline: the setuptools of this environment builds it (no build isolation, no index)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--wheel-dir",
            str(dist),
            str(src),
        ],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("boardgame_rl_envs-*.whl")
    return wheel


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_loads_a_shipped_model_by_name(tmp_path):
    wheel = _build_wheel(tmp_path)
    assert wheel.name.startswith(f"boardgame_rl_envs-{boardgames.envs.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "models/dorix_2p/model.zip",
        "models/dorix_2p/card.md",
        "envs/py.typed",
        "training/py.typed",
        "training/configs/dorix.toml",
    ):
        assert expected in names, f"{expected} not in the wheel"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
    )
    # the dependencies (numpy, numba, torch, SB3...) come from this environment's site-packages, added
    # after the fresh venv's own: a path line in a .pth file, so this environment's editable install of
    # the project (its own .pth hook) is not run there
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (Path(purelib) / "project_dependencies.pth").write_text("\n".join(deps) + "\n")

    elsewhere = tmp_path / "elsewhere"  # no models/ folder here: the name must resolve to the installed copy
    elsewhere.mkdir()
    script = (
        "import boardgames.envs, training\n"
        "from boardgames.envs.registry import make_game\n"
        "from boardgames.training.agent_kinds import make_agent\n"
        "game = make_game('dorix', num_players=2)\n"
        "agent = make_agent('models/dorix_2p', game)\n"
        "state = game.new_initial_state()\n"
        "action = agent(state, state.current_seat)\n"
        "assert state.legal_mask(state.current_seat)[action]\n"
        "print(boardgames.envs.__version__, boardgames.training.__file__, agent.path, agent.name)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "NUMBA_DISABLE_JIT": "1", "HOME": str(tmp_path)}  # one move: no compiling
    done = subprocess.run([str(python), "-I", "-c", script], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    version, training_file, model_file, name = done.stdout.split()
    assert version == boardgames.envs.__version__ and name == "dorix_2p"
    assert Path(training_file).is_relative_to(Path(purelib)), training_file  # the installed copy, not the checkout
    assert Path(model_file) == Path(purelib) / "models" / "dorix_2p" / "model.zip"
