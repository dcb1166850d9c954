"""The batched environments' threads on a quiet, a loaded and a torch-sharing machine:

    python -m boardgames.benchmarks.loaded_threads [--games dorix olix adix barc] [--sizes 256 1024]
                                                   [--seconds 0.2] [--rounds 8] [--out FILE.json]

Env-steps per second of :class:`boardgames.envs.vector.BatchedVectorEnv` (``opponent="random"``; the learner
plays its first legal action, the same cheap choice for every setting) with its default
``threads="auto"``, the same default deciding by timing alone (``auto, timing only``: the load average is
not read, as if the cores were idle: what its trials of threads catch by themselves), with ``threads=False``
(serial) and with ``threads=K``, every core of numba's pool (what ``threads=True`` asks for when torch is not
imported), in three scenarios, one after the other:

* ``as is``: the machine as it is (other jobs included);
* ``loaded``: with one extra CPU-bound process per core this process may run on, started by this script
  (a Python busy loop each) and stopped after;
* ``torch``: with a torch learner in this process: a Python thread doing 512x512 matmuls without pause on
  torch's default number of threads (torch is imported for this scenario only, after the others, since
  importing it changes the default's rule).

Each setting gets a fresh environment per scenario (the default's choice starts afresh: its first trial
of threads is part of its figure), a few warm-up steps (compiling the threaded loop once), then
``--rounds`` rounds of ``--seconds`` each, the settings alternating within each round; the figure is all
steps over all the time (not the best round: the load is part of what is measured). Prints a markdown
table (docs/performance.md, "Threads on a loaded machine") and the load average before each scenario.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import threading
import time
from typing import Any

SCENARIOS = ("as is", "loaded", "torch")


def _busy() -> None:
    """One core's worth of other work: a pure Python loop, until terminated."""
    while True:
        pass


class Matmuls:
    """A torch learner beside the environments: matmuls in a Python thread on torch's default threads."""

    def __init__(self):
        import torch

        self.torch = torch
        self.stop = threading.Event()
        self.products = 0
        self.seconds = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        a = self.torch.randn(512, 512)
        start = time.perf_counter()
        while not self.stop.is_set():
            a = self.torch.tanh(a @ a)  # torch releases the GIL in the matmul
            self.products += 1
        self.seconds = time.perf_counter() - start

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()


class BusyCores:
    """One busy process per core, started on entry and terminated on exit."""

    def __init__(self, count: int):
        context = multiprocessing.get_context("spawn")  # not fork: this process has numba's threads
        self.processes = [context.Process(target=_busy, daemon=True) for _ in range(count)]

    def __enter__(self):
        for p in self.processes:
            p.start()
        time.sleep(0.5)  # let them start spinning
        return self

    def __exit__(self, *_):
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.join()


TIMING_ONLY = "auto, timing only"


def settings(pool: int) -> dict:
    """The ``threads`` values compared, by column name."""
    return {"default (auto)": "auto", TIMING_ONLY: "auto", "threads=False": False, f"threads={pool}": pool}


def idle_machine(own_load: float):
    """The machine as ``threads="auto"`` reads it, but its load only this process's own."""
    from boardgames.envs.vector.threads import machine_now

    return dataclasses.replace(machine_now(own_load), load=own_load)


class Cell:
    """One environment of one setting, stepped for a while at a time; counts its env-steps and seconds."""

    def __init__(self, game: str, size: int, threads, timing_only: bool = False):
        from boardgames.envs.vector import BatchedVectorEnv

        # SAME_STEP, as when the figures of docs/performance.md were measured (NEXT_STEP adds a restart step)
        self.envs = BatchedVectorEnv(
            game, num_envs=size, opponent="random", seed=0, threads=threads, autoreset_mode="same_step"
        )
        if timing_only and self.envs.batch._chooser is not None:
            self.envs.batch._chooser._machine = idle_machine
        _, infos = self.envs.reset(seed=0)
        self.masks = infos["action_mask"]
        self.steps = 0
        self.seconds = 0.0
        self.products = 0  # the torch learner's matmuls meanwhile
        self.run(0.0, warmup=3)

    def run(self, seconds: float, warmup: int = 0, learner: Matmuls | None = None) -> None:
        envs = self.envs
        products = learner.products if learner is not None else 0
        start = time.perf_counter()
        steps = 0
        while steps < warmup or (not warmup and time.perf_counter() - start < seconds):
            *_, infos = envs.step(self.masks.argmax(axis=1))
            self.masks = infos["action_mask"]
            steps += 1
        if not warmup:
            self.steps += steps * envs.num_envs
            self.seconds += time.perf_counter() - start
            if learner is not None:
                self.products += learner.products - products

    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    def threads_now(self) -> int:
        """The threads the last step ran on."""
        batch = self.envs.batch
        return batch._chooser.count if batch._chooser is not None else batch.threads


