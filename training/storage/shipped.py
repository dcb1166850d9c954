"""Where the shipped models live, which folders of it are models, and how a spec names one: the one rule that
the agents of every family (SB3, AlphaZero, RLlib) follow to find a model, without importing each other.

The rule for a model spec (``make_agent``, ``--agents``, ``--opponent``, ``--resume``, ``rllib:<spec>``):

* ``<name>`` or ``models/<name>`` (a trailing ``/`` allowed) where ``<name>`` is a folder of
  :data:`SHIPPED_MODELS` holding a model is **that shipped model**, always: a folder of the same name in the
  working directory is never looked at (an untrusted checkout's ``models/dorix_2p`` does not stand in for
  the shipped one);
* anything else is a path on disk, relative to the working directory unless absolute: to load a folder
  of the working directory that has a shipped model's name, write it as a path, ``./models/dorix_2p``
  (or its absolute path, or the ``.zip`` inside it: ``models/dorix_2p/model.zip``).
"""

from __future__ import annotations

from pathlib import Path

SHIPPED_MODELS = Path(__file__).resolve().parents[2] / "models"
"""The ``models/`` folder beside ``training/`` (package data after a plain ``pip install``)."""

MODEL_FILES = ("*.zip", "alphazero.json", "policy.pt")
"""What makes a folder of :data:`SHIPPED_MODELS` a model: an SB3 ``.zip``, an AlphaZero network or an
exported RLlib policy."""


def shipped_models() -> dict[str, Path]:
    """The shipped models by name (``dorix_2p``, ``dorix_2p_az``...): every folder of
    :data:`SHIPPED_MODELS` with a ``.zip`` (SB3) or an ``alphazero.json`` (AlphaZero network)."""
    if not SHIPPED_MODELS.is_dir():
        return {}
    return {
        d.name: d
        for d in sorted(SHIPPED_MODELS.iterdir())
        if d.is_dir() and (any(d.glob("*.zip")) or (d / "alphazero.json").is_file())
    }


def shipped_name(spec: str | Path) -> str | None:
    """The ``<name>`` of a spec written ``<name>`` or ``models/<name>`` (the form that names a shipped
    model, see the module docstring), else None; whether such a model is shipped is not checked."""
    text = str(spec).replace("\\", "/").rstrip("/")
    name = text[len("models/") :] if text.startswith("models/") else text
    return name if name and "/" not in name and name not in (".", "..") else None


def shipped_folder(spec: str | Path) -> Path | None:
    """The shipped model's folder that ``spec`` names by name (see the module docstring), or None when
    ``spec`` is a path or no shipped model has that name."""
    name = shipped_name(spec)
    if name is None:
        return None
    folder = SHIPPED_MODELS / name
    if folder.is_dir() and any(any(folder.glob(pattern)) for pattern in MODEL_FILES):
        return folder
    return None


def find_model(spec: str | Path) -> Path | None:
    """The file or folder a model spec names (see the module docstring), or None: the shipped folder for
    a shipped model's name, else the path when it (or it with ``.zip``) exists."""
    shipped = shipped_folder(spec)
    if shipped is not None:
        return shipped
    p = Path(spec)
    return p if p.exists() or p.with_suffix(".zip").exists() else None


def resolve_model(spec: str | Path) -> Path:
    """The file or folder a model spec means: the shipped folder for a shipped model's name, else the
    path as written (see the module docstring)."""
    shipped = shipped_folder(spec)
    return shipped if shipped is not None else Path(spec)
