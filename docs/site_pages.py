"""The pages of the documentation site that are made from other sources at build time (``make docs``).

``docs/site_hooks.py`` (an MkDocs hook, named in ``mkdocs.yml``) adds them to the site; nothing here is
written into ``docs/``, so they are never stale:

* from the README, by its ``## `` sections: the home page, installation, quick start, the command line,
  RLlib, web play, notebooks, the speed overview and the development notes (its links to ``docs/`` pages
  made relative to the site, its links to other repository files written as the file's path);
* from each registered game's environment module (``boardgames.envs.<game>_v<N>``, its docstring filled from
  ``envs/<game>/spec.py``), one page per game: its pictures (``docs/images/<game>.png`` and
  ``<game>.gif``, drawn by ``docs/make_pictures.py``), spaces, options, registry ids, rewards and notation;
* the API reference: one page per group of public modules, rendered by mkdocstrings from the docstrings;
* the changelog, from ``CHANGELOG.md``.

:func:`generated_pages` returns them all (site path -> Markdown); ``tests/test_docs_site.py`` checks that
``mkdocs.yml``'s nav lists every one of them and every rules page.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# ----- the README's sections ------------------------------------------------------------------------

LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|#)")


def readme_sections(text: str | None = None) -> dict[str, str]:
    """The README's parts by their ``## `` heading (``""``: what comes before the first), each without its
    heading line; ``#`` lines inside code blocks are not headings."""
    text = (ROOT / "README.md").read_text(encoding="utf-8") if text is None else text
    sections: dict[str, list[str]] = {"": []}
    current, fenced = "", False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
            continue
        sections[current].append(line)
    return {heading: "\n".join(lines).strip() + "\n" for heading, lines in sections.items()}


def site_links(text: str, depth: int = 0) -> str:
    """``text`` (Markdown written at the repository's root) with its links made valid for a site page
    ``depth`` folders below the site's root: a link to ``docs/<page>`` points at that page, a link to any
    other repository file becomes its path as code (the site holds only ``docs/``)."""
    up = "../" * depth

    def relink(match: re.Match) -> str:
        bang, label, target = match.groups()
        if EXTERNAL.match(target):
            return match.group(0)
        if target.startswith("docs/"):
            return f"{bang}[{label}]({up}{target[len('docs/') :]})"
        path = target.partition("#")[0]
        if label.strip("`") == path:
            return f"`{path}`"
        return f"{label} (`{path}`)"

    return LINK.sub(relink, text)


def readme_page(title: str, *headings: str, intro: str = "", depth: int = 0) -> str:
    """A page titled ``title`` of the README's sections ``headings``, the first one's text right under the
    title and every next one under its own ``## `` heading."""
    sections = readme_sections()
    missing = [h for h in headings if h not in sections]
    if missing:
        raise KeyError(f"README.md has no section {missing[0]!r} (the site's pages are made of its sections)")
    parts = [f"# {title}\n", intro] if intro else [f"# {title}\n"]
    for i, heading in enumerate(headings):
        parts.append(sections[heading] if i == 0 else f"## {heading}\n\n{sections[heading]}")
    return site_links("\n".join(parts), depth)


def home_page() -> str:
    """The home page: the README's introduction, its two commands and its pictures, then where to read on."""
    sections = {heading: site_links(text) for heading, text in readme_sections().items()}
    intro = sections[""].partition("\n")[2].strip()  # without the README's own title
    return "\n".join(
        [
            "# boardgame-rl-envs\n",
            intro + "\n",
            f"## The two commands\n\n{sections['The two commands']}",
            f"## The games\n\n{sections['The games']}",
            "## Where to read on\n",
            "* [Installation](installation.md) and the [quick start](quickstart.md): the first environment "
            "in a few lines, PettingZoo, Gymnasium and Stable-Baselines3;",
            "* the [environments](environments/dorix.md), one page per game (spaces, options, rewards, "
            "notation, an animated game), and the [rules](rules/dorix.md) with their rulings;",
            "* guides: [the command line](command-line.md), [training](training.md), "
            "[AlphaZero](alphazero.md), [RLlib](rllib.md) and [scale-out](scale-out.md), "
            "[play in the browser](web.md), [OpenSpiel](openspiel.md), [the ecosystem](ecosystem.md);",
            "* [performance](performance.md), the [leaderboards](leaderboard.md), the "
            "[architecture](architecture.md), the [API reference](api/index.md) and the "
            "[changelog](changelog.md).",
            "",
        ]
    )