def measure(games, sizes, seconds: float, rounds: int, columns: dict, learner: Matmuls | None = None) -> dict:
    """Env-steps/s of each column for each game and size; settings alternate within each round (and with a
    ``learner``, its matmuls/s meanwhile)."""
    out = {}
    for game in games:
        for size in sizes:
            cells = {name: Cell(game, size, threads, name == TIMING_ONLY) for name, threads in columns.items()}
            for r in range(rounds):
                order = list(cells) if r % 2 == 0 else list(cells)[::-1]
                for name in order:
                    cells[name].run(seconds, learner=learner)
            out[f"{game} {size}"] = {name: cell.rate() for name, cell in cells.items()}
            if learner is not None:
                for name, cell in cells.items():
                    out[f"{game} {size}"][f"{name}: torch matmuls/s"] = cell.products / cell.seconds
            for name in ("default (auto)", TIMING_ONLY):
                out[f"{game} {size}"][f"{name}: threads at the end"] = cells[name].threads_now()
            del cells
            print(f"  {game} {size}: " + ", ".join(f"{k} {v:,.0f}" for k, v in out[f"{game} {size}"].items()))
    return out


def table(results: dict, columns: list) -> str:
    lines = [
        "| scenario | game | games | " + " | ".join(columns) + " | default / False |",
        "| --- | --- | ---: |" + " ---: |" * (len(columns) + 1),
    ]
    serial = columns.index("threads=False")
    for scenario, rows in results["scenarios"].items():
        for key, row in rows.items():
            game, size = key.split()
            ratio = row[columns[0]] / row[columns[serial]] if row[columns[serial]] else float("nan")
            figures = " | ".join(f"{row[c]:,.0f}" for c in columns)
            lines.append(f"| {scenario} | {game} | {size} | {figures} | {ratio:.2f}x |")
    torch_rows = results["scenarios"].get("torch", {})
    if torch_rows:
        lines += ["", "The torch learner's matmuls per second meanwhile:", ""]
        lines += ["| game | games | " + " | ".join(columns) + " |", "| --- | ---: |" + " ---: |" * len(columns)]
        for key, row in torch_rows.items():
            game, size = key.split()
            rates = " | ".join(f"{row[c + ': torch matmuls/s']:.0f}" for c in columns)
            lines.append(f"| {game} | {size} | {rates} |")
    return "\n".join(lines)


def main(argv=None) -> dict:
    from boardgames.envs.vector.threads import available_cores, numba_threads

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["dorix", "olix", "adix", "barc"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[256, 1024])
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds per setting and round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS), choices=SCENARIOS)
    parser.add_argument("--out", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    cores = available_cores()
    pool = numba_threads()
    columns = settings(pool)
    results: dict[str, Any] = {
        "cores": cores,
        "numba_pool": pool,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "scenarios": {},
    }
    results["load_before"] = {}
    started = time.perf_counter()
    for scenario in SCENARIOS:  # torch last: importing it changes the default's rule
        if scenario not in args.scenarios:
            continue
        load = os.getloadavg()[0]
        print(f"{scenario} (load average {load:.2f}, {cores} cores):", flush=True)
        results["load_before"][scenario] = load
        if scenario == "loaded":
            with BusyCores(cores):
                figures = measure(args.games, args.sizes, args.seconds, args.rounds, columns)
        elif scenario == "torch":
            with Matmuls() as learner:
                figures = measure(args.games, args.sizes, args.seconds, args.rounds, columns, learner)
            results["torch_threads"] = learner.torch.get_num_threads()
            results["torch_matmuls_per_s"] = learner.products / max(learner.seconds, 1e-9)
        else:
            figures = measure(args.games, args.sizes, args.seconds, args.rounds, columns)
        results["scenarios"][scenario] = figures
        results.setdefault("load_after", {})[scenario] = os.getloadavg()[0]
    results["seconds"] = round(time.perf_counter() - started, 1)
    print()
    print(table(results, list(columns)))
    print(
        f"\n{results['date']}, {cores} cores, numba's pool {pool}; load average before and after each scenario: "
        + ", ".join(f"{k} {v:.2f} / {results['load_after'][k]:.2f}" for k, v in results["load_before"].items())
        + f"; {results['seconds']:.0f} s"
    )
    if "torch_threads" in results:
        print(f"torch learner: {results['torch_threads']} threads, {results['torch_matmuls_per_s']:.0f} matmuls/s")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    return results


if __name__ == "__main__":
    main()
