"""Durable checkpoints of ``boardgames train`` (Stable-Baselines3 models).

:class:`DurableCheckpoint` replaces SB3's ``CheckpointCallback``, which writes ``model_N_steps.zip`` in
place (a kill during the write leaves a 0-byte zip). Every ``save_freq`` calls it writes the model as a
checkpoint set (:func:`boardgames.training.storage.durable.commit_set`): ``checkpoints/model_N_steps.zip`` under a
temporary name, then its manifest ``checkpoints/model_N_steps.json`` (the zip's size and sha256, the steps, the wall
time so far and the commands that built the run), then the zip under its name; then ``on_saved(N)``
(the trainer rewrites ``run.json`` there). :func:`save_model_set` does the same for ``final.zip`` and
``pretrained.zip``, and :func:`checkpoint_manifest` finds and checks the manifest of a ``--resume`` file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from boardgames.training.storage.durable import CheckpointError, commit_set, open_set


def manifest_of(zip_path: str | Path) -> Path:
    """Where the manifest of the model ``zip_path`` is: ``<stem>.json`` beside it."""
    return Path(zip_path).with_suffix(".json")


def save_model_set(model, path: str | Path, info: dict) -> Path:
    """Save the SB3 ``model`` at ``path`` (a ``.zip``) durably, with its manifest recording ``info``."""
    path = Path(path)
    commit_set(path.parent, manifest_of(path).name, {path.name: model.save}, info)
    return path


def checkpoint_manifest(zip_path: str | Path) -> dict | None:
    """The checked manifest of the model ``zip_path``: None when it has none (a model saved otherwise,
    or by an older version); :class:`~boardgames.training.storage.durable.CheckpointError` naming the file when
    the zip is missing or does not match its manifest, or the manifest is unreadable."""
    zip_path = Path(zip_path)
    manifest = manifest_of(zip_path)
    if not manifest.is_file() or manifest == zip_path:
        return None
    record = open_set(zip_path.parent, manifest.name, [zip_path.name])  # it may list that zip and nothing else
    return record if zip_path.name in record["files"] else None


class DurableCheckpoint(BaseCallback):
    """Every ``save_freq`` calls, the model as ``<folder>/model_<steps>_steps.zip`` with its manifest (see
    the module docstring); ``info(steps)`` gives what the manifest records besides the files, ``on_saved``
    is called with the steps after each checkpoint."""

    def __init__(
        self,
        save_freq: int,
        folder: str | Path,
        info: Callable[[int], dict],
        on_saved: Callable[[int], object] | None = None,
    ):
        super().__init__()
        self.save_freq = int(save_freq)
        self.folder = Path(folder)
        self.info = info
        self.on_saved = on_saved

    def _init_callback(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

    def _on_step(self) -> bool:
        if self.n_calls % self.save_freq == 0:
            self.save()
        return True

    def save(self) -> Path:
        """Write the checkpoint of the current step count now."""
        steps = int(self.num_timesteps)
        info = {"steps": steps, **self.info(steps)}
        path = save_model_set(self.model, self.folder / f"model_{steps}_steps.zip", info)
        if self.on_saved is not None:
            self.on_saved(steps)
        return path


__all__ = ["CheckpointError", "DurableCheckpoint", "checkpoint_manifest", "manifest_of", "save_model_set"]