EXTRAS = {
    "human": '`render_mode="human"` and `boardgames play --gui`: a pygame window',
    "openspiel": "every game as an OpenSpiel game ([OpenSpiel](openspiel.md))",
    "train": "training and evaluation: MaskablePPO, AlphaZero, the shipped models as agents",
    "dev": "the test suite and the linters (`make test`, `make lint`)",
    "rllib": "Ray RLlib ([Ray RLlib](rllib.md)); ray pins gymnasium 1.2.2: give it a venv of its own",
    "web": "play and watch in the browser ([Play in the browser](web.md))",
    "web-test": "the browser and API tests of `tests/web`",
    "docs": "this site (`make docs`)",
    "bench": "the peers `make bench` compares against (OpenSpiel, pgx)",
}
"""What each extra of pyproject.toml is for (an extra not named here: the comment above it there)."""


def _toml_comment(text: str, key: str) -> str:
    """The ``#`` comment lines right above ``key = ...`` in ``text`` (pyproject.toml), or that line's own
    comment, as one line."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(rf"{re.escape(key)}\s*=", line))
    above = []
    for line in reversed(lines[:at]):
        if not line.startswith("#"):
            break
        above.insert(0, line.lstrip("# ").strip())
    inline = lines[at].partition(" # ")[2].strip()
    return " ".join(above) or inline


def installation_page() -> str:
    """Installation: the README's two commands and its note on installing the package, then the extras
    of ``pyproject.toml`` with what each installs."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = tomllib.loads(text)["project"]
    rows = ["| extra | for | installs |", "| --- | --- | --- |"]
    for extra, requirements in project["optional-dependencies"].items():
        purpose = EXTRAS.get(extra) or _toml_comment(text, extra).replace("|", "\\|")
        rows.append(f"| `{extra}` | {purpose} | {', '.join(f'`{r}`' for r in requirements)} |")
    sections = {heading: site_links(text) for heading, text in readme_sections().items()}
    return "\n".join(
        [
            "# Installation\n",
            f"## From a clone: the two commands\n\n{sections['The two commands']}",
            f"Python {project['requires-python']} is required; the package's own dependencies are "
            + ", ".join(f"`{d}`" for d in project["dependencies"])
            + ".\n",
            "## Extras\n",
            "Each optional part of the library is an extra of `pyproject.toml` "
            '(`pip install -e ".[train,web]"` from a clone):\n',
            "\n".join(rows) + "\n",
            "## This documentation\n",
            "`make docs` installs the `docs` extra into `.venv` and builds this site into `site/` with "
            "`mkdocs build --strict` (a broken link, anchor or reference fails the build); open "
            "`site/index.html` in a browser. `.venv/bin/mkdocs serve` serves it with live reload while "
            "you edit `docs/`.\n",
        ]
    )


# ----- every page ------------------------------------------------------------------------------------

CODE_SPAN = re.compile(r"`[^`\n]*`")


def table_code_pipes(markdown: str) -> str:
    """``markdown`` with the ``\\|`` inside code spans of table rows written ``|``: GitHub reads that escape
    there (a pipe in a cell's code), Python-Markdown shows the backslash, and needs none (it does not split
    a cell at a pipe inside code)."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.lstrip().startswith("|") and "\\|" in line:
            line = CODE_SPAN.sub(lambda m: m.group(0).replace("\\|", "|"), line)
        lines.append(line)
    return "\n".join(lines)


# ----- the environment pages ------------------------------------------------------------------------

ADAPTER_PARAMETERS = {
    "render_mode": "the environment's",
    "illegal_action": "the environment's",
    "max_cycles": "the environment's: PettingZoo's name for `max_turns`",
}


def env_page_path(name: str) -> str:
    return f"environments/{name}.md"


def _docs_links(text: str, depth: int) -> str:
    """Mentions of ``docs/<page>.md`` in code made links to that page."""
    return re.sub(r"`docs/([\w/.-]+\.md)`", lambda m: f"[`docs/{m.group(1)}`]({'../' * depth}{m.group(1)})", text)


def _spaces_rows(module) -> list[str]:
    """One table row per distinct set of spaces over the module's conformance options."""
    rows, seen = [], set()
    for options in getattr(module, "CONFORMANCE_OPTIONS", [{}]):
        env = module.env(**options)
        env.reset(seed=0)
        agent = env.possible_agents[0]
        spaces = (tuple(env.possible_agents), repr(env.observation_space(agent)), repr(env.action_space(agent)))
        env.close()
        if spaces in seen:
            continue
        seen.add(spaces)
        shown = ", ".join(f"{k}={v!r}" for k, v in options.items() if k != "max_turns") or "the defaults"
        agents = f"`{spaces[0][0]}` .. `{spaces[0][-1]}`"
        rows.append(f"| {shown} | {agents} | `{spaces[1]}` | `{spaces[2]}` |")
    return rows


