"""Write the observation, action and notation tables of ``docs/rules/<game>.md`` from the games' specs.

    python -m docs.make_spec_tables            # rewrite the tables of every rules page
    python -m docs.make_spec_tables --check    # exit 1, naming the pages, when a table differs
    python -m docs.make_spec_tables dorix      # only some games

Each page holds the sections between marker comments, ``<!-- spec:observation -->`` ...
``<!-- /spec:observation -->`` (likewise ``actions`` and ``notation``); the text between them is
``envs/<game>/spec.py``'s ``SPEC.markdown(section)``, and the prose around them is left as it is.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from boardgames.envs.core.spec import SECTIONS, fill_sections, marked_sections  # noqa: E402
from boardgames.envs.registry import game_names  # noqa: E402

RULES = ROOT / "docs" / "rules"


def page(name: str) -> Path:
    return RULES / f"{name}.md"


def generated(name: str) -> str:
    """The rules page of ``name`` with its spec sections as the spec renders them now."""
    text = page(name).read_text(encoding="utf-8")
    missing = [s for s in SECTIONS if s not in marked_sections(text)]
    if missing:
        raise SystemExit(f"{page(name)}: no <!-- spec:{missing[0]} --> ... <!-- /spec:{missing[0]} --> block")
    spec = importlib.import_module(f"boardgames.envs.{name}.spec").SPEC
    return fill_sections(text, spec)


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.make_spec_tables", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to do (default: every registered game)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page differs")
    args = parser.parse_args(argv)
    names = args.games or game_names()
    unknown = [n for n in names if n not in game_names()]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; games: {', '.join(game_names())}")
    stale = []
    for name in names:
        text = generated(name)
        if text != page(name).read_text(encoding="utf-8"):
            stale.append(name)
            if not args.check:
                page(name).write_text(text, encoding="utf-8")
    rel = [str(page(n).relative_to(ROOT)) for n in stale]
    if args.check:
        if stale:
            print("spec tables out of date in " + ", ".join(rel) + ": run python -m docs.make_spec_tables")
            return 1
        print("spec tables up to date")
        return 0
    print("rewrote " + ", ".join(rel) if stale else "spec tables already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
