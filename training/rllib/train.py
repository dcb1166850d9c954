"""Self-play PPO on Ray RLlib, from one machine to a Ray cluster: ``boardgames rllib``.

Examples::

    boardgames rllib --game dorix --players 4 --env-runners 2 --iterations 50
    boardgames rllib --game barc --iterations 30 --out runs/rllib/barc
    boardgames rllib --resume runs/rllib/barc --iterations 60
    boardgames rllib --game dorix --players 2 --env-runners 8 --iterations 200 --address auto

Needs the ``rllib`` extra (``pip install -e ".[rllib]"``; ``make test`` builds it in ``.venv-rllib``).
The league (:mod:`boardgames.training.rllib.league`): ``main`` learns on one side of every game, against itself,
a uniform random player or a frozen snapshot of itself; 4-player Dorix partners share the policy and
the team reward.

The run stands on the run scaffold (:mod:`boardgames.training.run`): :class:`RLlibTrainer` is the family's
trainer in the scaffold's loop, with its run folder, strength hook and progress (a bar on a terminal, a plain
line every 30 seconds otherwise, besides the iteration lines).

One line per iteration: env steps (moves) so far, env steps per second over the iteration, and
every ``--eval-every`` iterations the win rate of ``main`` (arg-max over the legal actions) against
``random`` and ``greedy``, measured with the project's own game loop
(:func:`boardgames.training.evaluation.evaluate.play_match`,
sides rotating), also appended to ``<out>/strength.csv``. Every ``--checkpoint-every`` iterations and
at the end: the algorithm's checkpoint (``<out>/checkpoint``, RLlib's ``save_to_path``), the exported
policy ``<out>/policy.pt`` (plain torch, :mod:`boardgames.training.rllib.policy_file`: ``python -m
boardgames.training.evaluation.evaluate --agents rllib:<out> random greedy``) and ``<out>/run.json``.

``--resume DIR`` restores ``DIR/checkpoint`` with the settings of ``DIR/run.json`` and trains on
until ``--iterations`` (a total, not a count of more iterations). Restoring a Ray checkpoint unpickles
it, which runs any code its author put there, so every checkpoint a run writes is signed with a key kept
in the user's configuration folder (:mod:`boardgames.training.storage.run_signature`), and ``--resume``
restores only a checkpoint signed with this user's key and unchanged since, checked before Ray sees it;
any other is refused, saying why (status 2). ``--trust-checkpoint`` restores it anyway: for a run the user
wrote before checkpoints were signed, or on another account or machine. ``--address auto`` (or
``HOST:PORT``) runs on an existing Ray cluster (``ray start --head`` / KubeRay / ``ray up``; see
docs/scale-out.md); without it a Ray instance is started on this machine. ``--set KEY=VALUE``
changes a setting of :class:`boardgames.training.rllib.config.RLlibSettings` (``train_batch``, ``lr``,
``hidden``, ``snapshots``...); every setting is range-checked (:data:`SETTING_RANGES`) with a message
naming it and its range.

Durable runs (:mod:`boardgames.training.storage.durable`): the checkpoint folder is written under a temporary name and
swapped in whole, ``policy.pt``, ``run.json`` and ``strength.csv`` are written to temporary names,
fsynced and renamed, so a kill at any moment leaves complete files. ``--resume`` puts back a checkpoint
folder a kill left aside, removes the temporary files of killed runs and drops the ``strength.csv`` rows
of iterations past the checkpoint (measured again as the run goes on).
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import time
from pathlib import Path
from typing import Any

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registry import make_game
from boardgames.training.cli import (
    add_game_arguments,
    add_torch_threads_argument,
    apply_torch_threads,
    game_options_of,
    non_negative_int,
    parse_assignment,
    positive_int,
)
from boardgames.training.evaluation.strength import StrengthMeter, replace_rows_from
from boardgames.training.progress import Progress
from boardgames.training.ray_cluster import address_host_port, connect
from boardgames.training.rllib.policy_file import RLlibPolicyAgent, export_module
from boardgames.training.run.folder import RunFolder
from boardgames.training.run.loop import train_until
from boardgames.training.run.options import set_fields
from boardgames.training.settings import SettingError, check_count, check_number
from boardgames.training.storage.durable import read_json, write_json, write_with
from boardgames.training.storage.model_version import version_record
from boardgames.training.storage.run_signature import TRUST_FLAG, replace_signed_folder, restorable, run_key
from boardgames.training.torch_threads import use_torch_threads

STRENGTH_FIELDS = ["iteration", "env_steps", "opponent", "games", "wins", "draws", "losses", "win_rate"]
# setting: (lowest, highest); a float's lowest is excluded where marked "open"
SETTING_RANGES: dict[str, tuple[Any, ...]] = {
    "env_runners": (0, 1024),
    "envs_per_runner": (1, 1024),
    "train_batch": (1, 10_000_000),
    "minibatch": (1, 10_000_000),
    "epochs": (1, 1000),
    "lr": (0.0, 1.0, "open"),
    "entropy": (0.0, 10.0),
    "gamma": (0.0, 1.0),
    "gae_lambda": (0.0, 1.0),
    "snapshots": (0, 100),
    "snapshot_every": (1, 1_000_000),
    "self_play": (0.0, 1.0),
    "random_share": (0.0, 1.0),
    "seed": (0, 2**32 - 1),
}
"""The range of every number of :class:`boardgames.training.rllib.config.RLlibSettings` (``hidden``: 1..16 layers of
1..8192 units)."""
CONNECT_TIMEOUT_S = 10.0


def parse_args(argv=None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    p = argparse.ArgumentParser(
        prog="boardgames rllib",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="settings (--set): " + ", ".join(_setting_names()),
    )
    add_game_arguments(p)
    p.add_argument(
        "--env-runners",
        type=non_negative_int,
        default=None,
        help="env runners (one CPU each; 0 samples in the driver; default 2)",
    )
    p.add_argument("--iterations", type=positive_int, default=20, help="training iterations in all (default 20)")
    p.add_argument(
        "--address",
        default=None,
        help="an existing Ray cluster: 'auto' or HOST:PORT (default: start Ray on this machine)",
    )
    p.add_argument("--resume", default=None, metavar="DIR", help="continue the run saved in DIR")
    p.add_argument(
        TRUST_FLAG,
        action="store_true",
        help="with --resume: restore DIR/checkpoint even when it is not signed with this user's key (restoring "
        "unpickles it, which runs any code its author put there: only for a run you wrote yourself, before "
        "checkpoints were signed or on another account or machine)",
    )
    p.add_argument("--out", default=None, metavar="DIR", help="run folder (default runs/rllib/<game>[_<n>p]_s<seed>)")
    p.add_argument("--seed", type=int, default=None, help="seed (default 0)")
    p.add_argument(
        "--eval-every",
        type=non_negative_int,
        default=5,
        help="iterations between win-rate measurements (0: none; default 5)",
    )
    p.add_argument("--eval-games", type=positive_int, default=20, help="games per opponent per measurement")
    p.add_argument("--eval-opponents", nargs="+", default=["random", "greedy"], help="agent specs to measure against")
    p.add_argument(
        "--checkpoint-every",
        type=positive_int,
        default=10,
        help="iterations between checkpoints (default 10; one at the end too)",
    )
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an RLlibSettings field")
    add_torch_threads_argument(p)
    return p, p.parse_args(argv)


def _setting_names() -> list[str]:
    """The fields of :class:`boardgames.training.rllib.config.RLlibSettings`, read from the source of its module:
    ``--help`` imports no Ray (and answers without the rllib extra)."""
    import ast
    from importlib.util import find_spec

    spec = find_spec("boardgames.training.rllib.config")
    assert spec is not None and spec.origin is not None, "the rllib family's config module is part of the package"
    tree = ast.parse(Path(spec.origin).read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "RLlibSettings":
            return [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    return []


def make_settings(args: argparse.Namespace, saved: dict | None = None):
    """The run's settings: the saved ones on ``--resume``, else the defaults; then the flags and
    ``--set`` items (an unknown key or a value of the wrong kind raises :class:`SettingError`)."""
    from boardgames.training.rllib.config import RLlibSettings

    settings = RLlibSettings(**saved) if saved else RLlibSettings()
    changes = [parse_assignment(item, "--set") for item in args.set]
    if args.env_runners is not None:
        changes.append(("env_runners", args.env_runners))
    if args.seed is not None:
        changes.append(("seed", args.seed))
    set_fields(settings, changes)
    check_ranges(settings)
    if settings.env_runners < 0 or settings.train_batch < 1 or settings.minibatch < 1 or settings.epochs < 1:
        raise SettingError("env_runners must be >= 0, train_batch, minibatch and epochs >= 1")
    if not (0.0 <= settings.self_play <= 1.0 and 0.0 <= settings.random_share <= 1.0 - settings.self_play):
        raise SettingError(
            f"self_play ({settings.self_play}) and random_share ({settings.random_share}) must be "
            "probabilities summing to 1 at most"
        )
    if settings.snapshots < 0 or settings.snapshot_every < 1:
        raise SettingError("snapshots must be >= 0 and snapshot_every >= 1")
    return settings


def check_ranges(settings) -> None:
    """SettingError naming the setting and its range (:data:`SETTING_RANGES`) for a value out of it."""
    for name, (low, high, *open_low) in SETTING_RANGES.items():
        value = getattr(settings, name)
        if isinstance(low, int):
            check_count(name, value, low, high)
        else:
            check_number(name, value, low, high, low_open=bool(open_low))
    hidden = settings.hidden
    if not isinstance(hidden, (list, tuple)) or not 1 <= len(hidden) <= 16:
        raise SettingError(f"hidden must be a list of 1..16 layer widths, got {hidden!r}")
    for i, width in enumerate(hidden):
        check_count(f"hidden[{i}]", width, 1, 8192)


def check_address(address: str | None, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Raise :class:`SettingError` naming ``address`` when nothing answers there (a TCP connection
    to ``HOST:PORT`` within ``timeout`` seconds); ``None`` (a local Ray) and ``auto`` (a cluster
    started on this machine, checked by ``ray.init``) are not probed."""
    host_port = address_host_port(address)
    if host_port is None:
        return
    try:
        socket.create_connection(host_port, timeout=timeout).close()
    except OSError as e:
        raise SettingError(
            f"--address {address}: no Ray cluster answers there within {timeout:.0f} s ({type(e).__name__}: {e})"
        ) from None


