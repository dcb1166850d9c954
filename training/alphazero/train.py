"""The AlphaZero training loop: self-play with the compiled search, a replay buffer, a torch learner,
checkpoints every iteration, TensorBoard, a progress bar with the current Elo against the baselines.

One iteration = ``games_per_iteration`` self-play games (:mod:`training.alphazero.selfplay`) added to
the buffer, then ``train_steps`` gradient steps (:mod:`training.alphazero.learner`). Every
``eval_every`` iterations the current network plays ``eval_games`` games (PUCT with
``eval_simulations`` simulations, no noise) against each of ``eval_opponents``; a Bradley-Terry fit over
those games gives its Elo with random = 0, shown on the progress bar, logged to TensorBoard and appended
to ``<run>/strength.csv``.

Files of a run folder: ``checkpoint.pt`` (network, optimizer, iteration, random state, settings,
history), ``buffer.npz``, ``latest/`` (the network as an agent: ``models/...``-style folder usable as an
agent spec), ``tb/`` (TensorBoard), ``strength.csv``, ``run.json`` (the command, the settings really used,
wall time). ``resume=True`` continues from ``checkpoint.pt`` and ``buffer.npz`` up to ``iterations``.
"""

from __future__ import annotations

import copy
import csv
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch

from envs.core.game import Game
from envs.registry import make_game
from training.model_version import version_record
from training.alphazero.agent import AlphaZeroAgent
from training.alphazero.buffer import ReplayBuffer
from training.alphazero.evaluator import NetworkEvaluator
from training.alphazero.learner import Learner
from training.alphazero.network import AlphaZeroNet, save_network
from training.alphazero.selfplay import SearchSettings, SelfPlayer
from training.alphazero.settings import NETWORK_KEYS, AlphaZeroSettings, make_settings
from training.cli import SettingError

CHECKPOINT = "checkpoint.pt"
BUFFER = "buffer.npz"
STRENGTH_FIELDS = ["iteration", "opponent", "games", "wins", "draws", "losses", "score", "elo"]


def load_settings(game_name: str, options: dict, sets: dict | None = None) -> AlphaZeroSettings:
    """The run's settings: the game's ``[alphazero]`` config section, then ``sets``."""
    from training.train import load_config

    section = dict(load_config(game_name, options).get("alphazero", {}))
    section.update(sets or {})
    return make_settings(section)


