"""The Markdown the specs are written in (:mod:`boardgames.envs.core.spec`): wrapped paragraphs, tables, and the
``<!-- spec:S -->`` ... ``<!-- /spec:S -->`` sections of the rules pages and env docstrings."""

from __future__ import annotations

import re
import textwrap

_MARKED = re.compile(r"<!-- spec:(\w+) -->(.*?)<!-- /spec:\1 -->", re.DOTALL)


def paragraph(text: str, indent: str = "") -> str:
    """A paragraph wrapped at 100 columns, never inside a word or a code span; its later lines
    indented by ``indent``."""
    pieces = text.split("`")
    kept = "`".join(p.replace(" ", "\0") if i % 2 else p for i, p in enumerate(pieces))
    wrapped = textwrap.fill(kept, 100, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    return wrapped.replace("\0", " ")


def table(header: list, rows: list) -> str:
    """A Markdown table (a ``|`` inside a cell escaped)."""
    lines = [header, ["---"] * len(header)] + rows
    return "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in lines)


def marked_sections(text: str) -> list:
    """The names of the spec sections marked in ``text``, in order."""
    return [m.group(1) for m in _MARKED.finditer(text)]


def fill_sections(text: str, spec, keep_markers: bool = True) -> str:
    """``text`` with every ``<!-- spec:S -->`` ... ``<!-- /spec:S -->`` pair holding ``spec.markdown(S)``
    (between the markers when ``keep_markers``, else in their place); ``spec`` is a
    :class:`boardgames.envs.core.spec.GameSpec`."""

    def replace(m: re.Match) -> str:
        body = spec.markdown(m.group(1))
        return f"<!-- spec:{m.group(1)} -->\n{body}\n<!-- /spec:{m.group(1)} -->" if keep_markers else body

    return _MARKED.sub(replace, text)