def _options_rows(module, game_options: list[str]) -> list[str]:
    constructor = getattr(module, "parallel_env", module.env)
    rows = []
    for parameter in inspect.signature(constructor).parameters.values():
        kind = "the game's" if parameter.name in game_options else ADAPTER_PARAMETERS.get(parameter.name, "")
        rows.append(f"| `{parameter.name}` | `{parameter.default!r}` | {kind} |")
    return rows


def _signature(function) -> str:
    """``function``'s signature, one parameter a line."""
    signature = inspect.signature(function)
    parameters = "".join(f"\n    {p}," for p in signature.parameters.values()).replace("'", '"')
    returns = signature.return_annotation
    if returns is inspect.Signature.empty:
        return f"({parameters}\n)"
    shown = returns if isinstance(returns, str) else f"{returns.__module__}.{returns.__qualname__}"
    return f"({parameters}\n) -> {shown}"


def _function_section(module, names: list[str]) -> str:
    lines = []
    for name in names:
        function = getattr(module, name)
        lines.append(f"### `{name}`\n\n```python\n{module.__name__}.{name}{_signature(function)}\n```\n")
        lines.append(f"{inspect.getdoc(function) or ''}\n")
    return "\n".join(lines)


def environment_page(name: str) -> str:
    """The page of game ``name``: the module's docstring (filled from the game's spec) with the pictures,
    then the spaces measured on live environments, the constructor's options, how to make it, its
    versions and the module's functions."""
    from boardgames.envs.registration import env_id
    from boardgames.envs.registry import env_modules, game_option_names, parallel_games

    versions = env_modules(name)
    module = importlib.import_module(versions[max(versions)])
    first, _, body = inspect.cleandoc(module.__doc__).partition("\n")
    title = first.partition(":")[0]
    short = module.__name__.rpartition(".")[2]
    parallel = name in parallel_games()
    eid = env_id(name)
    functions = (["parallel_env"] if parallel else []) + ["env", "raw_env", "make_game"]
    older = [f"`{m.rpartition('.')[2]}` (`{env_id(name, v)}`)" for v, m in versions.items() if m != module.__name__]
    make_lines = [
        f"from boardgames.envs import {short}",
        "",
        f"env = {short}.env()  # PettingZoo AEC",
        *([f"par = {short}.parallel_env()  # PettingZoo Parallel"] if parallel else []),
        "",
        "import gymnasium, pettingzoo",
        "import boardgames.envs  # registers every game",
        "",
        f'env = pettingzoo.make("aec", "{eid}")',
        *([f'par = pettingzoo.make("parallel", "{eid}")'] if parallel else []),
        f'single = gymnasium.make("{eid}", opponent="greedy")  # one learning seat against opponents',
        f'batch = gymnasium.make_vec("{eid}", num_envs=64)  # games stepped by one compiled call',
        "",
        "from boardgames.envs.registry import make_game",
        "",
        f'game = make_game("{name}")  # the rules engine alone',
    ]
    parts = [
        f"# {title}\n",
        f"{first}\n",
        f'![{title}: a whole game](../images/{name}.gif){{ width="49%" }}'
        f' ![{title}: a position](../images/{name}.png){{ width="49%" }}\n',
        f"The rules, with the rulings: [{title} rules](../rules/{name}.md). The pictures are the environment's "
        "own `rgb_array` frames, a whole game (greedy players', or random players' where greedy ones end "
        "too soon) and a position from one (`python docs/make_pictures.py` redraws them).\n",
        _docs_links(body.strip(), depth=1) + "\n",
        "## Spaces\n",
        f"Measured on `{short}.env(...)` (every agent has the same spaces; the observation's "
        "`action_mask` marks the legal actions):\n",
        "| options | agents | observation space | action space |",
        "| --- | --- | --- | --- |",
        *_spaces_rows(module),
        "",
        "## Options\n",
        f"`{short}.{'parallel_env' if parallel else 'env'}` takes (the paragraphs above say what each does):\n",
        "| option | default | of |",
        "| --- | --- | --- |",
        *_options_rows(module, game_option_names(name)),
        "",
        "## Making it\n",
        "```python\n" + "\n".join(make_lines) + "\n```\n",
        f"In OpenSpiel (the `openspiel` extra): `boardgames_{name}`, see [OpenSpiel](../openspiel.md).\n",
    ]
    if older:
        parts.append(f"Older versions, kept for reproducing older results: {', '.join(older)}.\n")
    parts += ["## Module functions\n", _function_section(module, functions)]
    return "\n".join(parts)