def measure_strength(game: Game, net: torch.nn.Module, settings: AlphaZeroSettings, seed: int) -> tuple:
    """``(elo, rows)``: games of the network against every evaluation opponent and the Elo fit."""
    from training.agents import make_agent
    from training.evaluate import fit_elo, play_match

    agent = AlphaZeroAgent(game, copy.deepcopy(net).eval(), settings.eval_simulations, settings.c, "alphazero")
    results, rows = [], []
    for i, spec in enumerate(settings.eval_opponents):
        opponent = make_agent(spec, game, seed=seed + 1 + i)
        r = play_match(game, agent, opponent, settings.eval_games, seed=seed + 100 * i, name_a="alphazero", name_b=spec)
        results.append(r)
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
        self.seed = int(seed)
        torch.set_num_threads(settings.threads)
        torch.manual_seed(self.seed)
        info = self.game.info
        self.net = AlphaZeroNet(info.observation_shape, info.num_actions, info.num_seats, **settings.network_kwargs())
        self.net.eval()
        self.learner = Learner(self.net, settings.learning_rate, settings.weight_decay, settings.batch_size)
        self.buffer = ReplayBuffer(
            settings.buffer, info.observation_shape, info.num_actions, info.num_seats, width=settings.simulations + 1
        )
        self.evaluator = NetworkEvaluator(self.game, self.net)
        self.rng = np.random.default_rng(self.seed)
        self.player: SelfPlayer | None = None
        self.iteration = 0
        self.history: list[dict] = []  # one row per iteration
        self.elo: float | None = None
        self.seconds = 0.0
        self.teacher: dict | None = None  # what the warm start did (training/alphazero/teacher.py), once done
        self._commands_before: list | None = None  # run.json's commands of earlier processes (read once)

    # files ------------------------------------------------------------------------------------------
    def save_checkpoint(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        state = {
            "net": self.net.state_dict(),
            "optimizer": self.learner.optimizer.state_dict(),
            "iteration": self.iteration,
            "rng": json.dumps(self.rng.bit_generator.state),
            "torch_rng": torch.get_rng_state(),
            "settings": json.dumps(self.settings.as_dict()),
            "history": json.dumps(self.history),
            "elo": self.elo,
            "seconds": self.seconds,
            "teacher": json.dumps(self.teacher),
            "game": self.game_name,
            "options": json.dumps(self.options),
        }
        tmp = self.run_dir / (CHECKPOINT + ".tmp")
        torch.save(state, tmp)
        self.buffer.save(self.run_dir / "buffer.tmp.npz")
        tmp.replace(self.run_dir / CHECKPOINT)
        (self.run_dir / "buffer.tmp.npz").replace(self.run_dir / BUFFER)
        self.save_model(self.run_dir / "latest")

    def save_model(self, folder: str | Path) -> Path:
        """The current network as an agent folder (``alphazero.pt`` + ``alphazero.json``)."""
        return save_network(
            self.net,
            folder,
            game=self.game_name,
            options=self.options,
            **version_record(self.game),
            simulations=self.settings.play_simulations,
            c=self.settings.c,
            iterations=self.iteration,
            elo_vs_random=self.elo,
        )

    def load_checkpoint(self) -> None:
        path = self.run_dir / CHECKPOINT
        if not path.is_file():
            raise SettingError(f"no checkpoint to resume in {self.run_dir} (expected {path})")
        state = torch.load(path, map_location="cpu", weights_only=True)
        if state["game"] != self.game_name or json.loads(state["options"]) != self.options:
            raise SettingError(
                f"{path} is a run of {state['game']} {state['options']}, not {self.game_name} {self.options}"
            )
        saved = json.loads(state["settings"])
        changed = [k for k in NETWORK_KEYS if saved[k] != getattr(self.settings, k)]
        if changed:
            raise SettingError(
                f"the network cannot change on resume: {', '.join(f'{k}={saved[k]!r}' for k in changed)} in {path}"
            )
        self.net.load_state_dict(state["net"])
        self.learner.optimizer.load_state_dict(state["optimizer"])
        for group in self.learner.optimizer.param_groups:  # new learning settings apply
            group["lr"], group["weight_decay"] = self.settings.learning_rate, self.settings.weight_decay
        self.iteration = int(state["iteration"])
        self.rng.bit_generator.state = json.loads(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        self.history = json.loads(state["history"])
        self.elo = state["elo"]
        self.seconds = float(state["seconds"])
        self.teacher = json.loads(state.get("teacher", "null"))
        if (self.run_dir / BUFFER).is_file():
            self.buffer.load(self.run_dir / BUFFER)
        self.net.eval()

    # the loop ---------------------------------------------------------------------------------------
    def learn_from_teacher(self) -> dict:
        """The warm start: the teacher's games into the buffer, then ``teacher_steps`` gradient steps on
        them (see :mod:`training.alphazero.teacher`); what it did."""
        from training.alphazero.teacher import play_teacher_games

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
        self.seconds += samples.seconds + self.teacher["learn_s"]
        return self.teacher

    def iterate(self) -> dict:
        """One self-play + learning iteration; its row of figures."""
        s = self.settings
        search = SearchSettings(
            s.simulations, s.c, s.noise_alpha, s.noise_fraction, s.temperature_moves, s.gumbel, s.max_considered
        )
        if self.player is None:  # kept between iterations: the games still running go on
            self.player = SelfPlayer(self.game, self.evaluator, s.parallel, search)
        batch = self.player.play(s.games_per_iteration, self.rng)
        self.buffer.add(batch.obs, batch.policies, batch.values)
        started = time.perf_counter()
        losses = self.learner.train(self.buffer, s.train_steps, self.rng) if s.train_steps else {}
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
        """Iterate up to ``settings.iterations``: a checkpoint and ``run.json`` (``argv``: this command's
        arguments, as :meth:`write_run_json` takes them) after every iteration, so a run stopped by hand
        leaves a complete folder."""
        from torch.utils.tensorboard import SummaryWriter
        from tqdm import tqdm

        s = self.settings
        writer = SummaryWriter(str(self.run_dir / "tb"), purge_step=self.iteration or None)
        bar = tqdm(
            total=s.iterations,
            initial=self.iteration,
            desc=f"alphazero {self.game_name}",
            unit="it",
            disable=not progress,
            dynamic_ncols=True,
        )
        try:
            if self.iteration == 0 and s.teacher and self.teacher is None:
                t = self.learn_from_teacher()
                bar.write(
                    f"teacher {t['teacher']}: {t['games']} games, {t['samples']} samples ({t['play_s']} s), "
                    f"{s.teacher_steps} steps ({t['learn_s']} s): loss π {t.get('policy_loss', 0):.2f} "
                    f"v {t.get('value_loss', 0):.2f}"
                )
                self.save_checkpoint()
                self.write_run_json(argv)
            if self.iteration == 0 and s.eval_every:
                self._measure(writer, bar, log)
            while self.iteration < s.iterations:
                started = time.perf_counter()
                row = self.iterate()
                self.history.append(row)
                self._log(writer, row)
                if s.eval_every and self.iteration % s.eval_every == 0:
                    self._measure(writer, bar, log)
                self.seconds += time.perf_counter() - started
                self.save_checkpoint()
                self.write_run_json(argv)
                bar.set_postfix_str(self._postfix(row))
                bar.update(1)
                if not progress:
                    log(f"iteration {self.iteration}/{s.iterations}: {self._postfix(row)}")
        finally:
            bar.close()
            writer.close()

    def _postfix(self, row: dict) -> str:
        elo = f"elo {self.elo:+.0f} · " if self.elo is not None else ""
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

    def _measure(self, writer, bar, log) -> None:
        started = time.perf_counter()
        self.elo, rows = measure_strength(self.game, self.net, self.settings, seed=self.seed + 7919 * self.iteration)
        writer.add_scalar("strength/elo_vs_random", self.elo, self.iteration)
        for r in rows:
            writer.add_scalar(f"strength/score_vs_{r['opponent']}", r["score"], self.iteration)
        path = self.run_dir / "strength.csv"
        self.run_dir.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        with open(path, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=STRENGTH_FIELDS)
            if new:
                w.writeheader()
            for r in rows:
                w.writerow({"iteration": self.iteration, **r})
        summary = " · ".join(f"{r['opponent']} {r['score']:.0%}" for r in rows)
        bar.write(
            f"iteration {self.iteration}: elo {self.elo:+.0f} (random = 0); score vs {summary} "
            f"({time.perf_counter() - started:.0f} s)"
        )

    def write_run_json(self, argv: list | None = None) -> None:
        command = shlex.join(["python", "-m", "training.alphazero", *(argv if argv is not None else sys.argv[1:])])
        path = self.run_dir / "run.json"
        if self._commands_before is None:  # the first write of this process: the commands before it
            self._commands_before = json.loads(path.read_text()).get("commands", []) if path.is_file() else []
        earlier = self._commands_before
        info = {
            "command": command,
            "commands": [*earlier, command],  # the first run, then each --resume
            "game": self.game_name,
            "options": self.options,
            "seed": self.seed,
            "settings": self.settings.as_dict(),
            "iterations": self.iteration,
            "samples_added": self.buffer.added,
            "wall_seconds": round(self.seconds, 1),
            "elo_vs_random": self.elo,
            "teacher": self.teacher,
            "torch_threads": torch.get_num_threads(),
        }
        self.run_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(info, indent=1) + "\n")
