"""The pages of the documentation site that are made from other sources at build time (``make docs``).

``docs/site_hooks.py`` (an MkDocs hook, named in ``mkdocs.yml``) adds them to the site; nothing here is
written into ``docs/``, so they are never stale:

* from the README, by its ``## `` sections: the home page (a picture of every game first), installation,
  quick start, the command line, RLlib, web play, notebooks, the speed overview and the development notes
  (its links to ``docs/`` pages made relative to the site, with the page's title as text where the text
  was the path; its links to other repository files written as the file's path);
* from each registered game's environment module (``boardgames.envs.<game>_v<N>``, its docstring filled from
  ``envs/<game>/spec.py``), one page per game: its pictures (``docs/images/<game>.png`` and
  ``<game>.gif``, drawn by ``docs/make_pictures.py``), a usage loop per interface (PettingZoo AEC or
  Parallel, Gymnasium, ``gymnasium.make_vec``), spaces, options, registry ids, rewards and notation;
* the environments gallery (``environments/index.md``): a picture of every game and variant, those of
  the variants drawn at build time (:func:`generated_pictures`, added to the site by the hook too);
* the API reference: one page per group of public modules, rendered by mkdocstrings from the docstrings;
* the changelog, from ``CHANGELOG.md``.

:func:`generated_pages` returns them all (site path -> Markdown); ``tests/package/test_docs_site.py`` checks that
``mkdocs.yml``'s nav lists every one of them and every rules page.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import io
import re
from functools import cache
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


def page_label(path: str) -> str:
    """Words for a link to the docs page ``path`` (under ``docs/``): its title up to a colon or dash
    ("Reliability: the fuzz campaigns" -> "Reliability"), followed by its folder ("Dorix rules");
    the path itself where the page has no ``# `` title."""
    source = DOCS / path
    lines = source.read_text(encoding="utf-8").splitlines() if source.is_file() else []
    title = next((line[2:].strip() for line in lines if line.startswith("# ")), "")
    if not title:
        return path
    title = re.split(r":\s| — ", title, maxsplit=1)[0].strip()
    folder = Path(path).parent.name
    return f"{title} {folder}" if folder else title


def site_links(text: str, depth: int = 0) -> str:
    """``text`` (Markdown written at the repository's root) with its links made valid for a site page
    ``depth`` folders below the site's root: a link to ``docs/<page>`` points at that page (a link whose
    text is that path gets the page's title as text: words, not paths), a link to any other repository
    file becomes its path as code (the site holds only ``docs/``)."""
    up = "../" * depth

    def relink(match: re.Match) -> str:
        bang, label, target = match.groups()
        if EXTERNAL.match(target):
            return match.group(0)
        if target.startswith("docs/"):
            page = target[len("docs/") :]
            if not bang and label.strip("`") == target.partition("#")[0]:
                label = page_label(page.partition("#")[0])
            return f"{bang}[{label}]({up}{page})"
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


def _intro_parts(intro: str) -> tuple[str, str, str]:
    """The README's introduction split into what comes before its first table, the table, and the rest."""
    blocks = re.split(r"\n\s*\n", intro.strip())
    at = next((i for i, block in enumerate(blocks) if block.lstrip().startswith("|")), len(blocks))
    return "\n\n".join(blocks[:at]), "\n\n".join(blocks[at : at + 1]), "\n\n".join(blocks[at + 1 :])


def version() -> str:
    """The package's version (``boardgames.__version__``, the one pyproject.toml reads too)."""
    import boardgames

    return boardgames.__version__


def home_page() -> str:
    """The home page: the README's first sentences, then a picture of every game linking to its page, the
    README's table of the games (its links with words as text), the two commands and where to read on."""
    sections = {heading: site_links(text) for heading, text in readme_sections().items()}
    lead, table, rest = _intro_parts(sections[""].partition("\n")[2])  # without the README's own title
    cards = [game_card(name, "", "environments/") for name in _game_names()]
    return "\n".join(
        [
            "# boardgame-rl-envs\n",
            lead + "\n",
            grid(cards),
            f"Version {version()} ([changelog](changelog.md)). Every variant of every game: the "
            "[environments gallery](environments/index.md).\n",
            *([f"## The games at a glance\n\n{table}\n"] if table else []),
            *([rest + "\n"] if rest else []),
            f"## The two commands\n\n{sections['The two commands']}",
            "## Where to read on\n",
            "* [Installation](installation.md) and the [quick start](quickstart.md): the first environment "
            "in a few lines, PettingZoo, Gymnasium and Stable-Baselines3;",
            "* the [environments](environments/index.md), one page per game (a usage loop, spaces, options, "
            "rewards, notation, an animated game), and the [rules](rules/dorix.md) with their rulings;",
            "* guides: [the command line](command-line.md), [training](training.md), "
            "[AlphaZero](alphazero.md), [RLlib](rllib.md) and [scale-out](scale-out.md), "
            "[play in the browser](web.md), [OpenSpiel](openspiel.md), [the ecosystem](ecosystem.md);",
            "* [performance](performance.md), the [leaderboards](leaderboard.md), the "
            "[architecture](architecture.md), the [API reference](api/index.md) and the "
            "[changelog](changelog.md).",
            "",
        ]
    )


