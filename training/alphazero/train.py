"""The AlphaZero training loop: self-play with the compiled search, a replay buffer, a torch learner,
checkpoints every iteration, TensorBoard, the progress with the current Elo against the baselines.

The run stands on the run scaffold (:mod:`boardgames.training.run`): :class:`AlphaZeroRun` is the family's
trainer (``advance``: one iteration and its strength measurement; ``checkpoint``: the state to save;
``load_checkpoint``), driven by the scaffold's loop, with its run folder, strength hook and progress (a bar on a
terminal, a plain line every 30 seconds otherwise).

One iteration = ``games_per_iteration`` self-play games (:mod:`boardgames.training.alphazero.selfplay`) added to
the buffer, then ``train_steps`` gradient steps (:mod:`boardgames.training.alphazero.learner`). Every
``eval_every`` iterations the current network plays ``eval_games`` games (PUCT with
``eval_simulations`` simulations, no noise) against each of ``eval_opponents``; a Bradley-Terry fit over
those games gives its Elo with random = 0, shown on the progress bar (with the iteration it was measured at; a
second bar counts the measuring games), logged to TensorBoard and appended to ``<run>/strength.csv``.
With ``--actors N`` the self-play games come from Ray actors (:mod:`boardgames.training.alphazero.actors`);
``alphazero.device`` puts the network, the learner and this process's leaf evaluation on a device.
A fresh run starts from an untrained network, from a teacher's games (``alphazero.teacher``), or from the
weights of a trained one (``alphazero.start_from``: an agent folder such as ``models/dorix_2p_az``, to train
a shipped agent further with a new optimizer and buffer).

Files of a run folder: ``checkpoint.pt`` (network, optimizer, iteration, random state, settings,
history, the commands that built it), ``buffer.npz`` (the replay buffer), ``games.npz`` (the self-play
games in flight), ``checkpoint.json`` (the manifest of those three: the iteration, each file's size and
sha256), ``latest/`` (the network as an agent: ``models/...``-style folder usable as an agent spec),
``tb/`` (TensorBoard), ``strength.csv``, ``run.json`` (the command, the settings really used, wall time and its
split between self-play, learning and measuring, the iteration of the network whose Elo it gives).
``resume=True`` (``--resume``) continues from the checkpoint up to ``iterations``.

Durable runs (:mod:`boardgames.training.storage.durable`): every file is written to a temporary name, fsynced and
renamed into place, so a kill at any moment leaves complete files. The checkpoint is one set: its three files
are written under temporary names, then the manifest, then the files are renamed, so the manifest always
describes a consistent checkpoint (a resume finishes the renames a kill interrupted). Resuming checks
every file of the set against the manifest and refuses with a message naming a missing or damaged file;
it restores the network, the optimizer, the random state, the buffer and the games in flight exactly, so
a resumed run plays and learns as the uninterrupted one would have (the same files, bit for bit, with the
same seed and threads); it rewrites ``latest/`` from the checkpoint, drops the ``strength.csv`` rows of
iterations past the checkpoint (measured again as the run goes on, so none is doubled), and keeps the
wall time and the commands of the processes that built the checkpoint in ``run.json``.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import shutil
import time
import zipfile
from pathlib import Path

import numpy as np
import torch

from boardgames.envs.core.game import Game
from boardgames.envs.registry import make_game
from boardgames.training.alphazero.agent import AlphaZeroAgent
from boardgames.training.alphazero.buffer import ReplayBuffer
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.learner import Learner, resolve_device
from boardgames.training.alphazero.network import CONFIG, WEIGHTS, AlphaZeroNet, load_network, save_network
from boardgames.training.alphazero.selfplay import SearchSettings, SelfPlayer
from boardgames.training.alphazero.settings import NETWORK_KEYS, AlphaZeroSettings, make_settings
from boardgames.training.evaluation.evaluate import fit_elo
from boardgames.training.evaluation.strength import StrengthMeter, replace_rows_from
from boardgames.training.progress import Progress
from boardgames.training.run.folder import RunFolder, command_line, commands_so_far
from boardgames.training.run.loop import train_until
from boardgames.training.settings import SettingError, check_count, config_section
from boardgames.training.storage.durable import (
    CheckpointError,
    commit_set,
    fault_point,
    fsync_dir,
    fsync_file,
    open_set,
    replace_folder,
    sha256_of,
)
from boardgames.training.storage.model_version import version_record
from boardgames.training.torch_threads import use_torch_threads

CHECKPOINT = "checkpoint.pt"
BUFFER = "buffer.npz"
GAMES = "games.npz"
MANIFEST = "checkpoint.json"
LATEST = "latest"
SET_FILES = (CHECKPOINT, BUFFER, GAMES)
"""The files a checkpoint set may list (its manifest names no other)."""
MAX_SEED = 2**32 - 1
MAX_BUFFER_BYTES = 64 * 2**30
"""The most memory the replay buffer may take (its arrays are sized for ``alphazero.buffer`` samples)."""
# what torch.load and np.load raise on a file that is not what it should be
_UNREADABLE = (
    pickle.UnpicklingError,
    RuntimeError,
    EOFError,
    zipfile.BadZipFile,
    OSError,
    ValueError,
    KeyError,
    TypeError,
    AttributeError,
    IndexError,
)
STRENGTH_FIELDS = ["iteration", "opponent", "games", "wins", "draws", "losses", "score", "elo"]
TIME_PHASES = {
    "warm_start": "warm start",
    "selfplay": "self-play",
    "learning": "learning",
    "measuring": "measuring strength (evaluation)",
}
"""Where a run's time goes (``run.json``'s ``time_split_seconds``): the teacher's games and steps, the self-play
games, the gradient steps, and the games that measure the network's strength (the evaluation)."""


