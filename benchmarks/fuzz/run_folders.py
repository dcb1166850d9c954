"""Training run folders damaged or killed at random, then resumed: the run-folder part of the surfaces
campaign.

Tiny AlphaZero and MaskablePPO runs (Dorix, 2 players; the sizes and command lines the kill tests of
``tests/training/test_durable_runs.py`` use too)
are made once in a temporary folder: an uninterrupted reference of each, and an AlphaZero run of one
iteration of the two. The tries then run the trainers' own command lines (``boardgames.training.alphazero``'s and
``boardgames.training.sb3.train``'s ``main``) in forked children (:mod:`boardgames.benchmarks.fuzz.child`), as a user
would:

* **damage** (``alphazero-damage``, ``ppo-damage``): a copy of a run folder (AlphaZero: the one-iteration
  run; PPO: the reference) with one to three of its files damaged (cut short, bytes flipped, deleted,
  replaced by random bytes, emptied; sometimes ``latest/`` deleted whole), then resumed (``--resume`` when
  there is a checkpoint, the newest PPO checkpoint zip) up to the reference's length;
* **kill** (``alphazero-kill``, ``ppo-kill``): a new run killed with SIGKILL at a random write point of
  the fault injector (``BOARDGAMES_KILL_AT_WRITE``, :mod:`boardgames.training.storage.durable`), sometimes
  killed again while resuming, then resumed until it finishes.

A resume passes when it finishes with a consistent run or refuses with the project's error: exit status 2
and a message naming a file of the run folder. Consistent: the checkpoint opens against its manifest, the
run reached its length (``run.json`` whole and saying so, the final model and every checkpoint with a
manifest check and load, ``latest/`` loads and plays a legal move), ``strength.csv`` holds no measurement
twice and no row cut short, no temporary file is left. An AlphaZero run whose checkpoint set was not
damaged, and every killed one, must moreover equal the uninterrupted reference (network, optimizer, random
state, history, buffer, games in flight, ``latest/``; ``strength.csv`` too when it was not damaged). It
fails on a traceback (any other exit status), a hang, a refusal that names no file, a refusal of a run
whose checkpoint was not damaged, a damaged checkpoint file resumed although its manifest was intact, and
any inconsistency.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from boardgames.benchmarks.fuzz.child import run_in_child

KINDS = ("alphazero-damage", "alphazero-kill", "ppo-damage", "ppo-kill", "alphazero-names", "ppo-names")
AZ_TINY = [
    "alphazero.games_per_iteration=2",
    "alphazero.parallel=3",
    "alphazero.simulations=4",
    "alphazero.train_steps=2",
    "alphazero.batch_size=8",
    "alphazero.channels=4",
    "alphazero.blocks=1",
    "alphazero.value_hidden=4",
    "alphazero.eval_every=2",
    "alphazero.eval_games=2",
    "alphazero.eval_opponents=['random']",
    "alphazero.eval_simulations=2",
    "alphazero.play_simulations=3",
]
PPO_SMALL = [
    "train.n_envs=2",
    "algo.n_steps=64",
    "algo.batch_size=64",
    "algo.n_epochs=1",
    "train.eval_every=128",
    "train.eval_games=2",
    "train.eval_opponents=['random']",
    "train.checkpoint_every=256",
    "algo.net_arch=[16]",
]
PPO_STEPS = 384  # rollouts of 128 steps: a checkpoint at 256, measurements at 0, 128, 256 and 384
AZ_ITERATIONS = 2
AZ_SET = ("checkpoint.pt", "buffer.npz", "games.npz")
PPO_CHECKPOINT = "checkpoints/model_256_steps"
RUN_TIMEOUT = 300.0
GAME = ("dorix", {"num_players": 2})


def az_command(run: Path, iterations: int, *more: str) -> list[str]:
    """The command line of AlphaZero's trainer for a run of two-player Dorix in the folder ``run``,
    ``iterations`` long, without the progress bar; ``more`` flags after it (the tests' runs too)."""
    return [
        "--game",
        "dorix",
        "--players",
        "2",
        "--run-dir",
        str(run),
        "--iterations",
        str(iterations),
        "--no-progress",
        *more,
    ]


def ppo_command(run: Path, steps: int, *more: str) -> list[str]:
    """The command line of the SB3 trainer for a run of two-player Dorix in the folder ``run``, ``steps``
    long, without the progress bar; ``more`` flags after it (the tests' runs too)."""
    return ["--game", "dorix", "--players", "2", "--steps", str(steps), "--run-dir", str(run), "--no-progress", *more]


def az_args(run: Path, iterations: int = AZ_ITERATIONS, resume: bool = False) -> list:
    return az_command(run, iterations, *sum((["--set", s] for s in AZ_TINY), []), *(["--resume"] if resume else []))


def ppo_args(run: Path, resume: Path | None = None) -> list:
    return ppo_command(
        run, PPO_STEPS, *sum((["--set", s] for s in PPO_SMALL), []), *(["--resume", str(resume)] if resume else [])
    )


def _az_main(args):
    from boardgames.training.alphazero.__main__ import main

    main(args)


def _ppo_main(args):
    from boardgames.training.sb3.train import main

    main(args)


@contextlib.contextmanager
def fault_env(kill: int | None = None, log: Path | None = None):
    """The fault injector counting (and logging to ``log``) in this process for the block, killing at the
    ``kill``-th write point (None: nothing); the point counter at zero before and after."""
    from boardgames.training.storage import durable

    saved = {k: os.environ.pop(k, None) for k in (durable.KILL_ENV, durable.LOG_ENV)}
    if kill is not None:
        os.environ[durable.KILL_ENV] = str(kill)
    if log is not None:
        os.environ[durable.LOG_ENV] = str(log)
    durable.reset_points()
    try:
        yield
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v
        durable.reset_points()


def _child_main(fn, args, kill):
    """In the child: the fault injector armed at ``kill`` (None: off), then the trainer's command line."""
    from boardgames.training.storage import durable

    for key in (durable.KILL_ENV, durable.LOG_ENV):
        os.environ.pop(key, None)
    if kill is not None:
        os.environ[durable.KILL_ENV] = str(kill)
    durable.reset_points()
    fn(args)


def run_trainer(fn, args: list, output: Path, kill: int | None = None):
    """The trainer's command line ``fn(args)`` in a forked child (killed at its ``kill``-th write point);
    its :class:`~boardgames.benchmarks.fuzz.child.ChildResult` (output appended to ``output``)."""
    return run_in_child(_child_main, fn, args, kill, timeout=RUN_TIMEOUT, output=str(output))


class References:
    """The runs every try compares with or starts from, made once (in this process: the children forked
    afterwards inherit its imports and compiled code): the uninterrupted AlphaZero and PPO runs with the
    labels of their write points, and an AlphaZero run of one iteration."""

    def __init__(self, root: Path, kinds=KINDS):
        import torch

        torch.set_num_threads(1)
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        # the reference runs of the kinds asked for (None for the others)
        self.az_ref: Any = None
        self.az_base: Any = None
        self.ppo_ref: Any = None
        self.az_points: list = []
        self.ppo_points: list = []
        if any(k.startswith("alphazero") for k in kinds):
            self.az_ref, self.az_points = self._make(_az_main, az_args, "az-ref")
            self.az_base = self.root / "az-base"
            if not (self.az_base / "checkpoint.json").exists():
                with contextlib.redirect_stdout(open(os.devnull, "w")), fault_env():
                    _az_main(az_args(self.az_base, 1))
        if any(k.startswith("ppo") for k in kinds):
            self.ppo_ref, self.ppo_points = self._make(_ppo_main, ppo_args, "ppo-ref")

    def _make(self, fn, args, name: str) -> tuple[Path, list]:
        run, log = self.root / name, self.root / f"{name}.points"
        if not log.exists():
            shutil.rmtree(run, ignore_errors=True)
            with contextlib.redirect_stdout(open(os.devnull, "w")), fault_env(log=log):
                fn(args(run))
        return run, [line.split(" ", 1)[1] for line in log.read_text().splitlines()]


# ----- damage ------------------------------------------------------------------------------------------
def run_files(run: Path) -> list[Path]:
    """The files of a run folder (relative paths), in a fixed order."""
    return sorted(p.relative_to(run) for p in run.rglob("*") if p.is_file())


def damage(run: Path, r) -> list[tuple[str, str]]:
    """Damage one to three files of ``run`` at random; ``[(relative path, what was done)]``."""
    files = run_files(run)
    done = []
    if (run / "latest").is_dir() and r.random() < 0.08:
        shutil.rmtree(run / "latest")
        done.append(("latest", "folder deleted"))
        files = run_files(run)
    for _ in range(int(r.choice([1, 1, 1, 2, 3]))):
        if not files:
            break
        rel = files[int(r.integers(len(files)))]
        path = run / rel
        if not path.exists():
            continue
        raw = path.read_bytes()
        op = str(r.choice(["truncate", "flip", "delete", "garbage", "empty"]))
        if op == "truncate" and raw:
            cut = int(r.integers(0, len(raw)))
            path.write_bytes(raw[:cut])
            what = f"cut to {cut} of {len(raw)} bytes"
        elif op == "flip" and raw:
            data = bytearray(raw)
            k = int(r.integers(1, 9))
            for p in r.integers(0, len(raw), k):
                data[p] ^= int(r.integers(1, 256))
            path.write_bytes(bytes(data))
            what = f"{k} bytes flipped"
        elif op == "delete":
            path.unlink()
            what = "deleted"
        elif op == "garbage":
            size = int(r.integers(1, 2048))
            path.write_bytes(r.bytes(size))
            what = f"replaced by {size} random bytes"
        else:
            path.write_bytes(b"")
            what = "emptied" if raw else "(already empty)"
        done.append((str(rel), what))
    return done


# ----- what a finished run must be ---------------------------------------------------------------------
def leftovers(folder: Path) -> list:
    from boardgames.training.storage.durable import _TEMP

    return [str(p.relative_to(folder)) for p in folder.rglob("*") if _TEMP.search(p.name)]


def strength_problems(run: Path, fields: list) -> list:
    """Problems of a run's ``strength.csv``: a row cut short, a measurement (step or iteration, opponent)
    twice."""
    import csv

    path = run / "strength.csv"
    if not path.exists():
        return ["strength.csv is missing"]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    problems = []
    keys = [(row.get(fields[0]), row.get("opponent")) for row in rows]
    if any(None in row or any(row.get(k) is None for k in fields) for row in rows):
        problems.append("strength.csv has a row cut short")
    twice = sorted({k for k in keys if keys.count(k) > 1}, key=str)
    if twice:
        problems.append(f"strength.csv measures {twice[0]} {keys.count(twice[0])} times")
    return problems


def equal_state(a, b) -> bool:
    import torch

    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(equal_state(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(equal_state(x, y) for x, y in zip(a, b))
    return a == b


def history_rows(state) -> list:
    return [{k: v for k, v in row.items() if not k.endswith("_s")} for row in json.loads(state["history"])]


def run_json_problems(run: Path, key: str, length: int) -> list:
    """What is wrong with ``run.json`` of a finished run: not whole, or its ``key`` (``iterations``, ``steps``)
    other than ``length``."""
    try:
        info = json.loads((run / "run.json").read_text())
    except (OSError, ValueError) as e:
        return [f"run.json is not whole ({type(e).__name__})"]
    return [] if info.get(key) == length else [f"run.json says {info.get(key)} {key}, not {length}"]


def az_problems(ref: Path, run: Path, same: bool, same_strength: bool) -> list:
    """What is wrong with a finished AlphaZero run (``same``: it must equal the reference ``ref``)."""
    import torch

    from boardgames.envs.registry import make_game
    from boardgames.training.agent_kinds import make_agent
    from boardgames.training.alphazero.train import SET_FILES, STRENGTH_FIELDS
    from boardgames.training.storage.durable import CheckpointError, open_set

    problems = []
    try:
        open_set(run, "checkpoint.json", SET_FILES)
    except CheckpointError as e:
        return [f"its checkpoint does not open: {e}"]
    state = torch.load(run / "checkpoint.pt", weights_only=True)
    if int(state["iteration"]) != AZ_ITERATIONS:
        problems.append(f"its checkpoint is at iteration {state['iteration']}, not {AZ_ITERATIONS}")
    problems += run_json_problems(run, "iterations", AZ_ITERATIONS)
    try:
        game = make_game(GAME[0], **GAME[1])
        agent = make_agent(f"{run / 'latest'}@2", game, seed=0)
        position = game.new_initial_state()
        seat = int(position.current_seats()[0])
        if not position.legal_mask(seat)[int(agent(position, seat))]:
            problems.append("latest/ plays an illegal move")
    except Exception as e:  # noqa: BLE001 - a latest/ that does not load is the finding
        problems.append(f"latest/ does not load: {type(e).__name__}: {str(e)[:200]}")
    problems += strength_problems(run, STRENGTH_FIELDS)
    left = leftovers(run)
    if left:
        problems.append(f"temporary files left: {left[:3]}")
    if same and not problems:
        want = torch.load(ref / "checkpoint.pt", weights_only=True)
        for key in ("net", "optimizer", "iteration", "rng", "torch_rng", "elo", "settings", "teacher"):
            if not equal_state(want[key], state[key]):
                problems.append(f"checkpoint.pt's {key} differs from the uninterrupted run's")
        if history_rows(want) != history_rows(state):
            problems.append("checkpoint.pt's history differs from the uninterrupted run's")
        for name in ("buffer.npz", "games.npz"):
            with np.load(ref / name) as x, np.load(run / name) as y:
                if x.files != y.files or not all(np.array_equal(x[k], y[k]) for k in x.files):
                    problems.append(f"{name} differs from the uninterrupted run's")
        if not equal_state(
            torch.load(ref / "latest/alphazero.pt", weights_only=True),
            torch.load(run / "latest/alphazero.pt", weights_only=True),
        ):
            problems.append("latest/alphazero.pt differs from the uninterrupted run's")
        if same_strength and (ref / "strength.csv").read_text() != (run / "strength.csv").read_text():
            problems.append("strength.csv differs from the uninterrupted run's")
    return problems


def ppo_problems(ref: Path, run: Path, same_strength: bool) -> list:
    """What is wrong with a finished PPO run."""
    from boardgames.training.agent_kinds import load_model
    from boardgames.training.evaluation.strength import FIELDS
    from boardgames.training.sb3.checkpoints import checkpoint_manifest
    from boardgames.training.storage.durable import CheckpointError, read_csv_rows

    problems = []
    try:
        manifest = checkpoint_manifest(run / "final.zip")
        if manifest is None or manifest.get("steps") != PPO_STEPS:
            problems.append(f"final.zip's manifest says {None if manifest is None else manifest.get('steps')} steps")
        if load_model(run / "final.zip").num_timesteps != PPO_STEPS:
            problems.append(f"final.zip does not hold {PPO_STEPS} steps")
    except (CheckpointError, ValueError, OSError) as e:
        problems.append(f"final.zip does not check or load: {type(e).__name__}: {str(e)[:200]}")
    for zip_path in sorted((run / "checkpoints").glob("*.zip")):
        if not zip_path.with_suffix(".json").exists():
            continue  # a checkpoint whose manifest the damage deleted: it was resumed (or not) as such
        try:
            checkpoint_manifest(zip_path)
        except CheckpointError as e:
            problems.append(f"{zip_path.name} does not check: {str(e)[:200]}")
    problems += run_json_problems(run, "steps", PPO_STEPS)
    problems += strength_problems(run, FIELDS)
    if same_strength:
        fields = ["steps", "opponent"]
        mine = [(r["steps"], r["opponent"]) for r in read_csv_rows(run / "strength.csv", fields)]
        want = [(r["steps"], r["opponent"]) for r in read_csv_rows(ref / "strength.csv", fields)]
        if mine != want:
            problems.append(f"strength.csv measures {mine}, the uninterrupted run {want}")
    if not (run / "results.png").is_file() or (run / "results.png").stat().st_size == 0:
        problems.append("results.png is missing or empty")
    left = leftovers(run)
    if left:
        problems.append(f"temporary files left: {left[:3]}")
    return problems


# ----- resuming as a user would ------------------------------------------------------------------------
def resume_az(run: Path, output: Path, kill: int | None = None):
    has = (run / "checkpoint.json").exists() or (run / "checkpoint.pt").exists()
    return run_trainer(_az_main, az_args(run, resume=has), output, kill)


def newest_ppo_checkpoint(run: Path) -> Path | None:
    """The zip a user would resume: the newest checkpoint of ``checkpoints/`` (by its steps) whose zip or
    manifest is there under its own name (a zip still under its temporary name beside its manifest is put
    in place by ``--resume``); None when there is none."""
    found = {}
    for p in (run / "checkpoints").glob("model_*_steps.*"):
        match = re.fullmatch(r"model_(\d+)_steps\.(zip|json)", p.name)
        if match:
            found[int(match.group(1))] = p.with_name(f"model_{match.group(1)}_steps.zip")
    return found[max(found)] if found else None


def resume_ppo(run: Path, output: Path, kill: int | None = None):
    return run_trainer(_ppo_main, ppo_args(run, newest_ppo_checkpoint(run)), output, kill)


def _tail(output: Path, lines: int = 6) -> str:
    try:
        return " | ".join(output.read_text(errors="replace").strip().splitlines()[-lines:])[-700:]
    except OSError:
        return ""


def _refusal(result, output: Path, run: Path) -> str | None:
    """None when ``result`` is a refusal naming a file of ``run`` (status 2), else the problem."""
    message = _tail(output, 3)
    if str(run) not in message:
        return f"refused (status 2) without naming a file of the run: {message[-300:]}"
    return None


def _status_problem(result, output: Path) -> str:
    if result.timed_out:
        return f"no end in {RUN_TIMEOUT:.0f} s"
    if result.status is not None and result.status < 0:
        return f"ended by signal {-result.status}: {_tail(output)}"
    return f"exit status {result.status}: {_tail(output)}"


def damage_try(kind: str, seed: int, refs: References, work: Path) -> tuple[str, list, str]:
    """A damaged run folder resumed; ``(outcome, problems, what was damaged)``."""
    r = np.random.default_rng(seed)
    az = kind.startswith("alphazero")
    run = work / f"{kind}-{seed}"
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(refs.az_base if az else refs.ppo_ref, run)
    done = damage(run, r)
    what = "; ".join(f"{rel}: {how}" for rel, how in done)
    damaged = {rel for rel, _ in done}
    output = work / f"{kind}-{seed}.out"
    output.unlink(missing_ok=True)
    result = resume_az(run, output) if az else resume_ppo(run, output)
    if az:
        set_damaged = bool(damaged & set(AZ_SET))
        manifest_damaged = "checkpoint.json" in damaged
        manifest_deleted = ("checkpoint.json", "deleted") in done
    else:
        set_damaged = f"{PPO_CHECKPOINT}.zip" in damaged
        manifest_damaged = f"{PPO_CHECKPOINT}.json" in damaged
    problems = []
    if result.status == 0:
        outcome = "resumed"
        if set_damaged and not manifest_damaged:
            problems.append(
                ("damage accepted", "a damaged checkpoint file was resumed although its manifest was intact")
            )
        if az:
            same = not set_damaged and not manifest_deleted  # a manifest read and matched names the same set
            found = az_problems(refs.az_ref, run, same, "strength.csv" not in damaged)
        else:
            found = ppo_problems(refs.ppo_ref, run, "strength.csv" not in damaged)
        problems += [("inconsistent", p) for p in found]
    elif result.status == 2:
        outcome = "refused"
        problem = _refusal(result, output, run)
        if problem:
            problems.append(("refusal", problem))
        if not set_damaged and not manifest_damaged:
            problems.append(("refused a whole checkpoint", f"the checkpoint was not damaged: {_tail(output, 2)}"))
    else:
        outcome = "hang" if result.timed_out else "traceback"
        problems.append((outcome, _status_problem(result, output)))
    if not problems:
        shutil.rmtree(run, ignore_errors=True)
        output.unlink(missing_ok=True)
    return outcome, problems, what


def kill_try(kind: str, seed: int, refs: References, work: Path, point: int | None = None) -> tuple[str, list, str]:
    """A new run killed at a random write point (``point`` when given; sometimes killed again while
    resuming), then resumed until it finishes; ``(outcome, problems, where it was killed)``."""
    r = np.random.default_rng(seed)
    az = kind.startswith("alphazero")
    points = refs.az_points if az else refs.ppo_points
    run = work / f"{kind}-{seed}"
    shutil.rmtree(run, ignore_errors=True)
    output = work / f"{kind}-{seed}.out"
    output.unlink(missing_ok=True)
    k = int(r.integers(1, len(points) + 1)) if point is None else point
    what = f"killed at write point {k} of {len(points)} ({points[k - 1]})"
    fn, args = (_az_main, az_args(run)) if az else (_ppo_main, ppo_args(run))
    result = run_trainer(fn, args, output, kill=k)
    if result.status != -9:
        return (
            "not killed",
            [("kill", f"write point {k} ({points[k - 1]}) not reached: {_status_problem(result, output)}")],
            what,
        )
    resume = resume_az if az else resume_ppo
    outcome = "resumed"
    if r.random() < 0.3:  # killed again while resuming (a point past the resume's last: it finishes)
        again = int(r.integers(1, len(points) + 1))
        what += f", then at point {again} while resuming"
        result = resume(run, output, kill=again)
        if result.status == -9:
            outcome = "resumed after two kills"
            result = resume(run, output)
    else:
        result = resume(run, output)
    if result.status != 0:
        kind_ = "refused" if result.status == 2 else "hang" if result.timed_out else "traceback"
        return kind_, [(kind_, f"resuming a killed run: {_status_problem(result, output)}")], what
    found = az_problems(refs.az_ref, run, True, True) if az else ppo_problems(refs.ppo_ref, run, True)
    problems = [("inconsistent", p) for p in found]
    if not problems:
        shutil.rmtree(run, ignore_errors=True)
        output.unlink(missing_ok=True)
    return outcome, problems, what


def run_try(kind: str, seed: int, refs: References, work: Path) -> tuple[str, list, str]:
    """One try of a damage or kill kind (see :data:`KINDS`; the names kinds are
    :func:`boardgames.benchmarks.fuzz.run_names.names_try`): ``(outcome, problems, what was done)``."""
    return (kill_try if kind.endswith("kill") else damage_try)(kind, seed, refs, work)