# ----- pictures and the gallery ---------------------------------------------------------------------


def _game_names() -> list[str]:
    from boardgames.envs.registry import game_names

    return game_names()


def current_module(name: str):
    """The environment module of game ``name``'s current version."""
    from boardgames.envs.registry import env_modules

    versions = env_modules(name)
    return importlib.import_module(versions[max(versions)])


def title_and_summary(module) -> tuple[str, str]:
    """The game's name and its one-line description, from the first line of the module's docstring
    (``"Dorix: the 4x4 stacking game ..."``)."""
    first = inspect.cleandoc(module.__doc__).partition("\n")[0]
    title, _, summary = first.partition(":")
    return title.strip(), summary.strip()


def grid(cards: list[str]) -> str:
    """Material's grid of cards, one Markdown list item a card."""
    return '<div class="grid cards" markdown>\n\n' + "\n\n".join(cards) + "\n\n</div>\n"


def card(picture: str, alt: str, link: str, caption: str) -> str:
    """One card: ``picture`` linking to ``link``, ``caption`` (Markdown) under it."""
    return f"-   [![{alt}]({picture})]({link})\n\n    {caption}"


def game_card(name: str, up: str, pages: str) -> str:
    """The card of game ``name`` on a page ``up`` (``"../"`` or ``""``) below the root, whose link to the
    environment pages starts with ``pages``."""
    title, summary = title_and_summary(current_module(name))
    page = f"{pages}{name}.md"
    caption = f"**[{title}]({page})**: {summary}<br>[Environment]({page}) · [Rules]({up}rules/{name}.md)"
    return card(f"{up}images/{name}.png", f"{title}: a position", page, caption)


OPTION_WORDS = {"num_players": "{} players", "start": "{} start"}
"""How a gallery caption says a game option's value (any other option: ``name=value``)."""
SAME_GAME_OPTIONS = ("max_turns",)
"""Game options that change no picture: left out of the gallery's variants."""


def gallery_variants(name: str) -> list[dict]:
    """Game ``name``'s variants worth a picture each: its module's ``CONFORMANCE_OPTIONS`` without the
    options of :data:`SAME_GAME_OPTIONS`, each filled with the defaults, in order, each once."""
    from boardgames.envs.registry import game_option_names

    module = current_module(name)
    constructor = getattr(module, "parallel_env", module.env)
    names = [o for o in game_option_names(name) if o not in SAME_GAME_OPTIONS]
    defaults = {p.name: p.default for p in inspect.signature(constructor).parameters.values() if p.name in names}
    variants = []
    for options in getattr(module, "CONFORMANCE_OPTIONS", [{}]):
        variant = {**defaults, **{k: v for k, v in options.items() if k in names}}
        if variant not in variants:
            variants.append(variant)
    return variants


def variant_words(options: dict, shown: list[str]) -> str:
    """The options ``shown`` of a variant in words: ``"3 players"``, ``"corners start"``."""
    return ", ".join(OPTION_WORDS.get(k, k + "={!r}").format(options[k]) for k in shown)


def variant_picture(name: str, options: dict, words: str) -> str:
    """The site path of the picture of a variant: the game's own picture (``docs/images/<game>.png``) for
    its defaults, else one drawn at build time (:func:`generated_pictures`)."""
    if _is_default(name, options):
        return f"images/{name}.png"
    return f"images/gallery/{name}-{re.sub(r'[^a-z0-9]+', '-', words.lower()).strip('-')}.png"


def _is_default(name: str, options: dict) -> bool:
    module = current_module(name)
    constructor = getattr(module, "parallel_env", module.env)
    parameters = inspect.signature(constructor).parameters
    return all(parameters[k].default == v for k, v in options.items())


def _varying(variants: list[dict]) -> list[str]:
    """The options whose value differs between ``variants``."""
    return [k for k in variants[0] if len({repr(v[k]) for v in variants}) > 1]


def gallery() -> list[tuple[str, dict, str, str]]:
    """Every game and variant: (game, options, words, picture's site path)."""
    rows = []
    for name in _game_names():
        variants = gallery_variants(name)
        for options in variants:
            words = variant_words(options, _varying(variants))
            if len(variants) > 1 and _is_default(name, options):
                words += " (the default)"
            rows.append((name, options, words, variant_picture(name, options, words)))
    return rows


