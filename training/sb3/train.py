"""Train an agent on one of the games by self-play: ``boardgames train``.

Examples::

    boardgames train --game dorix --players 2 --steps 200000 --seed 0
    boardgames train --game dorix --players 4 --set algo.learning_rate=1e-4 --set train.n_envs=4
    boardgames train --game dorix --resume runs/dorix_2p_s0/checkpoints/model_100000_steps.zip --steps 300000
    boardgames train --game adix --pretrain greedy --pretrain-games 400 --steps 300000

Settings come from ``training/configs/<game>.toml`` (``default.toml`` for games without one), then
``--config FILE``, then ``--set section.key=value`` (:func:`boardgames.training.settings.load_config`). The
learner plays one seat of each of ``train.n_envs`` games stepped together by one compiled batch
(:class:`boardgames.envs.vector.sb3.BatchedVecEnv`), the other seats played by opponents drawn per game and
episode from random, greedy and its own snapshots (:class:`boardgames.training.sb3.selfplay.PoolOpponent`);
``--subproc`` runs one :class:`boardgames.training.sb3.selfplay.SelfPlayEnv` per process instead.

A run writes into ``--run-dir`` (default ``runs/<game>[_<n>p]_s<seed>``): TensorBoard logs in ``tb/``,
checkpoints every ``train.checkpoint_every`` steps in ``checkpoints/``, the final model ``final.zip`` and
``run.json`` (the command, the settings really used, steps and wall time). Every ``train.eval_every`` steps
the learner plays ``train.eval_games`` games against random and greedy
(:mod:`boardgames.training.evaluation.strength`): win
rates in TensorBoard (``strength/``), in the progress, in ``strength.csv`` and drawn in ``results.png``. The
progress (:mod:`boardgames.training.progress`) is a bar on a terminal and a plain line every 30 seconds
otherwise (a log, ``tee``, CI); it stops at the total, though SB3 collects whole rollouts
(``algo.n_steps * train.n_envs`` steps each) and so may end a little past it.

The run stands on the run scaffold (:mod:`boardgames.training.run`: run folder, ``run.json``, strength hook,
progress); :mod:`boardgames.training.sb3.trainer` is the family's trainer (SB3's ``learn`` with the scaffold's
hooks as callbacks), imported once the arguments are read.
``--save PATH.zip`` also copies the final model there with ``run.json`` beside it.

``--resume CHECKPOINT.zip`` continues a run up to ``--steps`` in total. Its network is the checkpoint's
(``--set algo.net_arch=...`` or another ``algo.network`` is refused: the weights would not fit); the
hyperparameters given by ``--set algo.*`` or ``--config`` (learning rate, ``n_steps``, ``ent_coef``...)
replace the checkpoint's, the others stay the checkpoint's, and ``run.json`` records the values used.
``--pretrain TEACHER`` (or a ``[pretrain]`` section) first clones a teacher agent's play
(:mod:`boardgames.training.sb3.pretrain`), saved as ``pretrained.zip``, then self-play continues from there.

Durable runs (:mod:`boardgames.training.storage.durable`, :mod:`boardgames.training.sb3.checkpoints`): every file
is written to a temporary
name, fsynced and renamed into place, so a kill at any moment leaves complete files. Each checkpoint
``model_N_steps.zip`` (and ``final.zip``, ``pretrained.zip``) has a manifest beside it
(``model_N_steps.json``: the zip's size and sha256, the steps, the wall time so far, the commands), and
``run.json`` is rewritten after each checkpoint. ``--resume`` checks the zip against its manifest (a
damaged or missing file is refused with a message naming it), takes the wall time and the commands from
it, and drops the ``strength.csv`` rows measured past the checkpoint (measured again as the run goes
on). A resumed run is consistent, not identical to an uninterrupted one: the games being played and the
rollout being collected when the checkpoint was written are not part of it.

Every setting is range-checked (:func:`check_config`) with a message naming the setting and its range.
"""