def start_ray(address: str | None, env_runners: int) -> None:
    """Connect to the cluster at ``address`` or start Ray on this machine (with at least
    ``env_runners`` CPUs, so that every runner gets its CPU); :class:`SettingError` naming the
    address when it cannot be reached or has too few CPUs."""
    import ray

    check_address(address)
    connect(ray, address, env_runners, "env runners")


def measure(algo, game_name: str, options: dict, meter: StrengthMeter, seed: int) -> dict:
    """The win rate of ``main`` (arg-max) against each opponent of the strength hook ``meter``, the ``i``-th
    match seeded ``seed + i``: ``{name: PairResult}``."""
    from boardgames.training.rllib.league import trained_module

    agent = RLlibPolicyAgent.from_module(trained_module(algo), game_name, options)
    return meter.play(agent, lambda i: seed + i, "main")


def save(algo, out: Path, run: dict, key: bytes | None = None) -> None:
    """The checkpoint (signed with ``key``, this user's key when None), the exported policy and run.json of
    the run in ``out``."""
    from boardgames.training.rllib.league import trained_module

    replace_signed_folder(out / "checkpoint", lambda tmp: algo.save_to_path(str(tmp.resolve())), key)
    write_with(
        out / "policy.pt",
        lambda tmp: export_module(
            trained_module(algo),
            tmp,
            run["game"],
            run["options"],
            extra={"iteration": run["iteration"], "env_steps": run["env_steps"]},
        ),
        keep_suffix=True,
    )
    write_json(out / "run.json", run, indent=2)


