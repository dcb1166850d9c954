"""``--help`` of every command answers without the heavy imports: no torch, Stable-Baselines3, Ray or matplotlib
before the arguments are parsed, whether it runs as ``boardgames <command> --help`` or as ``python -m <module>
--help``. (How long it takes is measured by ``python -m boardgames.benchmarks.startup``, never asserted here.)"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from boardgames.cli import COMMANDS

HEAVY = ("torch", "stable_baselines3", "sb3_contrib", "ray", "matplotlib", "tensorboard")

REPORT = textwrap.dedent(
    """
    import contextlib, io, json, runpy, sys
    how, target = sys.argv[1], sys.argv[2]
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            if how == "boardgames":
                from boardgames.cli import main
                main([target, "--help"])
            else:
                sys.argv = [target, "--help"]
                runpy.run_module(target, run_name="__main__")
        except SystemExit as stop:
            code = stop.code or 0
    print(json.dumps({"code": code, "help": out.getvalue(), "heavy": [m for m in HEAVY if m in sys.modules]}))
    """
).replace("HEAVY", repr(HEAVY))


def _help(how: str, target: str) -> dict:
    done = subprocess.run([sys.executable, "-c", REPORT, how, target], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("command", list(COMMANDS))
def test_boardgames_command_help_imports_nothing_heavy(command):
    report = _help("boardgames", command)
    assert report["code"] == 0
    assert "usage:" in report["help"]
    assert report["heavy"] == [], f"boardgames {command} --help imported {report['heavy']}"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_python_m_module_help_imports_nothing_heavy(command):
    module = COMMANDS[command][0]
    report = _help("module", module)
    assert report["code"] == 0
    assert "usage:" in report["help"]
    assert report["heavy"] == [], f"python -m {module} --help imported {report['heavy']}"


def test_the_rllib_help_lists_every_setting_without_importing_ray():
    """The settings listed by ``boardgames rllib --help`` are read from the source of RLlibSettings' module; with
    Ray installed they are its fields."""
    report = _help("boardgames", "rllib")
    listed = report["help"].split("settings (--set):", 1)[1].split()
    listed = [name.strip(",") for name in listed]
    assert "env_runners" in listed and "lr" in listed
    pytest.importorskip("ray")
    from dataclasses import fields

    from boardgames.training.rllib.config import RLlibSettings

    assert listed == [f.name for f in fields(RLlibSettings)]