def load_settings(game_name: str, options: dict, sets: dict | None = None) -> AlphaZeroSettings:
    """The run's settings: the game's ``[alphazero]`` config section, then ``sets``."""
    section = config_section(game_name, options, "alphazero")
    section.update(sets or {})
    return make_settings(section)


def measure_strength(game: Game, net: torch.nn.Module, settings: AlphaZeroSettings, seed: int, progress=None) -> tuple:
    """``(elo, rows)``: games of the network (the run's own, given directly: nothing is loaded) against every
    evaluation opponent, with the shared strength hook, and the Elo fit (``progress()``, when given, is called
    after every game)."""
    agent = AlphaZeroAgent(
        game,
        copy.deepcopy(net).eval(),
        settings.eval_simulations,
        settings.c,
        "alphazero",
        rule=settings.rule,
        gamma=settings.gamma,
        temperature=settings.play_temperature if settings.rule != "puct" else 1.0,
    )
    meter = StrengthMeter(game, settings.eval_opponents, settings.eval_games, seed)
    results = list(meter.play(agent, lambda i: seed + 100 * i, "alphazero", progress).values())
    rows = []
    for spec, r in zip(settings.eval_opponents, results):
        rows.append(
            {
                "opponent": spec,
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "score": round(r.score, 4),
            }
        )
    names = ["alphazero", *settings.eval_opponents]
    elo = fit_elo(names, results, anchor="random" if "random" in names else None)
    for row in rows:
        row["elo"] = round(elo["alphazero"] - elo[row["opponent"]], 1)
    return elo["alphazero"], rows


