"""A source checkout laid out as the installed package, out of links: ``python -m boardgames.layout``.

In a checkout the subpackages of ``boardgames`` are the repository's folders (``envs/`` is
``boardgames.envs``, ``package/`` is ``boardgames`` itself: pyproject.toml's package-dir), a layout that
Python finds only through the finder of an editable install and that static tools (type checkers, editors,
import graphs) do not follow. :func:`lay_out` makes ``build/checkout/boardgames/`` as a wheel would hold
it: a link to each file of the package's own folder and one to the folder of each subpackage, so that a
module added to ``envs/`` is there at once. :func:`write_pth` names that folder in a ``.pth`` file of the
running Python's site-packages, a plain path that Python and static tools alike put on the module search
path: ``boardgames.envs.dorix_v0`` is then the checkout's ``envs/dorix_v0.py``, one module of one name.

``make setup`` runs it after ``pip install -e .``; so do the documentation build (its API source) and the
checkout A/B (:mod:`boardgames.benchmarks.checkout_ab`, for another checkout). It imports nothing of the
package.
"""

from __future__ import annotations

import argparse
import os
import sys
import sysconfig
from pathlib import Path

PACKAGE = "boardgames"
TREE = Path("build") / "checkout"
"""Where ``make setup`` lays the checkout out, relative to the checkout."""
PTH_FILE = "boardgames_checkout.pth"
"""The file of site-packages that names the laid-out folder."""


def checkout_root() -> Path:
    """The checkout this module's file belongs to (its ``pyproject.toml`` beside the package's folder)."""
    return Path(__file__).resolve().parents[1]


def package_dirs(checkout: Path) -> dict[str, Path]:
    """``checkout``'s pyproject.toml package-dir: package name -> its folder (``{"boardgames": .../package,
    "boardgames.envs": .../envs, ...}``)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib

    settings = tomllib.loads((checkout / "pyproject.toml").read_text())
    return {name: checkout / folder for name, folder in settings["tool"]["setuptools"]["package-dir"].items()}


def wanted_links(checkout: Path) -> dict[str, Path]:
    """Name inside the laid-out ``boardgames/`` -> what it links to: the files of the package's own folder,
    then the folder of every subpackage."""
    dirs = package_dirs(checkout)
    links = {item.name: item for item in sorted(dirs[PACKAGE].iterdir()) if item.name != "__pycache__"}
    for name, folder in dirs.items():
        if name.startswith(PACKAGE + "."):
            links[name.removeprefix(PACKAGE + ".")] = folder
    return links


def _link(path: Path, target: Path) -> None:
    """``path`` a relative link to ``target``, replacing the link or file that was there."""
    relative = os.path.relpath(target.resolve(), path.parent.resolve())
    if path.is_symlink() and os.readlink(path) == relative:
        return
    if path.is_symlink() or path.is_file():
        path.unlink()
    path.symlink_to(relative, target_is_directory=target.is_dir())


def lay_out(checkout: Path, into: Path) -> Path:
    """Make (or bring up to date) ``into/boardgames`` as the installed package of ``checkout``; returns
    ``into``. Links (and files) no longer wanted go; those kept stay in place, so a process importing from
    ``into`` meanwhile finds every module."""
    package = into / PACKAGE
    package.mkdir(parents=True, exist_ok=True)
    links = wanted_links(checkout)
    for item in package.iterdir():
        if (item.is_symlink() or item.is_file()) and item.name not in links:
            item.unlink()
    for name, target in links.items():
        _link(package / name, target)
    return into


def write_pth(folder: Path, site_packages: Path | None = None) -> Path:
    """Name ``folder`` in :data:`PTH_FILE` of ``site_packages`` (the running Python's by default); returns
    the file."""
    site_packages = Path(sysconfig.get_paths()["purelib"]) if site_packages is None else site_packages
    pth = site_packages / PTH_FILE
    pth.write_text(f"{folder.resolve()}\n")
    return pth


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(prog="python -m boardgames.layout", description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=None, help="the checkout (default: this module's)")
    parser.add_argument("--into", type=Path, default=None, help=f"where to lay it out (default: <checkout>/{TREE})")
    parser.add_argument("--no-pth", action="store_true", help=f"lay it out only, write no {PTH_FILE}")
    args = parser.parse_args(argv)
    checkout = checkout_root() if args.checkout is None else args.checkout
    if not (checkout / "pyproject.toml").is_file():
        parser.error(f"{checkout} is no source checkout (no pyproject.toml): an installed package needs no layout")
    folder = lay_out(checkout, checkout / TREE if args.into is None else args.into)
    if not args.no_pth:
        write_pth(folder)
    return folder


if __name__ == "__main__":
    main()
