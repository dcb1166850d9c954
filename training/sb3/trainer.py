"""The SB3 family's trainer on the run scaffold (:mod:`boardgames.training.run`): what ``boardgames train``
does once its settings are read (:mod:`boardgames.training.sb3.train`).

SB3 drives its own loop (``learn``: rollouts and updates), so the scaffold's hooks go in as callbacks: the
durable checkpoint (the state to save: the model zip and its manifest, :mod:`.checkpoints`) with ``run.json``
after each, the learner's snapshots for the opponents, the strength hook (:mod:`.strength`) and the progress
(:class:`boardgames.training.progress.Progress`). Loading is :func:`resume_file` then :func:`build_model`.
This module imports torch and Stable-Baselines3: the command's module imports it once its arguments are read.
"""

from __future__ import annotations

from pathlib import Path

import torch
from stable_baselines3.common.callbacks import CallbackList

from boardgames.envs.registry import make_game
from boardgames.training.evaluation.strength import FIELDS
from boardgames.training.progress import Progress
from boardgames.training.run.folder import RunFolder
from boardgames.training.sb3.agent import model_path
from boardgames.training.sb3.algorithms import get_algorithm
from boardgames.training.sb3.checkpoints import DurableCheckpoint, checkpoint_manifest, save_model_set
from boardgames.training.sb3.pretrain import pretrain
from boardgames.training.sb3.selfplay import SnapshotCallback
from boardgames.training.sb3.strength import ProgressCallback, StrengthCallback
from boardgames.training.settings import SettingError, explicit_settings
from boardgames.training.storage.model_version import version_record
from boardgames.training.storage.safe_load import ModelFileError

__all__ = [
    "build_model",
    "get_algorithm",
    "learn",
    "open_run_folder",
    "pretrain_model",
    "resume_file",
    "save_model_set",
    "strength_callback",
    "torch_threads_now",
    "version_of",
]


def resume_file(resume: str | None) -> Path | None:
    """The model file ``--resume`` names (a ``.zip``, or a folder holding one), its manifest checked first (a
    kill may have left the zip under its temporary name: it is put in place); None for a new run."""
    if not resume:
        return None
    if str(resume).endswith(".zip"):
        RunFolder(Path(resume).parent).refuse_links_out()  # nothing in a stranger's folder leads a write out of it
        checkpoint_manifest(resume)
    try:
        return model_path(resume)
    except FileNotFoundError as e:
        raise SettingError(f"--resume: {e}") from None


def open_run_folder(folder: RunFolder, resume: Path | None) -> dict | None:
    """Make the run folder ready: links out refused (resuming), ``checkpoints/`` made, the checkpoint's manifest
    read (a damaged zip refused, naming it), then what killed runs left cleared; the manifest, or None."""
    if resume:
        folder.refuse_links_out()
    (folder.path / "checkpoints").mkdir(parents=True, exist_ok=True)
    manifest = checkpoint_manifest(resume) if resume else None
    folder.clear_leftovers(subfolders=["checkpoints"])
    return manifest


def build_model(algo, env, spec, cfg: dict, run: Path, resume: Path | None, total_steps: int):
    """The model: the checkpoint's on ``--resume`` (with the hyperparameters given for this run; network changes
    refused; weights and plain data only, a checkpoint that needs unpickling refused, saying why), else a new one.
    ``env`` is closed when it cannot be had."""
    try:
        if not resume:
            return algo.build(env, dict(cfg["algo"]), spec.seed, str(run / "tb"))
        try:
            model = algo.load(resume, env=env, settings=explicit_settings(spec.config_file, spec.sets).get("algo"))
        except ModelFileError as e:
            raise SettingError(f"--resume: {e}") from None
        model.tensorboard_log = str(run / "tb")
        if model.num_timesteps >= total_steps:
            raise SettingError(
                f"--resume: {resume} has {model.num_timesteps} steps already and --steps (or "
                f"train.total_steps) is the total to reach: give more than {model.num_timesteps}"
            )
        return model
    except BaseException:
        env.close()
        raise


def strength_callback(spec, counts, opponents, folder: RunFolder, done: int, resumed: bool):
    """The strength hook of the run (None with ``train.eval_every = 0``) against ``opponents`` (agent specs),
    ``strength.csv`` made ready: afresh for a new run, its rows measured past the checkpoint dropped for a
    resumed one (measured from there on)."""
    if not resumed:
        folder.strength_path.unlink(missing_ok=True)  # a new run's curve starts afresh (a resumed one goes on)
    else:
        folder.keep_strength(FIELDS, "steps", done + (counts.eval_every == 0), inclusive=False)
    if counts.eval_every <= 0:
        return None
    return StrengthCallback(
        make_game(spec.game, **spec.game_options),
        counts.eval_every,
        counts.eval_games,
        [opponents] if isinstance(opponents, str) else opponents,
        seed=spec.seed,
        csv_path=folder.strength_path,
    )


def learn(model, spec, counts, opponents, folder: RunFolder, record, done: int, resumed: bool, name: str) -> None:
    """SB3's ``learn`` up to the run's total, with the scaffold's hooks as callbacks: durable checkpoints (and
    ``run.json`` after each), the learner's snapshots for the opponents, the strength hook, the progress."""
    callbacks = [
        DurableCheckpoint(
            max(counts.checkpoint_every // counts.n_envs, 1),
            folder.path / "checkpoints",
            record,
            on_saved=lambda steps: folder.write_record(record(steps), indent=2),
        ),
        SnapshotCallback(counts.snapshot_every),
    ]
    record.strength = strength_callback(spec, counts, opponents, folder, done, resumed)
    if record.strength is not None:
        callbacks.append(record.strength)
    progress = Progress(counts.total_steps, "steps", f"train {name}", initial=done, enabled=spec.progress_bar)
    callbacks.append(ProgressCallback(progress, record.strength))
    remaining = counts.total_steps - done
    try:
        if remaining > 0:
            model.learn(remaining, callback=CallbackList(callbacks), reset_num_timesteps=not resumed, tb_log_name="run")
    finally:
        progress.close()


def torch_threads_now() -> int:
    """The threads torch computes with in this process (``run.json`` records them)."""
    return torch.get_num_threads()


def pretrain_model(model, spec, cfg: dict, run: Path) -> dict:
    """Behaviour cloning before self-play (:mod:`boardgames.training.sb3.pretrain`), saved as ``pretrained.zip``;
    what it did."""
    info = pretrain(model, make_game(spec.game, **spec.game_options), cfg["pretrain"], seed=spec.seed, log=print)
    save_model_set(model, run / "pretrained.zip", {"steps": int(model.num_timesteps), "pretrain": info})
    return info


def version_of(spec) -> dict:
    """The environment version of the run's game, as ``run.json`` and the models record it."""
    return version_record(make_game(spec.game, **spec.game_options))