def main(argv=None) -> None:
    p, args = parse_args(argv)
    apply_torch_threads(p, args)
    try:
        run(args)
    except (SettingError, GameOptionError, FileNotFoundError) as e:
        p.print_usage(sys.stderr)
        print(f"{p.prog}: error: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def load_run(args: argparse.Namespace) -> tuple[str, dict, dict | None, Path]:
    """``(game, options, saved settings or None, out)`` of a new run or of the run ``--resume`` names."""
    if args.resume:
        out = Path(args.resume)
        folder = RunFolder(out)
        folder.recover("checkpoint")  # a kill between the two renames of the checkpoint's swap
        if not folder.record_path.is_file() or not (out / "checkpoint").is_dir():
            raise SettingError(f"--resume {out}: no run there (expected {out}/run.json and {out}/checkpoint)")
        folder.clear_leftovers()
        saved = read_json(folder.record_path)
        if not isinstance(saved, dict) or not all(k in saved for k in ("game", "options", "settings")):
            raise SettingError(
                f"--resume {out}: {out / 'run.json'} cannot be read as this project's run.json "
                "(the game and settings of the run)"
            )
        return saved["game"], saved["options"], saved["settings"], out
    options = game_options_of(args)
    make_game(args.game, **options)  # GameOptionError for an unknown option or player count
    seed = args.seed if args.seed is not None else 0
    name = args.game + (f"_{args.players}p" if args.players else "")
    return args.game, options, None, Path(args.out or Path("runs") / "rllib" / f"{name}_s{seed}")


def run(args: argparse.Namespace) -> None:
    game_name, options, saved, out = load_run(args)
    settings = make_settings(args, saved)
    key = run_key()  # made on the first run; a key others may read is refused before anything runs
    with contextlib.ExitStack() as stack:
        checkpoint = None
        if saved is not None:  # checked (and copied aside) before Ray is imported: refused here unless signed
            checkpoint = stack.enter_context(restorable(out / "checkpoint", args.trust_checkpoint, key))
        train(args, game_name, options, settings, out, key, checkpoint, release=stack.close)


def train(args, game_name: str, options: dict, settings, out: Path, key: bytes, checkpoint=None, release=None) -> None:
    """Build the algorithm, restore ``checkpoint`` when given (the checked copy of the one ``--resume`` names;
    ``release()`` then removes the copy) and train to ``--iterations`` in the scaffold's loop."""
    import ray

    from boardgames.training.rllib.config import build_config
    from boardgames.training.rllib.league import make_random_player

    use_torch_threads()  # the driver learns and measures: one thread unless asked (README, Torch threads)
    game = make_game(game_name, **options)
    config = build_config(game_name, options, settings)
    meter = StrengthMeter(game, args.eval_opponents, args.eval_games, settings.seed)
    start_ray(args.address, settings.env_runners)
    try:
        algo = config.build_algo()
        make_random_player(algo)
        out.mkdir(parents=True, exist_ok=True)
        if checkpoint is not None:
            restore(algo, checkpoint, out, release)
        print(
            f"{game_name} {options}: {settings.env_runners} env runners x {settings.envs_per_runner} games, "
            f"{settings.train_batch} env steps per iteration, league main + random + {settings.snapshots} snapshots; "
            f"ray {ray.__version__}, cluster CPUs {ray.cluster_resources().get('CPU', 0):g}; run folder {out}"
        )
        trainer = RLlibTrainer(algo, args, game_name, options, settings, RunFolder(out), key, meter)
        trainer.start(version_record(game), resumed=checkpoint is not None)
        with Progress(args.iterations, "it", f"rllib {game_name}", initial=algo.iteration) as progress:
            train_until(trainer, args.iterations, progress, trainer.report(progress), args.checkpoint_every)
        info = trainer.info
        print(
            f"done: {info['iteration']} iterations, {info['env_steps']:,} env steps, "
            f"{info['wall_s']:.0f} s; policy {out / 'policy.pt'} "
            f"(boardgames evaluate --game {game_name}"
            f"{' --players ' + str(options['num_players']) if 'num_players' in options else ''}"
            f" --agents rllib:{out} random greedy)"
        )
        algo.stop()
    finally:
        ray.shutdown()


def restore(algo, checkpoint: Path, out: Path, release=None) -> None:
    """Load the state of the checked ``checkpoint`` into ``algo`` (``release()`` then removes the checked copy)
    and drop the ``strength.csv`` rows measured past it."""
    try:
        algo.restore_from_path(str(checkpoint.resolve()))
    except Exception as e:  # RLlib raises many kinds on a damaged folder: the project's error, naming it
        raise SettingError(
            f"--resume {out}: {out / 'checkpoint'} cannot be restored ({type(e).__name__}: {str(e)[:300]})"
        ) from None
    if release is not None:
        release()  # the checked copy is no longer needed
    print(f"resumed {out} at iteration {algo.iteration}")
    RunFolder(out).keep_strength(STRENGTH_FIELDS, "iteration", algo.iteration)


class RLlibTrainer:
    """The RLlib family's trainer in the scaffold's loop: one ``algo.train()`` iteration with its snapshot and
    strength measurement (:meth:`advance`), the signed checkpoint, the policy and ``run.json``
    (:meth:`checkpoint`)."""

    def __init__(self, algo, args, game_name: str, options: dict, settings, folder: RunFolder, key: bytes, meter):
        self.algo, self.args, self.game_name, self.options = algo, args, game_name, options
        self.settings, self.folder, self.key, self.meter = settings, folder, key, meter
        self.info: dict = {}
        self.line = ""
        self.started = time.perf_counter()

    @property
    def iteration(self) -> int:
        return self.algo.iteration

    def start(self, version: dict, resumed: bool) -> None:
        """``run.json``'s record as the run starts (a resumed run's steps and wall time go on)."""
        import torch

        self.info = {
            "game": self.game_name,
            "options": self.options,
            **version,
            "settings": self.settings.to_dict(),
            "iteration": self.algo.iteration,
            "env_steps": 0,
            "wall_s": 0.0,
            "torch_threads": torch.get_num_threads(),
        }
        if resumed:
            previous = read_json(self.folder.record_path, {})
            self.info["wall_s"] = previous.get("wall_s", 0.0)
            self.info["env_steps"] = previous.get("env_steps", 0)
        self.started = time.perf_counter() - self.info["wall_s"]

    def advance(self) -> str:
        """One iteration: sampling and learning, a snapshot when due, the strength when due; its line."""
        from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

        from boardgames.training.rllib.league import take_snapshot

        args, settings = self.args, self.settings
        t0 = time.perf_counter()
        before = self.info["env_steps"]
        result = self.algo.train()
        it = self.algo.iteration
        steps = int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED_LIFETIME, before))
        self.info.update(iteration=it, env_steps=steps)
        dt = time.perf_counter() - t0
        line = f"iter {it:>4}/{args.iterations}  env steps {steps:>10,}  {(steps - before) / dt:>8,.0f} steps/s"
        if it % settings.snapshot_every == 0:
            slot = take_snapshot(self.algo, it // settings.snapshot_every - 1, settings.snapshots)
            line += f"  snapshot -> {slot}" if slot else ""
        if args.eval_every and (it % args.eval_every == 0 or it == args.iterations):
            results = measure(self.algo, self.game_name, self.options, self.meter, settings.seed + it)
            line += "  vs " + "  ".join(f"{n} {100 * r.win_rate:.0f}%" for n, r in results.items())
            write_strength(self.folder.strength_path, it, steps, results)
        self.info["wall_s"] = round(time.perf_counter() - self.started, 1)
        self.line = line
        return f"{steps:,} env steps"

    def checkpoint(self) -> None:
        """The signed checkpoint, the exported policy and ``run.json``."""
        save(self.algo, self.folder.path, self.info, self.key)

    def report(self, progress: Progress):
        """The loop's report: the iteration's line (above the bar on a terminal), marked when it checkpointed."""
        return lambda text, saved: progress.write(self.line + ("  (checkpoint)" if saved else ""))


def write_strength(path: Path, iteration: int, steps: int, results: dict) -> None:
    """Add one row per opponent to the run's strength.csv (rewritten whole and durably; rows of this
    iteration or later, from a run that was killed and resumed, are replaced)."""
    rows = [
        dict(zip(STRENGTH_FIELDS, [iteration, steps, name, r.games, r.wins, r.draws, r.losses, f"{r.win_rate:.4f}"]))
        for name, r in results.items()
    ]
    replace_rows_from(path, STRENGTH_FIELDS, "iteration", iteration, rows)


if __name__ == "__main__":
    main()