from __future__ import annotations

import argparse
import copy
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardgames.training.cli import (
    add_game_arguments,
    add_torch_threads_argument,
    apply_torch_threads,
    game_options_of,
    non_negative_int,
    positive_int,
)
from boardgames.training.evaluation.strength import read_strength, save_strength_plot
from boardgames.training.run.folder import RunFolder, commands_so_far, elapsed_since
from boardgames.training.settings import SettingError, check_count, check_number, load_config
from boardgames.training.storage.durable import replacing, write_json
from boardgames.training.torch_threads import use_torch_threads

EVAL_DEFAULTS: dict[str, Any] = {"eval_every": 25000, "eval_games": 20, "eval_opponents": ["random", "greedy"]}


MAX_STEPS = 10**12
TRAIN_MAXIMA = {"n_envs": 1024, "max_snapshots": 1000, "eval_games": 100_000}
"""The highest value of the ``[train]`` counts that are not step counts (those go up to :data:`MAX_STEPS`)."""
MAX_SEED = 2**32 - 1
MAX_ROLLOUT = 2**20
"""At most ``algo.n_steps * train.n_envs`` steps in one rollout (the rollout buffer holds them all)."""
ALGO_COUNTS = {
    "n_steps": (1, MAX_ROLLOUT),
    "batch_size": (1, MAX_ROLLOUT),
    "n_epochs": (1, 1000),
    "conv_channels": (1, 1024),
}
ALGO_NUMBERS = {  # setting: (lowest, highest, lowest excluded)
    "learning_rate": (0.0, 1.0, True),
    "gamma": (0.0, 1.0, False),
    "gae_lambda": (0.0, 1.0, False),
    "ent_coef": (0.0, 10.0, False),
    "vf_coef": (0.0, 100.0, False),
    "clip_range": (0.0, 10.0, True),
    "clip_range_vf": (0.0, 1e6, True),
    "max_grad_norm": (0.0, 1e6, True),
    "target_kl": (0.0, 100.0, True),
}
PRETRAIN_COUNTS = {"games": (0, 1_000_000), "epochs": (1, 1000), "batch_size": (1, 65_536)}
PRETRAIN_NUMBERS = {"learning_rate": (0.0, 1.0, True), "value_coef": (0.0, 100.0, False)}


def count_setting(section: dict, name: str, default: int, minimum: int = 1) -> int:
    """The whole number ``section[name]`` (``default`` when absent), SettingError naming ``train.<name>``
    and its range outside ``minimum`` .. its maximum (:data:`TRAIN_MAXIMA`, else :data:`MAX_STEPS`)."""
    return check_count(f"train.{name}", section.get(name, default), minimum, TRAIN_MAXIMA.get(name, MAX_STEPS))


def _check_layers(name: str, value, most: int, widest: int) -> None:
    if not isinstance(value, (list, tuple)) or len(value) > most:
        raise SettingError(f"{name} must be a list of at most {most} whole numbers, got {value!r}")
    for i, v in enumerate(value):
        check_count(f"{name}[{i}]", v, 1, widest)