def _load_make_pictures():
    """``docs/make_pictures.py``, loaded by path (``docs/`` is no package)."""
    spec = importlib.util.spec_from_file_location("boardgames_make_pictures", DOCS / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def generated_pictures() -> dict[str, bytes]:
    """The gallery's pictures that ``docs/images`` does not hold: site path -> PNG, each a position of a
    greedy players' game drawn by the environment's own renderer, as ``docs/make_pictures.py`` draws
    ``docs/images/<game>.png`` (the same function, with the variant's options)."""
    from PIL import Image

    make_pictures = _load_make_pictures()
    pictures = {}
    for name, options, _words, path in gallery():
        if (DOCS / path).is_file():
            continue
        buffer = io.BytesIO()
        Image.fromarray(make_pictures.mid_game(name, **options).last.render_rgb()).save(buffer, "PNG", optimize=True)
        pictures[path] = buffer.getvalue()
    return pictures


def gallery_page() -> str:
    """The environments gallery (``environments/index.md``): a picture of every game and variant, each
    linking to the game's page, under a heading per game."""
    parts = [
        "# Environments\n",
        "Every game and every variant of its options, each picture a position from a game between greedy "
        "players drawn by the environment's own `rgb_array` renderer. Click a picture for the game's page: "
        "a usage loop (PettingZoo and Gymnasium), the spaces, options, rewards and notation.\n",
    ]
    rows = gallery()
    for name in _game_names():
        module = current_module(name)
        title, summary = title_and_summary(module)
        short = module.__name__.rpartition(".")[2]
        constructor = "parallel_env" if hasattr(module, "parallel_env") else "env"
        cards = []
        for _name, options, words, picture in (row for row in rows if row[0] == name):
            label = f"{title}, {words}" if words else title
            call = ", ".join(f"{k}={v!r}" for k, v in options.items() if not _is_default(name, {k: v}))
            call = call.replace("'", '"')
            caption = f"**[{label}]({name}.md)**<br>`{short}.{constructor}({call})`"
            cards.append(card(f"../{picture}", label, f"{name}.md", caption))
        parts += [f"## {title}\n", f"{summary[:1].upper()}{summary[1:]} [Rules](../rules/{name}.md).\n", grid(cards)]
    return "\n".join(parts)


EXTRAS = {
    "human": '`render_mode="human"` and `boardgames play --gui`: a pygame window',
    "openspiel": "every game as an OpenSpiel game ([OpenSpiel](openspiel.md))",
    "train": "training and evaluation: MaskablePPO, AlphaZero, the shipped models as agents",
    "dev": "the test suite and the linters (`make test`, `make lint`)",
    "rllib": "Ray RLlib ([Ray RLlib](rllib.md)); ray pins gymnasium 1.2.2: give it a venv of its own",
    "web": "play and watch in the browser ([Play in the browser](web.md))",
    "web-test": "the browser and API tests of `tests/play/web`",
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


def project() -> dict:
    """The ``[project]`` table of ``pyproject.toml``."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def installation_page() -> str:
    """Installation: the README's two commands and its note on installing the package, then the extras
    of ``pyproject.toml`` with what each installs."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project_table = project()
    rows = ["| extra | for | installs |", "| --- | --- | --- |"]
    for extra, requirements in project_table["optional-dependencies"].items():
        purpose = EXTRAS.get(extra) or _toml_comment(text, extra).replace("|", "\\|")
        rows.append(f"| `{extra}` | {purpose} | {', '.join(f'`{r}`' for r in requirements)} |")
    sections = {heading: site_links(text) for heading, text in readme_sections().items()}
    return "\n".join(
        [
            "# Installation\n",
            f"## From a clone: the two commands\n\n{sections['The two commands']}",
            f"Python {project_table['requires-python']} is required; the package's own dependencies are "
            + ", ".join(f"`{d}`" for d in project_table["dependencies"])
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


USAGE_INTRO = (
    "Each block runs as it is (the test suite runs every one): random legal moves where your policy goes. "
    "Every observation carries the mask of the legal actions."
)


def aec_loop(short: str) -> str:
    """PettingZoo's AEC loop (its "Usage"): one agent acts at a time, masked random actions."""
    return f"""from boardgames.envs import {short}

env = {short}.env()  # render_mode="human": a window (the human extra); "ansi": text
env.reset(seed=42)

for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None  # an agent that is done steps with None
    else:
        mask = observation["action_mask"]  # 1 for each legal action
        # this is where you would insert your policy
        action = env.action_space(agent).sample(mask)
    env.step(action)
env.close()
"""


def parallel_loop(short: str) -> str:
    """PettingZoo's Parallel loop: every agent acts at once, masked random actions."""
    return f"""from boardgames.envs import {short}

env = {short}.parallel_env()  # render_mode="human": a window (the human extra); "ansi": text
observations, infos = env.reset(seed=42)

while env.agents:
    # every agent gives its action at once; this is where you would insert your policy
    actions = {{
        agent: env.action_space(agent).sample(observations[agent]["action_mask"])
        for agent in env.agents
    }}
    observations, rewards, terminations, truncations, infos = env.step(actions)
env.close()
"""


def gymnasium_loop(eid: str) -> str:
    """The Gymnasium single-agent loop: one learning seat, the others played by opponents inside ``step``."""
    return f"""import gymnasium
import numpy as np

import boardgames.envs  # registers every game

env = gymnasium.make("{eid}", opponent="random")  # or "greedy", "mcts:200", a callable
observation, info = env.reset(seed=42)
rng = np.random.default_rng(42)

done = False
while not done:
    legal = np.flatnonzero(info["action_mask"])  # the learner's legal actions
    action = rng.choice(legal)  # this is where you would insert your policy
    observation, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
env.close()
"""


def vector_loop(eid: str) -> str:
    """The ``gymnasium.make_vec`` loop: a batch of games stepped by one compiled call."""
    return f"""import gymnasium
import numpy as np

import boardgames.envs  # registers every game

envs = gymnasium.make_vec("{eid}", num_envs=8)  # 8 games stepped by one compiled call
observations, infos = envs.reset(seed=42)
rng = np.random.default_rng(42)

for step in range(100):  # an ended game restarts by itself (autoreset)
    masks = infos["action_mask"]  # (8, number of actions): each game's legal actions
    actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
    observations, rewards, terminations, truncations, infos = envs.step(actions)
envs.close()
"""


def usage_section(name: str, module) -> str:
    """The page's "Usage": a complete loop per interface, PettingZoo (AEC for turn-based games, Parallel
    for games whose seats act at once), Gymnasium's single-agent env and ``gymnasium.make_vec``."""
    from boardgames.envs.registration import env_id
    from boardgames.envs.registry import parallel_games

    short, eid = module.__name__.rpartition(".")[2], env_id(name)
    if name in parallel_games():
        pettingzoo = (
            "### PettingZoo Parallel\n\nThe seats act at the same time: each step takes every agent's "
            f"action. `{short}.env()` is the same game in AEC form: the AEC loop of the turn-based games plays "
            "it too.\n\n" + _python(parallel_loop(short))
        )
    else:
        pettingzoo = (
            "### PettingZoo AEC\n\nThe agents take turns: `env.last()` gives the observation of the agent "
            "to act, with its `action_mask`.\n\n" + _python(aec_loop(short))
        )
    return "\n".join(
        [
            "## Usage\n",
            USAGE_INTRO + "\n",
            pettingzoo,
            "### Gymnasium: one learning seat\n",
            f'`gymnasium.make("{eid}")` is one learning seat against opponents, played inside `step`; '
            '`info["action_mask"]` (and `env.unwrapped.action_masks()`, for MaskablePPO) marks its legal '
            "actions.\n",
            _python(gymnasium_loop(eid)),
            "### Gymnasium vector: `gymnasium.make_vec`\n",
            f'`gymnasium.make_vec("{eid}", num_envs=N)` steps N games, one learning seat each, in one '
            'compiled call; `infos["action_mask"]` holds one mask a game. Autoreset modes and the batch\'s '
            "options: [Batched games](../api/vector.md).\n",
            _python(vector_loop(eid)),
        ]
    )


def _python(code: str) -> str:
    return f"```python\n{code}```\n"


def environment_page(name: str) -> str:
    """The page of game ``name``: the module's docstring (filled from the game's spec) with the pictures,
    then the spaces measured on live environments, the constructor's options, how to make it, its
    versions and the module's functions."""
    from boardgames.envs.registration import env_id
    from boardgames.envs.registry import env_modules, game_option_names, parallel_games

    versions = env_modules(name)
    module = importlib.import_module(versions[max(versions)])
    first, _, body = inspect.cleandoc(module.__doc__).partition("\n")
    intro, heading, rest = body.partition("\n## ")  # the usage goes before the docstring's first section
    reference = heading.lstrip("\n") + rest
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
        _docs_links(intro.strip(), depth=1) + "\n",
        usage_section(name, module),
        _docs_links(reference.strip(), depth=1) + "\n",
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
    pages["environments/index.md"] = gallery_page()
    for name in game_names():
        pages[env_page_path(name)] = environment_page(name)
    return pages
