"""``boardgames alphazero``: train an AlphaZero agent (see :mod:`boardgames.training.alphazero.train`).

Examples::

    boardgames alphazero --game dorix --players 2 --run-dir runs/az_dorix_2p --iterations 60
    boardgames alphazero --game dorix --players 2 --run-dir runs/az_dorix_2p --iterations 120 --resume
    boardgames alphazero --game olix --run-dir runs/az_olix --set alphazero.simulations=32 \\
        --save models/olix_az
    boardgames alphazero --game dorix --players 2 --run-dir runs/az_dorix_2p --actors 8 --address auto
"""

from __future__ import annotations

import argparse
import sys
import time

from boardgames.training.cli import add_game_arguments, add_torch_threads_argument, game_options_of, positive_int
from boardgames.training.run.options import section_sets
from boardgames.training.settings import SettingError
from boardgames.training.torch_threads import use_torch_threads


def main(argv: list | None = None) -> None:
    started = time.perf_counter()
    p = argparse.ArgumentParser(prog="boardgames alphazero", description=__doc__.split("\n\n")[0])
    add_game_arguments(p)
    p.add_argument("--run-dir", required=True, help="folder of the run's checkpoint, buffer, TensorBoard logs")
    p.add_argument("--iterations", type=positive_int, default=None, help="total iterations (alphazero.iterations)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resume", action="store_true", help="continue from the run folder's checkpoint")
    p.add_argument("--save", default=None, help="also write the final network as an agent folder here")
    p.add_argument("--set", action="append", default=[], metavar="alphazero.KEY=VALUE", help="a setting")
    p.add_argument("--no-progress", action="store_true", help="a line per iteration instead of a progress bar")
    p.add_argument(
        "--actors",
        type=positive_int,
        default=None,
        help="self-play in this many Ray actors, one CPU each (needs the rllib extra; default: in this process)",
    )
    p.add_argument(
        "--address", default=None, help="with --actors: an existing Ray cluster, 'auto' or HOST:PORT (default: local)"
    )
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    from boardgames.training.alphazero.train import AlphaZeroRun, load_settings  # torch: after the arguments

    try:
        sets = section_sets(args.set, "alphazero", "AlphaZero")
        if args.iterations is not None:
            sets["iterations"] = args.iterations
        if args.torch_threads is not None or "threads" not in sets:  # alphazero.threads: the run's record
            sets["threads"] = use_torch_threads(args.torch_threads)
        options = game_options_of(args)
        settings = load_settings(args.game, options, sets)
        run = AlphaZeroRun(args.game, options, settings, args.run_dir, seed=args.seed)
        if args.resume:
            run.load_checkpoint()
        if args.address is not None and not args.actors:
            raise SettingError("--address is the Ray cluster of the self-play actors: give --actors N too")
        if args.actors:
            from boardgames.training.alphazero.actors import start_actors

            run.use_actors(start_actors(run, args.actors, args.address))
    except (SettingError, ValueError) as e:
        p.print_usage(sys.stderr)
        p.exit(2, f"{p.prog}: error: {e}\n")
    first_iteration = run.iteration
    try:
        run.run(progress=not args.no_progress, argv=argv)
        run.write_run_json(argv)
    finally:
        if run.actors is not None:
            run.actors.close()
    if args.save:
        folder = run.save_model(args.save)
        print(f"saved {folder}")
    for line in run.summary(time.perf_counter() - started, first_iteration):
        print(line)
    print(f"latest network: {run.run_dir / 'latest'}; TensorBoard: tensorboard --logdir {run.run_dir / 'tb'}")


if __name__ == "__main__":
    main()
