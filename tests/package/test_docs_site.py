"""The documentation site (``mkdocs.yml``, ``make docs``) lists every page, and the pages it makes at build time
(``docs/site_pages.py``) are whole and correct: the home page's pictures first, the environment pages' usage
loops (run here), the gallery. The slow tests build the site strict (links, anchors and references) and read
it: the version on every page, ``make_vec`` in the search, and, in the system's Chromium at 1280 px, tables
that fit or scroll inside their box. No network, and no MkDocs, Playwright or Chromium needed except where a
test says so (it is skipped without them)."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.envs.registry import game_names

ROOT = Path(__file__).resolve().parents[2]
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
    text = "[rules](docs/rules/dorix.md#setup) [docs/search.md](docs/search.md) [app](play/web/app.py)"
    made = "[rules](rules/dorix.md#setup) [Compiled search](search.md) app (`play/web/app.py`)"
    assert site_pages.site_links(text) == made
    # a link whose text is its path gets words: the page's title (up to a colon or dash), with its folder
    assert site_pages.site_links("[`docs/rules/adix.md`](docs/rules/adix.md)") == "[ADIX rules](rules/adix.md)"
    assert site_pages.site_links("[docs/reliability.md](docs/reliability.md)") == "[Reliability](reliability.md)"
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


# ----- the home page, the usage loops, the gallery ----------------------------------------------------

PATH_AS_TEXT = re.compile(r"(?<!!)\[`?[\w./-]+\.(?:md|py)`?\]\(")
"""A link whose text is a file's path."""


def test_the_home_page_shows_every_game_first_with_words_as_link_texts(pages):
    home = pages["index.md"]
    first_picture = home.index("![")
    assert first_picture < home.index("\n|") and first_picture < home.index("\n## "), "pictures come first"
    for name in game_names():
        assert f"[![{site_pages.title_and_summary(site_pages.current_module(name))[0]}: a position]" in home
        assert f"](images/{name}.png)](environments/{name}.md)" in home, name
    assert not PATH_AS_TEXT.findall(home), "a link of the home page reads as a path"
    assert "[Dorix rules](rules/dorix.md)" in home  # the README's table, its links in words
    assert "[environments gallery](environments/index.md)" in home


def usage_blocks(page: str) -> list[str]:
    """The Python code blocks of a page's ``## Usage`` section."""
    section = page.split("\n## Usage\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


@pytest.mark.parametrize("name", game_names())
def test_every_environment_page_has_a_complete_usage_loop_that_runs(pages, name):
    from boardgames.envs.registry import parallel_games

    blocks = usage_blocks(pages[site_pages.env_page_path(name)])
    pettingzoo, single, vector = blocks
    if name in parallel_games():
        assert ".parallel_env()" in pettingzoo and "while env.agents:" in pettingzoo
    else:
        assert "for agent in env.agent_iter():" in pettingzoo and "env.last()" in pettingzoo
    assert all("action_mask" in block for block in blocks)
    assert "gymnasium.make(" in single and "gymnasium.make_vec(" in vector
    for i, block in enumerate(blocks):
        namespace: dict = {}
        exec(compile(block, f"{name} page, usage block {i + 1}", "exec"), namespace)
        assert namespace["env" if i < 2 else "envs"] is not None
    assert namespace["step"] == 99  # the vector loop ran to its end


def test_the_gallery_shows_every_game_and_variant_each_linking_to_its_page(pages):
    from PIL import Image

    gallery = pages["environments/index.md"]
    cards = re.findall(r"\[!\[([^\]]*)\]\(\.\./([\w./-]+\.png)\)\]\((\w+)\.md\)", gallery)
    drawn = site_pages.generated_pictures()
    assert len(cards) == len(site_pages.gallery()) and {c[2] for c in cards} == set(game_names())
    for alt, picture, page in cards:
        assert alt.startswith(site_pages.title_and_summary(site_pages.current_module(page))[0])
        if picture in drawn:
            assert Image.open(io.BytesIO(drawn[picture])).size[0] > 200, picture
        else:
            assert (DOCS / picture).is_file(), picture
    labels = [alt for alt, _, page in cards if page == "dorix"]
    assert labels == ["Dorix, 2 players (the default)", "Dorix, 3 players", "Dorix, 4 players"]
    assert len({picture for _, picture, _ in cards}) == len(cards), "two variants share a picture"


# ----- the built site (make docs) ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built strict by MkDocs into a temporary folder (skipped without the docs extra)."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (make docs installs it)")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)]
    subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=600)
    return out


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