class AlphaZeroRun:
    """One training run in ``run_dir`` (see the module docstring)."""

    def __init__(self, game_name: str, options: dict, settings: AlphaZeroSettings, run_dir: str | Path, seed: int = 0):
        self.game_name, self.options = game_name, dict(options)
        self.game = make_game(game_name, **self.options)
        self.settings = settings
        self.run_dir = Path(run_dir)
        self.folder = RunFolder(self.run_dir)
        self.seed = check_count("--seed", int(seed) if isinstance(seed, np.integer) else seed, 0, MAX_SEED)
        info = self.game.info
        per_sample = 2 * int(np.prod(info.observation_shape)) + 8 * min(settings.simulations + 1, info.num_actions)
        per_sample += 4 * info.num_seats
        if settings.buffer * per_sample > MAX_BUFFER_BYTES:
            most, gib = MAX_BUFFER_BYTES // per_sample, settings.buffer * per_sample / 2**30
            raise SettingError(
                f"alphazero.buffer={settings.buffer} would take {gib:.0f} GiB for {game_name} "
                f"({per_sample} bytes a sample); its range here is 1..{most}"
            )
        use_torch_threads(settings.threads)
        torch.manual_seed(self.seed)
        self.device = resolve_device(settings.device)  # the learner's and the leaf evaluation's (SettingError)
        self.net = AlphaZeroNet(info.observation_shape, info.num_actions, info.num_seats, **settings.network_kwargs())
        self.net.to(self.device).eval()
        self.learner = Learner(self.net, settings.learning_rate, settings.weight_decay, settings.batch_size)
        self.buffer = ReplayBuffer(
            settings.buffer, info.observation_shape, info.num_actions, info.num_seats, width=settings.simulations + 1
        )
        self.evaluator = NetworkEvaluator(self.game, self.net)
        self.rng = np.random.default_rng(self.seed)
        self.player: SelfPlayer | None = None
        self.actors = None  # the Ray self-play actors, when they play (training/alphazero/actors.py)
        self.iteration = 0
        self.history: list[dict] = []  # one row per iteration
        self.elo: float | None = None
        self.elo_iteration: int | None = None  # the iteration of the network whose Elo ``elo`` is (0: untrained)
        self.seconds = 0.0
        self.timing = dict.fromkeys(TIME_PHASES, 0.0)  # the run's seconds by phase (all its processes)
        self.spent = dict.fromkeys(TIME_PHASES, 0.0)  # the same, in this process only
        self.teacher: dict | None = None  # what the warm start did (training/alphazero/teacher.py), once done
        self.started_from: dict | None = None  # the trained network the run started from, once loaded
        self._commands_before: list | None = None  # the commands of the processes before this one
        self.command: str | None = None  # this process's command (set by run())
        self._loop: tuple | None = None  # what the loop's units report to while run() runs

    # files ------------------------------------------------------------------------------------------
    def _new_player(self) -> SelfPlayer:
        s = self.settings
        return SelfPlayer(self.game, self.evaluator, s.parallel, SearchSettings.of(s))

    def _commands(self) -> list:
        """The commands that built the run so far: the earlier processes', then this one's."""
        return commands_so_far(self._commands_before, self.command or _command_of(None))

    def save_checkpoint(self) -> None:
        """Write the checkpoint set (network and everything else in ``checkpoint.pt``, the buffer, the
        games in flight, then the manifest; see the module docstring), then ``latest/``."""
        state = {
            "net": self.net.state_dict(),
            "optimizer": self.learner.optimizer.state_dict(),
            "iteration": self.iteration,
            "rng": json.dumps(self.rng.bit_generator.state),
            "torch_rng": torch.get_rng_state(),
            "settings": json.dumps(self.settings.as_dict()),
            "history": json.dumps(self.history),
            "elo": self.elo,
            "elo_iteration": self.elo_iteration,
            "seconds": self.seconds,
            "timing": json.dumps(self.timing),
            "teacher": json.dumps(self.teacher),
            "started_from": json.dumps(self.started_from),
            "game": self.game_name,
            "options": json.dumps(self.options),
            "commands": json.dumps(self._commands()),
        }
        writers = {CHECKPOINT: lambda f: torch.save(state, f), BUFFER: self.buffer.save}
        if self.player is not None:
            writers[GAMES] = self.player.save
        info = {"iteration": self.iteration, "samples_added": self.buffer.added, "seconds": round(self.seconds, 3)}
        commit_set(self.run_dir, MANIFEST, writers, info)
        self.save_latest()

    def save_latest(self) -> Path:
        """``latest/``: the current network as an agent folder, swapped in whole (never half written)."""
        return replace_folder(self.run_dir / LATEST, self._write_model)

    def _write_model(self, folder: Path) -> Path:
        return save_network(
            self.net if self.device.type == "cpu" else copy.deepcopy(self.net).cpu(),
            folder,
            game=self.game_name,
            options=self.options,
            **version_record(self.game),
            simulations=self.settings.play_simulations,
            c=self.settings.c,
            **(self._mixed_play() if self.settings.rule != "puct" else {}),
            iterations=self.iteration,
            elo_vs_random=self.elo,
            elo_iteration=self.elo_iteration,
            trained_on_device=str(self.device),
        )

    def _mixed_play(self) -> dict:
        """What a model trained with a simultaneous rule records of how it plays (the agent reads it back)."""
        s = self.settings
        return {"rule": s.rule, "gamma": s.gamma, "temperature": s.play_temperature}

    def save_model(self, folder: str | Path) -> Path:
        """The current network as an agent folder (``alphazero.pt`` + ``alphazero.json``), each file
        replaced durably (the weights first, the configuration last); the folder's other files stay."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        staging = folder.parent / f"{folder.name}.tmp-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            self._write_model(staging)
            for name in (WEIGHTS, CONFIG):
                fsync_file(staging / name)
                fault_point(f"before {folder.name}/{name}")
                os.replace(staging / name, folder / name)
                fault_point(f"after {folder.name}/{name}")
            fsync_dir(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return folder

    def has_checkpoint(self) -> bool:
        """Whether the run folder holds a checkpoint to resume (its manifest, or an older version's
        ``checkpoint.pt``)."""
        return (self.run_dir / MANIFEST).is_file() or (self.run_dir / CHECKPOINT).is_file()

    def load_checkpoint(self) -> None:
        """Resume from the run folder's checkpoint (see the module docstring): SettingError when there is
        none or it belongs to another game or network, CheckpointError naming a missing or damaged file."""
        path = self.run_dir / CHECKPOINT
        if not self.has_checkpoint():
            raise SettingError(f"no checkpoint to resume in {self.run_dir} (expected {path})")
        self.folder.refuse_links_out()
        files = open_set(self.run_dir, MANIFEST, SET_FILES)["files"] if (self.run_dir / MANIFEST).is_file() else None
        try:
            state = torch.load(path, map_location="cpu", weights_only=True)
            game, options = state["game"], json.loads(state["options"])
            saved = json.loads(state["settings"])
        except _UNREADABLE as e:
            raise CheckpointError(f"{path}: not a readable checkpoint ({type(e).__name__}: {e})") from None
        if game != self.game_name or options != self.options:
            raise SettingError(f"{path} is a run of {game} {options}, not {self.game_name} {self.options}")
        changed = [k for k in NETWORK_KEYS if saved.get(k) != getattr(self.settings, k)]
        if changed:
            raise SettingError(
                f"the network cannot change on resume: {', '.join(f'{k}={saved.get(k)!r}' for k in changed)} in {path}"
            )
        try:
            self.net.load_state_dict(state["net"])
            self.learner.optimizer.load_state_dict(state["optimizer"])
            iteration = int(state["iteration"])
            rng_state = json.loads(state["rng"])
            torch_rng = state["torch_rng"]
            history, elo, seconds = json.loads(state["history"]), state["elo"], float(state["seconds"])
            teacher = json.loads(state.get("teacher", "null"))
            started_from = json.loads(state.get("started_from", "null"))
            elo_iteration = state.get("elo_iteration")
            timing = json.loads(state.get("timing", "null")) or {}
            commands = json.loads(state["commands"]) if "commands" in state else None
            self.rng.bit_generator.state = rng_state
            torch.set_rng_state(torch_rng)
        except _UNREADABLE as e:
            raise CheckpointError(f"{path}: not a checkpoint of this network ({type(e).__name__}: {e})") from None
        for group in self.learner.optimizer.param_groups:  # new learning settings apply
            group["lr"], group["weight_decay"] = self.settings.learning_rate, self.settings.weight_decay
        self.iteration, self.history, self.elo, self.seconds, self.teacher = iteration, history, elo, seconds, teacher
        self.elo_iteration, self.started_from = elo_iteration, started_from
        self.timing = {phase: float(timing.get(phase, 0.0)) for phase in TIME_PHASES}
        if files is None or BUFFER in files:
            if (self.run_dir / BUFFER).is_file():
                self._load_part(BUFFER, self.buffer.load)
        if files is not None and GAMES in files:
            self.player = self._new_player()
            self._load_part(GAMES, self.player.load)
        if commands is None:  # an older version's checkpoint: the commands its run.json lists
            commands = self.folder.previous_record().get("commands", [])
        self._commands_before = list(commands) if isinstance(commands, list) else []
        self.net.eval()
        # the files around the checkpoint: what a kill left half done
        self.folder.clear_leftovers()
        self.folder.recover(LATEST)
        self.save_latest()
        self.folder.keep_strength(STRENGTH_FIELDS, "iteration", iteration)

    def _load_part(self, name: str, load) -> None:
        try:
            load(self.run_dir / name)
        except _UNREADABLE as e:
            raise CheckpointError(f"{self.run_dir / name}: cannot be resumed ({type(e).__name__}: {e})") from None

    # the loop ---------------------------------------------------------------------------------------
    def start_from_network(self, folder: str) -> dict:
        """Load the weights of a trained network (``alphazero.start_from``: an AlphaZero agent folder of this
        game, its options and network sizes) into this fresh run's network; what was loaded. SettingError
        naming what differs, ModelFileError (a ``ValueError``) for a folder that is not such a network."""
        net, meta = load_network(folder)
        if meta.get("game") != self.game_name or meta.get("options", {}) != self.options:
            raise SettingError(
                f"alphazero.start_from={folder!r} is a network of {meta.get('game')} {meta.get('options', {})}, "
                f"not {self.game_name} {self.options}"
            )
        differ = [f"{k}={net.config.get(k)!r}" for k in self.net.config if net.config.get(k) != self.net.config[k]]
        if differ:
            raise SettingError(
                f"alphazero.start_from={folder!r} has another network ({', '.join(differ)}): set the same sizes "
                f"(alphazero.{', alphazero.'.join(NETWORK_KEYS)}) as that folder's {CONFIG}"
            )
        self.net.load_state_dict(net.state_dict())
        self.started_from = {
            "folder": str(folder),
            "iterations": meta.get("iterations"),
            "weights_sha256": sha256_of(Path(folder) / WEIGHTS),
        }
        return self.started_from

    def learn_from_teacher(self) -> dict:
        """The warm start: the teacher's games into the buffer, then ``teacher_steps`` gradient steps on
        them (see :mod:`boardgames.training.alphazero.teacher`); what it did."""
        from boardgames.training.alphazero.teacher import play_teacher_games

        s = self.settings
        samples = play_teacher_games(self.game, s.teacher, s.teacher_games, seed=self.seed + 104729)
        self.buffer.add(samples.obs, samples.policies, samples.values)
        started = time.perf_counter()
        losses = self.learner.train(self.buffer, s.teacher_steps, self.rng) if s.teacher_steps else {}
        self.teacher = {
            "teacher": s.teacher,
            "games": samples.games,
            "samples": int(samples.obs.shape[0]),
            "play_s": round(samples.seconds, 1),
            "learn_s": round(time.perf_counter() - started, 1),
            **{k: round(v, 4) for k, v in losses.items()},
        }
        self._spend("warm_start", samples.seconds + self.teacher["learn_s"])
        return self.teacher

    def _spend(self, phase: str, seconds: float) -> None:
        """Count ``seconds`` of work in ``phase`` (one of :data:`TIME_PHASES`) to the run's wall time."""
        self.timing[phase] += seconds
        self.spent[phase] += seconds
        self.seconds += seconds

    def use_actors(self, actors) -> None:
        """Self-play in Ray actors from now on (:mod:`boardgames.training.alphazero.actors`); this process's
        games in flight, if a checkpoint had some, are dropped."""
        self.actors, self.player = actors, None

    def iterate(self) -> dict:
        """One self-play + learning iteration; its row of figures."""
        s = self.settings
        if self.actors is not None:  # the actors' games; the next ones are asked for before the learner trains
            if self.actors.pending is None:  # none asked for yet: they get the network as it is now (warm start)
                self.actors.publish(self.net)
            batch = self.actors.play(s.games_per_iteration, ahead=self.iteration + 1 < s.iterations)
        else:
            if self.player is None:  # kept between iterations (and in the checkpoint): the games running go on
                self.player = self._new_player()
            batch = self.player.play(s.games_per_iteration, self.rng)
        self.buffer.add(batch.obs, batch.policies, batch.values)
        started = time.perf_counter()
        steps = s.train_steps if len(self.buffer) >= s.learn_after else 0  # alphazero.learn_after
        losses = self.learner.train(self.buffer, steps, self.rng) if steps else {}
        if self.actors is not None:
            self.actors.publish(self.net)
        self.iteration += 1
        row = {
            "iteration": self.iteration,
            "games": batch.games,
            "decisions": batch.decisions,
            "samples": int(batch.obs.shape[0]),
            "buffer": len(self.buffer),
            "selfplay_s": round(batch.seconds, 2),
            "learn_s": round(time.perf_counter() - started, 2),
            "mean_length": round(float(np.mean(batch.lengths)), 1),
            "outcomes": batch.outcomes,
            **{k: round(v, 4) for k, v in losses.items()},
        }
        return row

    def run(self, progress: bool = True, log=print, argv: list | None = None) -> None:
        """Iterate up to ``settings.iterations`` (the scaffold's loop, :func:`~boardgames.training.run.loop.
        train_until`): a checkpoint and ``run.json`` (``argv``: this command's arguments, as
        :meth:`write_run_json` takes them) after every iteration, so a run stopped by hand leaves a complete
        folder; without ``progress``, a line per iteration to ``log``."""
        from torch.utils.tensorboard import SummaryWriter

        s = self.settings
        self.command = _command_of(argv)
        self.folder.clear_leftovers()  # what killed processes left (after load_checkpoint's renames, if any)
        writer = SummaryWriter(str(self.run_dir / "tb"), purge_step=self.iteration or None)
        bar = Progress(s.iterations, "it", f"alphazero {self.game_name}", initial=self.iteration, enabled=progress)
        self._loop = (writer, bar, log, argv)
        try:
            self._warm_start(bar, argv)
            if self.iteration == 0 and s.eval_every:
                self._measure(writer, bar, log)
            report = None if progress else (lambda text, _: log(f"iteration {self.iteration}/{s.iterations}: {text}"))
            train_until(self, s.iterations, bar, report)
        finally:
            self._loop = None
            bar.close()
            writer.close()

    def _warm_start(self, bar: Progress, argv: list | None) -> None:
        """Before the first iteration: the weights of ``alphazero.start_from``, the teacher's games and steps."""
        s = self.settings
        if self.iteration == 0 and s.start_from and self.started_from is None:
            f = self.start_from_network(s.start_from)
            bar.write(f"starting from the network of {f['folder']} ({f['iterations']} iterations)")
        if self.iteration == 0 and s.teacher and self.teacher is None:
            t = self.learn_from_teacher()
            bar.write(
                f"teacher {t['teacher']}: {t['games']} games, {t['samples']} samples ({t['play_s']} s), "
                f"{s.teacher_steps} steps ({t['learn_s']} s): loss π {t.get('policy_loss', 0):.2f} "
                f"v {t.get('value_loss', 0):.2f}"
            )
            self.save_checkpoint()
            self.write_run_json(argv)

    def advance(self) -> str:
        """One iteration in the scaffold's loop (:meth:`run`): self-play and learning, logged, its time counted,
        the strength measured when due; the progress text after it."""
        assert self._loop is not None, "advance() runs inside run()"
        writer, bar, log, _ = self._loop
        started = time.perf_counter()
        row = self.iterate()
        self.history.append(row)
        self._log(writer, row)
        self._spend("learning", row["learn_s"])
        self._spend("selfplay", max(time.perf_counter() - started - row["learn_s"], 0.0))
        every = self.settings.eval_every
        if every and self.iteration % every == 0:
            self._measure(writer, bar, log)
        return self._postfix(row)

    def checkpoint(self) -> None:
        """The state to save, in the scaffold's loop: the checkpoint set, ``latest/`` and ``run.json``."""
        self.save_checkpoint()
        self.write_run_json(self._loop[3] if self._loop is not None else None)

    def _postfix(self, row: dict) -> str:
        elo = f"elo {self.elo:+.0f} (it. {self.elo_iteration}) · " if self.elo is not None else ""
        loss = (
            f"loss π {row.get('policy_loss', 0):.2f} v {row.get('value_loss', 0):.2f} · "
            if "policy_loss" in row
            else ""
        )
        return f"{elo}{loss}{row['games'] / max(row['selfplay_s'], 1e-9):.1f} games/s"

    def _log(self, writer, row: dict) -> None:
        i = self.iteration
        for key in ("policy_loss", "value_loss", "target_entropy", "mean_length"):
            if key in row:
                writer.add_scalar(f"alphazero/{key}", row[key], i)
        writer.add_scalar("speed/selfplay_decisions_per_s", row["decisions"] / max(row["selfplay_s"], 1e-9), i)
        writer.add_scalar("speed/selfplay_games_per_s", row["games"] / max(row["selfplay_s"], 1e-9), i)
        for outcome, count in row["outcomes"].items():
            writer.add_scalar(f"selfplay/{outcome.replace(' ', '_')}", count / max(row["games"], 1), i)

    def network_name(self, iteration: int | None = None) -> str:
        """How the summaries name the network of ``iteration`` (the current one by default)."""
        iteration = self.iteration if iteration is None else iteration
        if iteration == 0:
            if self.teacher is not None:
                return "the network of the warm start"
            if self.started_from is not None:
                return f"the network of iteration 0 ({self.started_from['folder']}'s)"
            return "the network of iteration 0 (untrained)"
        return f"the network of iteration {iteration}"

    def summary(self, wall_seconds: float, first_iteration: int = 0) -> list:
        """The lines a finished command ends with: its wall time (``wall_seconds``) and where it went, the
        iterations it ran (from ``first_iteration``, where it started), and which network the Elo shown is of."""
        done = self.iteration - first_iteration
        ran = (
            f"iterations {first_iteration + 1}..{self.iteration}" if done and first_iteration else f"{done} iterations"
        )
        shown = [p for p in TIME_PHASES if p != "warm_start" or self.spent[p] > 0]
        parts = [f"{TIME_PHASES[p]} {_duration(self.spent[p])}" for p in shown]
        parts.append(f"set-up, checkpoints and logs {_duration(max(wall_seconds - sum(self.spent.values()), 0.0))}")
        lines = [f"{ran} in {_duration(wall_seconds)} (after the imports): " + ", ".join(parts)]
        every = self.settings.eval_every
        if self.elo is None:
            lines.append(f"Elo not measured (alphazero.eval_every={every})")
            return lines
        of = self.network_name(self.elo_iteration) if self.elo_iteration is not None else "an earlier network"
        elo = f"Elo of {of}: {self.elo:+.0f} (random = 0)"
        if self.elo_iteration != self.iteration:
            elo += (
                f"; the latest network (iteration {self.iteration}) was not measured: alphazero.eval_every={every} "
                f"measures every {every} iterations"
            )
        lines.append(elo)
        return lines

    def _measure(self, writer, bar: Progress, log) -> None:
        from tqdm import tqdm

        s = self.settings
        started = time.perf_counter()
        games = s.eval_games * len(s.eval_opponents)
        bar.write(
            f"measuring {self.network_name()}: {s.eval_games} games against each of {', '.join(s.eval_opponents)} "
            f"({s.eval_simulations} simulations a move)"
        )
        games_bar = tqdm(
            total=games,
            desc=f"measuring iteration {self.iteration}",
            unit="game",
            leave=False,
            disable=not bar.draws_a_bar,
        )
        try:
            self.elo, rows = measure_strength(
                self.game, self.net, s, seed=self.seed + 7919 * self.iteration, progress=lambda: games_bar.update(1)
            )
        finally:
            games_bar.close()
        self.elo_iteration = self.iteration
        self._spend("measuring", time.perf_counter() - started)
        writer.add_scalar("strength/elo_vs_random", self.elo, self.iteration)
        for r in rows:
            writer.add_scalar(f"strength/score_vs_{r['opponent']}", r["score"], self.iteration)
        rows = [{"iteration": self.iteration, **r} for r in rows]  # rows of this iteration or later replaced
        replace_rows_from(self.folder.strength_path, STRENGTH_FIELDS, "iteration", self.iteration, rows)
        summary = " · ".join(f"{r['opponent']} {r['score']:.0%}" for r in rows)
        bar.write(
            f"iteration {self.iteration}: elo {self.elo:+.0f} (random = 0); score vs {summary} "
            f"({time.perf_counter() - started:.0f} s)"
        )

    def write_run_json(self, argv: list | None = None) -> None:
        """``run.json`` (written durably): the command, every command that built the run, the settings
        really used, the iteration, the wall time of the work the run holds."""
        command = _command_of(argv)
        self.command = self.command or command
        info = {
            "command": command,
            "commands": self._commands(),  # the first run, then each --resume
            "game": self.game_name,
            "options": self.options,
            "seed": self.seed,
            "settings": self.settings.as_dict(),
            "iterations": self.iteration,
            "samples_added": self.buffer.added,
            "wall_seconds": round(self.seconds, 1),
            "elo_vs_random": self.elo,
            "elo_iteration": self.elo_iteration,
            "time_split_seconds": {phase: round(seconds, 3) for phase, seconds in self.timing.items()},
            "teacher": self.teacher,
            "started_from": self.started_from,
            "torch_threads": torch.get_num_threads(),
            "device": str(self.device),
            "actors": self.actors.describe() if self.actors is not None else None,
        }
        self.folder.write_record(info)


def _duration(seconds: float) -> str:
    """``42 s`` under two minutes, ``129 s (2.2 min)`` from there."""
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds:.0f} s ({seconds / 60:.1f} min)"


def _command_of(argv: list | None) -> str:
    """The command line of ``boardgames alphazero`` with ``argv`` (this process's by default)."""
    return command_line(["python", "-m", "boardgames.training.alphazero"], argv)