def check_config(cfg: dict) -> None:
    """SettingError naming the setting and its range for a value of ``cfg`` (a run's merged settings)
    out of range: the ``[algo]`` sizes and rates (:data:`ALGO_COUNTS`, :data:`ALGO_NUMBERS`, the layer
    widths of ``net_arch`` and ``conv_dilations``), the rollout size, the ``[opponents]`` weights and the
    ``[pretrain]`` settings, and the ``[train]`` counts as :func:`count_setting` reads them."""
    train = cfg.get("train", {})
    if not isinstance(train.get("batched", True), bool):
        raise SettingError(f"train.batched must be true or false, got {train['batched']!r}")
    for name in (
        "total_steps",
        "n_envs",
        "checkpoint_every",
        "snapshot_every",
        "max_snapshots",
        "eval_every",
        "eval_games",
    ):
        if name in train:
            count_setting(train, name, 0, minimum=0 if name == "eval_every" else 1)
    algo = cfg.get("algo", {})
    for name, (low, high) in ALGO_COUNTS.items():
        if name in algo:
            check_count(f"algo.{name}", algo[name], low, high)
    for name, (least, most, low_open) in ALGO_NUMBERS.items():
        if name in algo and algo[name] is not None:
            check_number(f"algo.{name}", algo[name], least, most, low_open)
    if "net_arch" in algo:
        _check_layers("algo.net_arch", algo["net_arch"], 16, 8192)
    if "conv_dilations" in algo:
        _check_layers("algo.conv_dilations", algo["conv_dilations"], 16, 64)
    n_envs = cfg.get("train", {}).get("n_envs", 8)
    n_steps = algo.get("n_steps", 2048)
    if isinstance(n_envs, int) and isinstance(n_steps, int) and n_envs * n_steps > MAX_ROLLOUT:
        raise SettingError(
            f"algo.n_steps * train.n_envs must be at most {MAX_ROLLOUT:,} (the rollout buffer holds "
            f"them all), got {n_steps} * {n_envs} = {n_steps * n_envs:,}"
        )
    weights = cfg.get("opponents", {})
    for name, w in weights.items():
        check_number(f"opponents.{name}", w, 0.0, 1e6)
    if weights and not any(w > 0 for w in weights.values()):
        raise SettingError("opponents: at least one weight must be above 0 (random, greedy, snapshot)")
    pretrain = cfg.get("pretrain") or {}
    for name, (low, high) in PRETRAIN_COUNTS.items():
        if name in pretrain:
            check_count(f"pretrain.{name}", pretrain[name], low, high)
    for name, (least, most, low_open) in PRETRAIN_NUMBERS.items():
        if name in pretrain:
            check_number(f"pretrain.{name}", pretrain[name], least, most, low_open)


def wants_pretrain(cfg: dict) -> bool:
    """Whether the settings ask for behaviour cloning before self-play (``[pretrain]`` with a teacher)."""
    p = cfg.get("pretrain") or {}
    return bool(p.get("teacher")) and int(p.get("games", 0)) > 0


def run_name(game: str, game_options: dict, seed: int) -> str:
    players = game_options.get("num_players")
    return f"{game}{f'_{players}p' if players else ''}_s{seed}"


def make_vec_env(
    game: str,
    game_options: dict,
    cfg: dict,
    seed: int,
    n_envs: int,
    subproc: bool = False,
    illegal_action: str = "raise",
):
    """The learner's ``n_envs`` games as an SB3 VecEnv, opponents from the pool of ``cfg`` (``[opponents]``
    weights, ``train.max_snapshots``), episode returns and lengths logged (``ep_rew_mean``): monitored
    :class:`~boardgames.envs.vector.sb3.BatchedVecEnv` (all games in one compiled batch,
    :class:`~boardgames.training.sb3.selfplay.PoolOpponent`) in a ``VecMonitor`` unless ``train.batched = false``,
    ``subproc`` or a game without compiled kernels ask for monitored
    :class:`~boardgames.training.sb3.selfplay.SelfPlayEnv` in a Dummy (``subproc``: Subproc) VecEnv: the same
    process, stepped one Python environment per game (docs/training.md). ``illegal_action="random"`` for
    algorithms without action masks (see SingleAgentEnv)."""
    from boardgames.envs.core.game_kernels import kernels_of
    from boardgames.envs.registry import make_game

    if not subproc and cfg.get("train", {}).get("batched", True):
        the_game = make_game(game, **game_options)
        try:
            kernels_of(the_game, "the batched trainer")
        except TypeError:  # no compiled kernels to batch: one SelfPlayEnv per game, as --subproc has
            pass
        else:
            return _batched_vec_env(the_game, cfg, seed, n_envs, illegal_action)
    return _selfplay_vec_env(game, game_options, cfg, seed, n_envs, subproc, illegal_action)