@pytest.mark.slow
def test_every_page_shows_the_package_version(site):
    import boardgames

    footer = f"boardgame-rl-envs {boardgames.__version__}"
    assert boardgames.__version__ not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), "written twice"
    missing = [str(p.relative_to(site)) for p in html_pages(site) if footer not in p.read_text(encoding="utf-8")]
    assert len(html_pages(site)) > 30 and not missing, f"no version on {missing}"


@pytest.mark.slow
def test_search_finds_make_vec_on_every_environment_page(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])  # how the site's search splits words
    found = {
        doc["location"].partition(".html")[0]
        for doc in index["docs"]
        if "make_vec" in {word.lower() for word in separator.split(doc["text"]) if word}
    }
    assert {f"environments/{name}" for name in game_names()} <= found


TABLES_AT = """() => {
  const column = document.querySelector('.md-content__inner').getBoundingClientRect();
  return [...document.querySelectorAll('.md-typeset table')].map(table => {
    const box = table.closest('.md-typeset__scrollwrap');
    const fits = table.getBoundingClientRect().right <= column.right + 1;
    if (fits || !box) return {fits, box: !!box};
    const before = box.scrollLeft;
    box.scrollLeft = box.scrollWidth;
    const scrolled = box.scrollLeft > before;
    box.scrollLeft = before;
    const style = getComputedStyle(box);
    return {fits, box: true, scrolled, overflow: style.overflowX,
            boxFits: box.getBoundingClientRect().right <= column.right + 20,
            scrollbar: box.offsetHeight - box.clientHeight,
            shadows: style.backgroundImage.split('gradient').length - 1};
  });
}"""


@pytest.fixture(scope="module")
def browser_page():
    """A page of the system's headless Chromium at 1280x900, scrollbars shown (skipped without Playwright or
    Chromium)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        pytest.skip(f"no Chromium at {chromium} (apt-get install chromium; CI does it in the Makefile)")
    with sync_api.sync_playwright() as p:
        # Playwright hides scrollbars in headless Chromium unless told not to: a person's browser shows them
        browser = p.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], ignore_default_args=["--hide-scrollbars"]
        )
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()


@pytest.mark.slow
def test_tables_fit_or_scroll_inside_their_box_at_1280_pixels(site, browser_page):
    """Every table of every page, in Chromium at 1280x900: it fits the text column, or its box does and it
    scrolls inside it, with a scrollbar always shown and a shadow on the side that has more."""
    wide, cut = [], []
    for path in (p for p in html_pages(site) if "<table" in p.read_text(encoding="utf-8")):
        browser_page.goto(path.as_uri())
        for table in browser_page.evaluate(TABLES_AT):
            name = str(path.relative_to(site))
            if table["fits"]:
                continue
            wide.append(name)
            scrolls = table["box"] and table["scrolled"] and table["overflow"] in ("auto", "scroll")
            if not (scrolls and table["boxFits"] and table["scrollbar"] > 0 and table["shadows"] >= 4):
                cut.append((name, table))
    assert not cut, f"tables cut at 1280 px: {cut}"
    assert len(wide) < 10, f"too many tables scroll rather than fit: {wide}"


@pytest.mark.slow
def test_the_sites_search_finds_make_vec_on_the_environment_pages(site, browser_page):
    """Typed into the search box of the site opened from the disk, as a reader would."""
    browser_page.goto((site / "index.html").as_uri())
    browser_page.locator(".md-search__input").click()
    browser_page.keyboard.type("make_vec", delay=20)
    results = browser_page.locator(".md-search-result__link")
    results.first.wait_for(timeout=30_000)
    hrefs = results.evaluate_all("links => links.map(link => link.href)")
    found = {href.partition("?")[0].removeprefix(site.as_uri() + "/") for href in hrefs}
    assert {f"environments/{name}.html" for name in game_names()} <= found, found
