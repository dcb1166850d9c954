"""MkDocs hooks of the documentation site (``mkdocs.yml`` names this file under ``hooks``).

* :func:`on_config` lays out the source tree mkdocstrings reads the API from: the package is one import
  name, ``boardgames``, whose subpackages are the repository's folders (setuptools' package-dir mapping,
  which griffe's static loader does not follow); ``build/docs-api/boardgames/`` holds links to
  ``package/``'s own modules and to those folders (:func:`boardgames.layout.lay_out`);
* :func:`on_config` also writes the package's version (``boardgames.__version__``) into the footer of
  every page (``copyright``), so that the version is written in one place only;
* :func:`on_files` adds the pages made at build time (``docs/site_pages.py``: the README's sections, one
  page per environment, the environments gallery, the API reference, the changelog) and the gallery's
  pictures drawn at build time;
* :func:`on_page_markdown` reads the pipes that GitHub's tables escape inside code as Python-Markdown
  does (``site_pages.table_code_pipes``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[1]
API_SOURCE = ROOT / "build" / "docs-api"
"""The folder mkdocstrings searches (``paths`` in ``mkdocs.yml``)."""

__all__ = ["on_config", "on_files", "on_page_markdown"]  # the events MkDocs calls


def _load_site_pages():
    """``docs/site_pages.py``, loaded by path (``docs/`` is no package)."""
    spec = importlib.util.spec_from_file_location("boardgames_site_pages", ROOT / "docs" / "site_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site_pages = _load_site_pages()


def stage_api_source(target: Path = API_SOURCE) -> Path:
    """Lay out ``target/boardgames`` as the installed package is laid out; returns ``target``."""
    from boardgames.layout import lay_out

    return lay_out(ROOT, target)


def footer(version: str, licence: str) -> str:
    """The footer line of every page (MkDocs' ``copyright``): the package's version and licence."""
    return f"boardgame-rl-envs {version} · {licence} licence"


@event_priority(100)  # before mkdocstrings' own on_config, which reads the folder's path
def on_config(config):
    stage_api_source()
    if str(ROOT) not in sys.path:  # the generated pages import the package from the checkout
        sys.path.insert(0, str(ROOT))
    config["copyright"] = footer(site_pages.version(), site_pages.project()["license"])
    return config


def on_files(files, config):
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    for path, text in site_pages.generated_pages().items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            raise PluginError(f"docs/{path} is made at build time (docs/site_pages.py): remove that file")
        files.append(File.generated(config, path, content=text))
    for path, picture in site_pages.generated_pictures().items():
        files.append(File.generated(config, path, content=picture))
    return files


def on_page_markdown(markdown, page, config, files):
    return site_pages.table_code_pipes(markdown)
