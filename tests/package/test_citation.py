"""``CITATION.cff`` is valid Citation File Format 1.2.0 and cites the package's own version."""

from __future__ import annotations

import datetime
from pathlib import Path

import boardgames

CITATION = Path(__file__).resolve().parents[2] / "CITATION.cff"


def _read(text: str) -> dict:
    """The CFF file as data: with PyYAML when installed, else the top-level ``key: value`` lines and the
    names of ``authors`` (all this file uses)."""
    try:
        import yaml
    except ImportError:
        data: dict = {}
        for line in text.splitlines():
            if line.startswith("  - name:"):
                data.setdefault("authors", []).append({"name": line.split(":", 1)[1].strip().strip('"')})
            elif line and not line.startswith((" ", "#")) and ":" in line:
                key, value = line.split(":", 1)
                if value.strip():  # a list or a folded block follows otherwise
                    data[key] = value.strip().strip('"')
        return data
    return yaml.safe_load(text)


def test_citation_file_parses_and_cites_this_version():
    data = _read(CITATION.read_text())
    assert str(data["cff-version"]) == "1.2.0"
    # message, title and authors are the format's required keys
    for key in ("message", "title", "authors", "version", "license", "date-released"):
        assert data.get(key), key
    assert str(data["version"]) == boardgames.__version__
    assert data["license"] == "MIT"
    assert [a["name"] for a in data["authors"]] == ["boardgame-rl-envs contributors"]
    datetime.date.fromisoformat(str(data["date-released"]))


def test_the_simple_reading_agrees_with_yaml(monkeypatch):
    import pytest

    yaml = pytest.importorskip("yaml")
    text = CITATION.read_text()
    monkeypatch.setitem(__import__("sys").modules, "yaml", None)  # as on a machine without PyYAML
    simple = _read(text)
    full = yaml.safe_load(text)
    for key in ("cff-version", "title", "version", "license", "date-released"):
        assert simple[key] == str(full[key]), key
    assert simple["authors"] == full["authors"]
