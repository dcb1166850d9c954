"""The documentation site (``mkdocs.yml``, ``make docs``) lists every page, and the pages it makes at build time
(``docs/site_pages.py``) are whole and correct; ``make docs`` itself builds it strict (links, anchors and
references). No network, and no MkDocs needed here except where a test says so."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from boardgames.envs.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"docs_{name}", DOCS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site_pages = _load("site_pages")


def nav_pages() -> list[str]:
    """The pages ``mkdocs.yml``'s nav lists, in order (read as text: the nav is one ``*.md`` a line)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r"^\s+-\s+(?:[^:\n]+:\s+)?([\w./-]+\.md)\s*$", nav, re.M)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return site_pages.generated_pages()


def test_the_nav_lists_every_rules_page_and_every_environment_page():
    listed = nav_pages()
    rules = sorted(f"rules/{p.name}" for p in (DOCS / "rules").glob("*.md"))
    assert rules and not set(rules) - set(listed), "rules pages missing from mkdocs.yml's nav"
    environments = [site_pages.env_page_path(name) for name in game_names()]
    assert not set(environments) - set(listed), "environment pages missing from mkdocs.yml's nav"
    assert len(listed) == len(set(listed)), "a page is listed twice"


def test_the_nav_lists_every_page_written_or_made(pages):
    listed = set(nav_pages())
    written = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert not (written | set(pages)) - listed, "pages missing from mkdocs.yml's nav"
    assert not listed - (written | set(pages)), "the nav lists pages that neither exist nor are made"


def test_no_written_page_has_the_path_of_a_made_one(pages):
    # the build refuses such a page (docs/site_hooks.py): a made page is never stale, a written copy would be
    assert not [p for p in pages if (DOCS / p).exists()]


def test_every_game_has_its_pictures_and_a_full_environment_page(pages):
    for name in game_names():
        assert (DOCS / "images" / f"{name}.png").is_file() and (DOCS / "images" / f"{name}.gif").is_file()
        page = pages[site_pages.env_page_path(name)]
        for part in (f"../images/{name}.gif", f"../images/{name}.png", f"../rules/{name}.md", "## Action space"):
            assert part in page, f"{name}: no {part!r}"
        for section in ("## Observation", "## Notation", "## Spaces", "## Options", "## Making it", "Rewards"):
            assert section in page, f"{name}: no {section!r}"
        assert "| plane | name |" in page and "| actions | range |" in page  # the spec's tables, filled


def test_the_environment_pages_examples_run(pages):
    for name in game_names():
        block = re.search(r"## Making it\n\n```python\n(.*?)```", pages[site_pages.env_page_path(name)], re.S)
        exec(compile(block.group(1), f"{name} page", "exec"), {})


def test_every_api_module_exists():
    for _title, modules in site_pages.API_PAGES.values():
        for module in modules:
            assert importlib.util.find_spec(module) is not None, module


def test_readme_links_become_site_links():
    text = "[rules](docs/rules/dorix.md#setup) [docs/training.md](docs/training.md) [app](play/web/app.py)"
    made = "[rules](rules/dorix.md#setup) [docs/training.md](training.md) app (`play/web/app.py`)"
    assert site_pages.site_links(text) == made
    assert site_pages.site_links("[x](docs/a.md)", depth=1) == "[x](../a.md)"
    assert site_pages.site_links("[`notebooks/README.md`](notebooks/README.md)") == "`notebooks/README.md`"
    assert site_pages.site_links("[PZ](https://pettingzoo.farama.org) [top](#quick-start)") == (
        "[PZ](https://pettingzoo.farama.org) [top](#quick-start)"
    )


def test_escaped_pipes_in_table_code_read_as_pipes():
    text = "| `a \\| b` | c \\| d |\n```\n| `x \\| y` |\n```\n`e \\| f`"
    assert site_pages.table_code_pipes(text) == "| `a | b` | c \\| d |\n```\n| `x \\| y` |\n```\n`e \\| f`"


def test_the_readme_pages_carry_the_readmes_examples(pages):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n.*?```", site_pages.readme_sections()["Quick start"], re.S)
    assert blocks and all(block in readme and block in pages["quickstart.md"] for block in blocks)
    assert "## The two commands" in pages["index.md"] and "make test" in pages["installation.md"]


def test_sphinx_roles_become_optional_cross_references():
    griffe = pytest.importorskip("griffe")  # the docs extra (make docs installs it)
    roles = _load("griffe_roles")
    module = griffe.temporary_visited_module(
        "import os\nclass GameSpec:\n    def fill_doc(self): ...\n", module_name="fake"
    )
    with module as mod:
        text = roles.markdown_roles(
            ":class:`GameSpec`, :meth:`GameSpec.fill_doc`, :func:`~boardgames.envs.agents.play.play_game`, "
            ":class:`Unknown` and a block::\n\n    code\n",
            mod,
        )
    assert '<autoref identifier="fake.GameSpec" optional><code>GameSpec</code></autoref>' in text
    assert 'identifier="fake.GameSpec.fill_doc"' in text
    assert '<autoref identifier="boardgames.envs.agents.play.play_game" optional><code>play_game</code>' in text
    assert "`Unknown`" in text and "a block:\n\n    code" in text
    linked = roles.markdown_roles("see docs/search.md, docs/nothing-here.md and ``docs/search.md``", mod)
    assert linked == "see [docs/search.md](../search.md), docs/nothing-here.md and ``docs/search.md``"


def test_the_extension_rewrites_every_docstring_of_a_package():
    griffe = pytest.importorskip("griffe")  # the docs extra (make docs installs it)
    roles = _load("griffe_roles")
    code = (
        '"""Uses :class:`Box`."""\nclass Box:\n    """Made by :func:`make`."""\n'
        'def make():\n    """A :class:`Box`."""\n'
    )
    with griffe.temporary_visited_module(code, module_name="fake") as mod:
        roles.SphinxRoles().on_package(pkg=mod)
        docstrings = [mod.docstring.value, mod["Box"].docstring.value, mod["make"].docstring.value]
    assert all(":class:" not in d and ":func:" not in d for d in docstrings)
    assert 'identifier="fake.make"' in docstrings[1] and 'identifier="fake.Box"' in docstrings[2]
