"""Where the shipped models live and which folders of it are models (shared by the agents' loader and
the AlphaZero agent's spec parser, without either importing the other)."""

from __future__ import annotations

from pathlib import Path

SHIPPED_MODELS = Path(__file__).resolve().parent.parent / "models"
"""The ``models/`` folder beside ``training/`` (package data after a plain ``pip install``)."""


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


def _shipped(spec: str | Path) -> Path | None:
    """The shipped folder that ``models/<name>`` or ``<name>`` names, if any."""
    text = str(spec).replace("\\", "/").rstrip("/")
    name = text[len("models/"):] if text.startswith("models/") else text
    return shipped_models().get(name) if name and "/" not in name else None