# ----- the API reference ----------------------------------------------------------------------------

API_PAGES = {
    "api/core-game.md": ("The Game/State contract", ["boardgames.envs.core.game"]),
    "api/core-kernels.md": ("Game kernels", ["boardgames.envs.core.game_kernels"]),
    "api/core-spec.md": ("Game specs", ["boardgames.envs.core.spec"]),
    "api/core-errors.md": ("Errors", ["boardgames.envs.core.errors"]),
    "api/registry.md": ("Registry", ["boardgames.envs.registry", "boardgames.envs.registration"]),
    "api/adapters.md": (
        "Adapters",
        [
            "boardgames.envs.adapters",
            "boardgames.envs.adapters.aec_env",
            "boardgames.envs.adapters.parallel_env",
            "boardgames.envs.adapters.single_agent",
            "boardgames.envs.adapters.illegal",
            "boardgames.envs.adapters.env_module",
        ],
    ),
    "api/vector.md": (
        "Batched games",
        ["boardgames.envs.vector", "boardgames.envs.vector.sb3", "boardgames.envs.vector.packed"],
    ),
    "api/agents.md": ("Agents", ["boardgames.envs.agents", "boardgames.envs.agents.play"]),
    "api/search.md": ("Compiled search", ["boardgames.envs.search"]),
    "api/replay.md": ("Replays", ["boardgames.envs.tools.replay"]),
    "api/agent-kinds.md": ("Agent kinds", ["boardgames.training.agent_kinds"]),
    "api/evaluate.md": ("Evaluation", ["boardgames.training.evaluation.evaluate"]),
    "api/settings.md": ("Training settings", ["boardgames.training.settings"]),
}
"""The API reference: page -> (title, modules rendered on it by mkdocstrings). A package is rendered with
what it exports (``from boardgames.envs.agents import GreedyAgent``), so only the submodules that hold
more public API follow it."""


def api_page(title: str, modules: list[str]) -> str:
    return f"# {title}\n\n" + "\n".join(f"::: {m}\n" for m in modules)


def api_index() -> str:
    from boardgames.envs.registry import game_names

    lines = [
        "# API reference\n",
        "Rendered from the docstrings of the public modules (the package is `boardgames`: the repository's "
        "`envs/` is `boardgames.envs`, `training/` is `boardgames.training`).\n",
    ]
    for path, (title, modules) in API_PAGES.items():
        lines.append(f"* [{title}]({path.removeprefix('api/')}): " + ", ".join(f"`{m}`" for m in modules))
    links = ", ".join(f"[{name}](../{env_page_path(name)})" for name in game_names())
    lines.append(
        f"\nThe environment modules (`boardgames.envs.<game>_v<N>`: `env`, `raw_env`, `make_game`, "
        f"`parallel_env`) are documented on their environment pages: {links}.\n"
    )
    return "\n".join(lines)


# ----- everything -----------------------------------------------------------------------------------


def generated_pages() -> dict[str, str]:
    """Every page this module makes: site path (under ``docs/``) -> Markdown."""
    from boardgames.envs.registry import game_names

    pages = {
        "index.md": home_page(),
        "installation.md": installation_page(),
        "quickstart.md": readme_page(
            "Quick start", "Quick start", "Illegal actions", "PettingZoo", "Gymnasium and Stable-Baselines3"
        ),
        "command-line.md": readme_page("Train, evaluate, play", "Train, evaluate, play"),
        "rllib.md": readme_page("Ray RLlib", "Ray RLlib"),
        "web.md": readme_page("Play in the browser", "Play in the browser"),
        "notebooks.md": readme_page("Notebooks", "Notebooks"),
        "speed.md": readme_page("Speed", "Speed"),
        "development.md": readme_page("Development", "Development", "Layout"),
        "changelog.md": site_links((ROOT / "CHANGELOG.md").read_text(encoding="utf-8")),
        "api/index.md": api_index(),
    }
    for path, (title, modules) in API_PAGES.items():
        pages[path] = api_page(title, modules)
    for name in game_names():
        pages[env_page_path(name)] = environment_page(name)
    return pages