def _batched_vec_env(game, cfg: dict, seed: int, n_envs: int, illegal_action: str):
    """``n_envs`` games of ``game`` (a Game) in one :class:`~boardgames.envs.vector.sb3.BatchedVecEnv` against a
    :class:`~boardgames.training.sb3.selfplay.PoolOpponent`, in a ``VecMonitor``."""
    from stable_baselines3.common.vec_env import VecMonitor

    from boardgames.envs.vector.sb3 import BatchedVecEnv
    from boardgames.training.sb3.selfplay import OpponentPool, PoolOpponent

    pool = OpponentPool(game, cfg["opponents"], cfg["train"].get("max_snapshots", 5))
    venv = BatchedVecEnv(game, n_envs, opponent=PoolOpponent(pool), seed=seed, illegal_action=illegal_action)
    return VecMonitor(venv)


def _selfplay_vec_env(game: str, game_options: dict, cfg: dict, seed: int, n_envs: int, subproc: bool, illegal_action):
    """``n_envs`` monitored :class:`~boardgames.training.sb3.selfplay.SelfPlayEnv` in a Subproc (or Dummy) VecEnv."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from boardgames.training.sb3.selfplay import SelfPlayEnv

    train = cfg["train"]

    def factory(i):
        def make():
            env = SelfPlayEnv(
                game,
                game_options,
                weights=cfg["opponents"],
                max_snapshots=train.get("max_snapshots", 5),
                illegal_action=illegal_action,
            )
            env.reset(seed=seed * 1000 + i)
            return Monitor(env)

        return make

    cls = SubprocVecEnv if subproc else DummyVecEnv
    return cls([factory(i) for i in range(n_envs)])


@dataclass
class TrainSpec:
    """What a training run is asked to do (the flags of ``boardgames train``).

    Attributes:
        game, game_options: the game and its options.
        total_steps: environment steps in all (None: the config's ``train.total_steps``).
        seed: the run's seed.
        run_dir: output folder (default ``runs/<game>[_<n>p]_s<seed>``).
        config_file: extra TOML merged over the game's config; ``sets``: ``section.key=value`` overrides.
        resume: a checkpoint ``.zip`` to continue (up to ``total_steps`` in total).
        save: also copy the final model there (with ``run.json`` beside it).
        progress_bar: show SB3's progress bar; ``subproc``: one process per environment.
        command: the command line recorded in ``run.json`` (default: this process's).
        pretrain, pretrain_games: a teacher agent spec and its number of games for behaviour cloning
            before self-play (override the ``[pretrain]`` settings; skipped when resuming).
    """

    game: str = "dorix"
    game_options: dict = field(default_factory=dict)
    total_steps: int | None = None
    seed: int = 0
    run_dir: str | None = None
    config_file: str | None = None
    sets: list = field(default_factory=list)
    resume: str | None = None
    save: str | None = None
    progress_bar: bool = True
    subproc: bool = False
    command: str | None = None
    pretrain: str | None = None
    pretrain_games: int | None = None


@dataclass
class _Counts:
    """The ``[train]`` counts of a run, checked (:func:`count_setting`)."""

    total_steps: int
    n_envs: int
    checkpoint_every: int
    snapshot_every: int
    eval_every: int
    eval_games: int


def run_settings(spec: TrainSpec) -> tuple[dict, _Counts]:
    """The run's merged settings (config files, ``--config``, ``--set``, the pretraining flags, ``--steps``),
    every one range-checked, and its ``[train]`` counts."""
    cfg = load_config(spec.game, spec.game_options, spec.config_file, spec.sets)
    if spec.pretrain is not None:
        cfg.setdefault("pretrain", {})["teacher"] = spec.pretrain
    if spec.pretrain_games is not None:
        cfg.setdefault("pretrain", {})["games"] = int(spec.pretrain_games)
    if spec.pretrain is not None and "games" not in cfg["pretrain"]:
        from boardgames.training.sb3.pretrain import DEFAULTS

        cfg["pretrain"]["games"] = DEFAULTS["games"]
    check_config(cfg)
    tr = cfg["train"]
    if spec.total_steps is not None:
        tr["total_steps"] = spec.total_steps
    counts = _Counts(
        total_steps=count_setting(tr, "total_steps", 100000),
        n_envs=count_setting(tr, "n_envs", 8),
        checkpoint_every=count_setting(tr, "checkpoint_every", 50000),
        snapshot_every=count_setting(tr, "snapshot_every", 25000),
        eval_every=count_setting(tr, "eval_every", EVAL_DEFAULTS["eval_every"], minimum=0),
        eval_games=count_setting(tr, "eval_games", EVAL_DEFAULTS["eval_games"]),
    )
    count_setting(tr, "max_snapshots", 5)
    return cfg, counts


class RunRecord:
    """What ``run.json`` (and each checkpoint's manifest) records of an SB3 run at a step count: ``earlier`` is
    the checkpoint's own record (or the resumed run's ``run.json``), ``threads()`` torch's thread count."""

    def __init__(self, spec: TrainSpec, cfg: dict, earlier: dict, version: dict, threads):
        self.spec, self.cfg, self.earlier, self.version, self.threads = spec, cfg, earlier, version, threads
        self.start = time.time()
        self.strength = None  # the strength hook, once the run has one (its seconds are recorded)
        self.pretrain: dict | None = None

    def __call__(self, steps: int) -> dict:
        spec, earlier, command = self.spec, self.earlier, self.spec.command
        info = {
            "command": command or "boardgames train " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
            "commands": commands_so_far(earlier.get("commands", []), command or " ".join(sys.argv)),
            "game": spec.game,
            "game_options": spec.game_options,
            **self.version,
            "seed": spec.seed,
            "steps": int(steps),
            "wall_time_s": elapsed_since(self.start, earlier.get("wall_time_s", 0.0)),
            "config": self.cfg,
            "torch_threads": self.threads(),
        }
        if self.strength is not None:
            info["strength_eval_s"] = round(self.strength.seconds, 1)  # of this run's wall time
        if self.pretrain is not None or earlier.get("pretrain") is not None:
            info["pretrain"] = self.pretrain if self.pretrain is not None else earlier["pretrain"]
        return info


def train(spec: TrainSpec | str, game_options: dict | None = None, **settings):
    """Train (or resume) and return ``(model, run_dir)``; see the module docstring and :class:`TrainSpec`.
    ``train(TrainSpec(...))``, or ``train(game, game_options, total_steps=..., seed=..., ...)`` with the
    fields of :class:`TrainSpec` as keywords."""
    if not isinstance(spec, TrainSpec):
        spec = TrainSpec(spec, dict(game_options or {}), **settings)
    elif game_options is not None or settings:
        raise TypeError("train(TrainSpec) takes no other argument")
    game, game_options, seed = spec.game, spec.game_options, spec.seed
    check_count("--seed", seed, 0, MAX_SEED)
    from boardgames.training.sb3 import trainer  # torch and SB3: only once the arguments are read

    use_torch_threads()  # 1 unless the command or the environment says: more threads ran 10x slower on 2 cores
    cfg, counts = run_settings(spec)
    algo = trainer.get_algorithm(cfg["train"].get("algorithm", "maskable_ppo"))
    resume = trainer.resume_file(spec.resume)
    folder = RunFolder(spec.run_dir or Path("runs") / run_name(game, game_options, seed))
    run = folder.path
    manifest = trainer.open_run_folder(folder, resume)
    # An algorithm that does not see the masks gets a random legal action for each illegal choice.
    env = make_vec_env(
        game, game_options, cfg, seed, counts.n_envs, spec.subproc, "raise" if algo.uses_masks else "random"
    )
    model = trainer.build_model(algo, env, spec, cfg, run, resume, counts.total_steps)
    cfg["algo"] = algo.used_settings(model, cfg["algo"])
    previous = folder.previous_record() if resume else {}  # an unreadable run.json (an older version's) is mended
    earlier = manifest if manifest is not None else previous  # the checkpoint's own record when it has one
    record = RunRecord(spec, cfg, earlier, trainer.version_of(spec), trainer.torch_threads_now)
    if wants_pretrain(cfg) and not resume:
        record.pretrain = trainer.pretrain_model(model, spec, cfg, run)
    opponents = cfg["train"].get("eval_opponents", EVAL_DEFAULTS["eval_opponents"])
    opponents = [opponents] if isinstance(opponents, str) else opponents
    name = run_name(game, game_options, seed)
    trainer.learn(model, spec, counts, opponents, folder, record, int(model.num_timesteps), bool(resume), name)
    info = record(int(model.num_timesteps))
    trainer.save_model_set(model, run / "final.zip", info)
    if record.strength is not None:
        save_strength_plot(run, read_strength(folder.strength_path), f"{name}: {int(model.num_timesteps)} steps")
    folder.write_record(info, indent=2)
    if spec.save:
        dest = Path(spec.save)
        dest.parent.mkdir(parents=True, exist_ok=True)
        ship_model(model, dest)
        write_json(dest.parent / "run.json", info, indent=2)
    env.close()
    return model, run


def ship_model(model, dest: str | Path) -> Path:
    """Save ``model`` for shipping: the same weights without the optimizer's moment estimates (a third
    of the size); it loads, plays and can be trained further (the optimizer restarts its estimates)."""
    dest = Path(dest)
    if not dest.suffix:  # as SB3 names a file given without one
        dest = dest.with_name(dest.name + ".zip")
    state = copy.deepcopy(model.policy.optimizer.state_dict())
    model.policy.optimizer.state.clear()
    try:
        with replacing(dest) as f:  # durably: a temporary name, fsynced, renamed
            model.save(f)
    finally:
        model.policy.optimizer.load_state_dict(state)
    return dest


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(prog="boardgames train", description=__doc__.split("\n\n")[0])
    add_game_arguments(p, choices=False)
    p.add_argument("--steps", type=positive_int, default=None, help="total environment steps (default: config)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default=None, help="extra TOML file merged over the game's defaults")
    p.add_argument("--set", action="append", metavar="SECTION.KEY=VALUE", help="override one setting")
    p.add_argument("--run-dir", default=None, help="output folder (default runs/<game>[_<n>p]_s<seed>)")
    p.add_argument("--resume", default=None, metavar="CHECKPOINT.zip", help="continue from a checkpoint")
    p.add_argument("--save", default=None, metavar="PATH.zip", help="also copy the final model there")
    p.add_argument("--subproc", action="store_true", help="one process per environment")
    p.add_argument(
        "--pretrain",
        default=None,
        metavar="TEACHER",
        help="behaviour-clone this agent (greedy, mcts:50, a model) before self-play",
    )
    p.add_argument(
        "--pretrain-games",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="games of the teacher to clone (default: config, else 200)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    apply_torch_threads(p, args)
    from boardgames.envs.registry import make_game

    options = game_options_of(args)
    make_game(args.game, **options)  # fail early on a bad game or option
    argv_text = " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    spec = TrainSpec(
        args.game,
        options,
        args.steps,
        args.seed,
        args.run_dir,
        args.config,
        args.set or [],
        args.resume,
        args.save,
        not args.no_progress,
        args.subproc,
        command=f"boardgames train {argv_text}",
        pretrain=args.pretrain,
        pretrain_games=args.pretrain_games,
    )
    try:
        model, run = train(spec)
    except SettingError as e:
        p.error(str(e))
    print(f"trained {model.num_timesteps} steps; model: {run / 'final.zip'}; TensorBoard: tensorboard --logdir {run}")


if __name__ == "__main__":
    main()
