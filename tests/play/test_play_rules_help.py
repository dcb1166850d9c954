"""The terminal player's ``help`` says where this game's rules are: the rules page of the source
checkout (a real path), or, where the package is installed from a wheel without ``docs/``, the rules
in short and the command that shows the game's documentation with its notation."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardgames.envs.registry import game_names, make_game
from boardgames.play.cli import play_terminal, random_policy, rules_help, rules_page


@pytest.mark.parametrize("name", game_names())
def test_help_in_the_terminal_names_this_games_rules_page(name):
    game = make_game(name)
    answers = iter(["help", "quit"])
    out = []
    policies = {s: random_policy(s) for s in range(game.info.num_seats)}
    play_terminal(game, policies, {0}, read=lambda prompt: next(answers), write=out.append)
    text = "\n".join(out)
    assert "<game>" not in text
    page = rules_page(name)
    assert page is not None and page.is_file() and str(page) in text


@pytest.mark.parametrize("name", game_names())
def test_without_docs_help_gives_the_rules_in_short_and_where_the_documentation_is(name, tmp_path):
    text = rules_help(name, root=tmp_path)  # a folder without docs/, as an installed wheel
    assert rules_page(name, root=tmp_path) is None
    assert f"The rules of {name} in short: " in text and "docs/rules" not in text
    summary = text.split(" in short: ", 1)[1].split("\nThe notation")[0]
    assert len(summary.split()) > 20  # a paragraph of rules, not an empty line
    command = text.rsplit("python -m pydoc ", 1)[1].strip()
    shown = subprocess.run([sys.executable, "-m", "pydoc", command], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0 and "Notation" in shown.stdout
