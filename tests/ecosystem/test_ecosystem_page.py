"""docs/ecosystem.md and examples/ecosystem/ stay in step: every recipe is shown on the page (included from
its file, so the page shows the code the tests run) and run by a test, and every client has its section."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "ecosystem.md").read_text()
RECIPES = sorted(p.name for p in (ROOT / "examples" / "ecosystem").glob("*.py"))
CLIENTS = [
    "PettingZoo and its utilities",
    "SuperSuit",
    "Gymnasium",
    "CleanRL-style PPO",
    "Stable-Baselines3 and sb3-contrib",
    "TorchRL",
    "Tianshou",
    "AgileRL",
    "Ray RLlib",
    "OpenSpiel algorithms and rl_environment",
    "Shimmy",
]


def test_every_recipe_is_included_on_the_page_and_run_by_a_test():
    assert len(RECIPES) >= 9
    included = re.findall(r'--8<-- "examples/ecosystem/([\w.]+)"', PAGE)
    assert sorted(included) == RECIPES
    tests = [
        *(ROOT / "tests" / "ecosystem").glob("*.py"),
        *(ROOT / "tests" / "ecosystem_clients").glob("*.py"),
    ]
    tests.append(ROOT / "tests" / "rllib" / "test_rllib_recipe.py")
    text = "\n".join(p.read_text() for p in tests)
    unrun = [name for name in RECIPES if not any(f'"{n}"' in text for n in (name, name.removesuffix(".py")))]
    assert not unrun, f"recipes no test runs: {unrun}"


def test_every_client_has_its_section_and_a_row_at_a_glance():
    headings = re.findall(r"^## (.+)$", PAGE, flags=re.M)
    assert [h for h in headings if h != "At a glance"] == CLIENTS
    glance = PAGE.split("## At a glance", 1)[1].split("\n## ", 1)[0]
    for client in CLIENTS:
        anchor = re.sub(r"[^a-z0-9 _-]", "", client.lower()).replace(" ", "-")
        assert f"(#{anchor})" in glance, client
