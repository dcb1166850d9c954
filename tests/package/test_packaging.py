"""The package as a user gets it: one import name, ``boardgames``, whose subpackages are the repository's
folders; the wheel builds offline, adds no other top-level name, installs into a fresh virtual environment
and works there from a project of the user's own that has its own ``envs/``, ``training/`` and ``models/``;
the ``boardgames`` command lists its subcommands; LICENSE, version, py.typed, floors and extras are what
the metadata says."""

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers.wheel import WHEEL_FILES

import boardgames

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
# what a wheel is built from (a checkout's build outputs and caches left out)
SOURCES = ["pyproject.toml", "README.md", "LICENSE", "package", "envs", "training", "play", "benchmarks", "models"]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "*.egg-info", "build", "results")


def test_license_file_is_the_mit_license_pyproject_names():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_version_has_one_source_and_a_changelog_entry():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "boardgames.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", boardgames.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{boardgames.__version__}]" in changelog


def test_packages_are_marked_typed():
    for package in ("package", "envs", "training", "play"):
        assert (ROOT / package / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]


def test_every_package_folder_is_a_package_of_the_wheel():
    setuptools = PYPROJECT["tool"]["setuptools"]
    mapping = setuptools["package-dir"]
    assert mapping == {
        "boardgames": "package",
        "boardgames.envs": "envs",
        "boardgames.training": "training",
        "boardgames.play": "play",
        "boardgames.benchmarks": "benchmarks",
        "boardgames.models": "models",
    }
    folders = {package: folder for package, folder in mapping.items()}
    expected = {"boardgames.models"}
    for package, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            expected.add(".".join([package, *rel.parts]))
    assert set(setuptools["packages"]) == expected


def test_the_command_line_lists_its_subcommands():
    from boardgames import cli

    for name in ("train", "evaluate", "play", "web", "leaderboard", "alphazero", "bench"):
        assert name in cli.COMMANDS
    assert PROJECT["scripts"] == {"boardgames": "boardgames.cli:main"}
    done = subprocess.run([sys.executable, "-m", "boardgames", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for name in cli.COMMANDS:
        assert f"  {name} " in done.stdout
    # --help answers without importing the subcommands' modules (torch, numba, the games)
    quick = (
        "import sys; from boardgames import cli; cli.usage(); "
        "print(sorted(m for m in sys.modules if m.startswith(('torch', 'numba', 'boardgames.'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", quick], capture_output=True, text=True, timeout=60)
    assert loaded.stdout.strip() == "['boardgames.cli']", loaded.stdout
    wrong = subprocess.run([sys.executable, "-m", "boardgames", "trian"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "unknown command 'trian'" in wrong.stderr


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


def test_the_pettingzoo_floor_is_tested_and_its_registry_used_where_it_exists():
    import pettingzoo

    import boardgames.envs  # noqa: F401  (registers the games)
    from boardgames.envs.registration import pettingzoo_registry

    assert "pettingzoo>=1.24" in [d.split("#")[0].strip() for d in PROJECT["dependencies"]]
    makefile = (ROOT / "Makefile").read_text()
    assert "pettingzoo==1.24.3" in makefile  # make test runs the PettingZoo tests under the floor version too
    version = tuple(int(part) for part in pettingzoo.__version__.split(".")[:2])
    registry = pettingzoo_registry()
    if version >= (1, 27):
        assert registry is not None and "boardgames/dorix-v0" in registry[0] and callable(pettingzoo.make)
    else:
        assert registry is None


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
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(dist), str(src)],
        check=True,
        cwd=tmp_path,
    )  # fmt: skip
    (wheel,) = dist.glob("boardgame_rl_envs-*.whl")
    return wheel


def _user_project(root: Path) -> Path:
    """A project of a user's own beside ours: its own ``envs``, ``training`` and ``models`` packages and a
    ``models/dorix_2p`` folder, none of which may stand in for the library's."""
    for name in ("envs", "training", "models"):
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text(f"WHOSE = 'mine: {name}'\n")
    (root / "models" / "dorix_2p").mkdir()
    (root / "models" / "dorix_2p" / "model.zip").write_text("not a model")
    return root


USER_SCRIPT = """
import gymnasium, pettingzoo
import envs, training, models
import boardgames, boardgames.envs
from boardgames.envs.registry import env_module, game_names, make_game, parallel_games
from boardgames.envs.registration import env_id
from boardgames.training.agent_kinds import make_agent

assert (envs.WHOSE, training.WHOSE, models.WHOSE) == ("mine: envs", "mine: training", "mine: models")
for name in game_names():
    module = env_module(name)
    aec = pettingzoo.make("aec", env_id(name))
    aec.reset(seed=0)
    agent = aec.agent_selection
    obs, _, _, _, _ = aec.last()
    aec.step(int(obs["action_mask"].nonzero()[0][0]))
    if name in parallel_games():
        par = module.parallel_env()
        observations, _ = par.reset(seed=0)
        par.step({a: int(o["action_mask"].nonzero()[0][0]) for a, o in observations.items()})
    gym = gymnasium.make(env_id(name))
    obs, info = gym.reset(seed=0)
    gym.step(int(info["action_mask"].nonzero()[0][0]))
game = make_game("dorix", num_players=2)
agent = make_agent("models/dorix_2p", game)
state = game.new_initial_state()
action = agent(state, state.current_seat)
assert state.legal_mask(state.current_seat)[action]
print(boardgames.__version__, boardgames.envs.__file__, agent.path, agent.name)
"""


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_works_beside_a_users_own_packages(tmp_path):
    wheel = _build_wheel(tmp_path)
    assert wheel.name.startswith(f"boardgame_rl_envs-{boardgames.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "boardgames/__init__.py",
        "boardgames/cli.py",
        "boardgames/envs/registry.py",
        "boardgames/models/dorix_2p/card.md",
        "boardgames/training/py.typed",
        *WHEEL_FILES,
    ):
        assert expected in names, f"{expected} not in the wheel"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    top_level = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top_level == {"boardgames"}, f"the wheel adds other top-level names: {sorted(top_level)}"

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
         str(wheel)],
        check=True,
    )  # fmt: skip
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

    project = _user_project(tmp_path / "my_project")
    env = {"PATH": "/usr/bin:/bin", "NUMBA_DISABLE_JIT": "1", "HOME": str(tmp_path)}  # a few moves: no compiling
    # -I leaves the working directory off sys.path; PYTHONPATH-like, the user's project is put first on purpose
    script = f"import sys; sys.path.insert(0, {str(project)!r})\n" + USER_SCRIPT
    done = subprocess.run([str(python), "-I", "-c", script], cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    version, envs_file, model_file, name = done.stdout.split()
    assert version == boardgames.__version__ and name == "dorix_2p"
    assert Path(envs_file) == Path(purelib) / "boardgames" / "envs" / "__init__.py"  # the installed copy
    assert Path(model_file) == Path(purelib) / "boardgames" / "models" / "dorix_2p" / "model.zip"

    command = venv / "bin" / "boardgames"
    listed = subprocess.run([str(command), "--help"], cwd=project, env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr[-2000:]
    for sub in ("train", "evaluate", "play", "web", "leaderboard", "alphazero", "bench"):
        assert f"  {sub} " in listed.stdout
