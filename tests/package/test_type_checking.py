"""The type checker's rules (docs/architecture.md, "Type checking"): ``make test`` runs mypy over the whole
library with a pinned minor version, nothing is silenced for a module or a file, and every
``# type: ignore`` of the library names its error code and says why."""

from __future__ import annotations

import re
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LIBRARY = ("package", "envs", "training", "play", "benchmarks")
"""The folders of the package (pyproject.toml's package-dir, models/ aside: data only)."""
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<rest>.*)$")


def test_make_test_runs_the_type_checker_pinned_to_one_minor_version():
    makefile = (ROOT / "Makefile").read_text()
    test_target = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/mypy" in test_target
    pins = [d for d in PYPROJECT["project"]["optional-dependencies"]["dev"] if d.startswith("mypy")]
    assert len(pins) == 1 and re.fullmatch(r"mypy>=2\.\d+(\.\d+)?,<2\.\d+", pins[0]), pins


def test_the_whole_package_is_checked_and_nothing_is_silenced_wholesale():
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["packages"] == ["boardgames"]
    for section in [mypy, *mypy.get("overrides", [])]:
        assert not section.get("ignore_errors"), section
        assert section.get("follow_imports") not in ("skip", "silent"), section
        for module in section.get("module", []):
            assert not module.startswith("boardgames"), f"an override of the library's own code: {module}"


def _ignores() -> list[tuple[str, str, str]]:
    """Every ``# type: ignore`` of the library: (where, what follows it, the line above)."""
    found = []
    for folder in LIBRARY:
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text().splitlines()
            for number, line in enumerate(lines, 1):
                match = IGNORE.search(line)
                if match:
                    above = lines[number - 2] if number > 1 else ""
                    found.append((f"{path.relative_to(ROOT)}:{number}", match.group("rest"), above))
    return found


def test_every_type_ignore_names_its_code_and_its_reason():
    """The reason after the ignore, or in a comment line just above it."""
    assert _ignores(), "no ignore found: the search is broken"  # the library has a few (numba, SB3, typeshed)
    bad = [
        where
        for where, rest, above in _ignores()
        if not re.fullmatch(r"\[[a-z-]+(, *[a-z-]+)*\].*", rest)
        or not (re.fullmatch(r"\[[a-z-]+(, *[a-z-]+)*\]\s+#\s*\S.*", rest) or above.strip().startswith("#"))
    ]
    assert not bad, f"a type: ignore without its [code] and a reason: {bad}"
    silenced = [
        str(p.relative_to(ROOT))
        for folder in LIBRARY
        for p in sorted((ROOT / folder).rglob("*.py"))
        if re.search(r"#\s*mypy:\s*ignore-errors", p.read_text())
    ]
    assert not silenced, f"files the type checker is told to ignore: {silenced}"
