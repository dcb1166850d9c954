"""``boardgames --version`` (and ``-V``) prints the package version, ``boardgames.__version__``, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import boardgames
from boardgames.cli import main, usage


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_flag_prints_the_package_version(flag, capsys):
    assert main([flag]) == 0
    assert capsys.readouterr().out == f"boardgames {boardgames.__version__}\n"


def test_version_from_a_new_process_imports_no_command():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys; from boardgames.cli import main; main(['--version']); "
            "print(json.dumps(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first, modules = done.stdout.splitlines()
    assert first == f"boardgames {boardgames.__version__}"
    assert not [
        m for m in json.loads(modules) if m.startswith(("boardgames.training", "boardgames.envs", "numba", "torch"))
    ]


def test_help_names_the_version_flag():
    assert "boardgames --version" in usage()
