"""A griffe extension (``mkdocs.yml``: mkdocstrings' ``extensions``) that reads the docstrings' Sphinx-style
roles as Markdown for the API reference.

The docstrings name code as reStructuredText does: ``:class:`GameSpec```, ``:meth:`GameSpec.fill_doc```,
``:func:`~boardgames.envs.agents.play.play_game```, ``:mod:`boardgames.envs.core``` (and ``::`` before a
code block). Each role
becomes its name in code, linked to the object's page where the API reference renders that object (an
optional cross-reference: mkdocs-autorefs links it when the target is documented and leaves plain code
otherwise, so an object the site does not render never fails the build); a name is resolved in the scope
of the docstring's object, as Python would find it there. A leading ``~`` shows only the last part.

A page of ``docs/`` named in plain text (``see docs/search.md``) becomes a link to that page of the site
when the page exists (the API pages live in ``api/``, one folder down).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([^`<]+?)(?:\s*<([^`>]+)>)?`")
LITERAL_BLOCK = re.compile(r"(\S)::\n\n", re.M)
DOCS_PAGE = re.compile(r"(?<![`/\w])docs/([\w/-]+\.md)(#[\w-]+)?")
DOCS = Path(__file__).resolve().parent
API_PAGE_DEPTH = 1  # the API reference's pages are api/<page>.md

__all__ = ["SphinxRoles"]


def _target(obj: griffe.Object, name: str) -> str | None:
    """The full path of ``name`` as seen from ``obj``, None when it cannot be resolved."""
    if name.startswith("boardgames."):
        return name
    head, dot, rest = name.partition(".")
    try:
        resolved = obj.resolve(head)
    except (griffe.NameResolutionError, KeyError, AttributeError, griffe.AliasResolutionError):
        return None
    return resolved + dot + rest


def markdown_roles(text: str, obj: griffe.Object) -> str:
    """``text`` with its roles as (optionally linked) code, ``::`` literal-block markers as ``:`` and
    mentions of existing ``docs/`` pages as links."""

    def replace(match: re.Match) -> str:
        tilde, shown, explicit = match.groups()
        name = (explicit or shown).strip()
        label = shown.strip().rpartition(".")[2] if tilde else shown.strip()
        code = f"<code>{html.escape(label)}</code>"
        target = _target(obj, name.rstrip("()"))
        if target is None:
            return f"`{label}`"
        return f'<autoref identifier="{html.escape(target)}" optional>{code}</autoref>'

    def link(match: re.Match) -> str:
        page, anchor = match.group(1), match.group(2) or ""
        if not (DOCS / page).is_file():
            return match.group(0)
        return f"[docs/{page}{anchor}]({'../' * API_PAGE_DEPTH}{page}{anchor})"

    return DOCS_PAGE.sub(link, LITERAL_BLOCK.sub(r"\1:\n\n", ROLE.sub(replace, text)))


def _walk(obj: griffe.Object, seen: set):
    if obj.path in seen:
        return
    seen.add(obj.path)
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member, seen)


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring of a loaded package once all its modules are known (names resolve)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        for obj in _walk(pkg, set()):
            if obj.docstring is not None:
                obj.docstring.value = markdown_roles(obj.docstring.value, obj)
