"""``boardgames``: the command line of the library, one subcommand per job.

    boardgames train --game dorix --players 2 --steps 200000
    boardgames evaluate --game dorix --agents models/dorix_2p random --games 200
    boardgames play --game olix --opponent models/olix_az
    boardgames --help
    boardgames --version

Each subcommand is the ``main`` of a module that also runs as ``python -m <module>``; the module is imported
only when its subcommand runs, so ``boardgames --help`` answers at once.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "train": ("boardgames.training.sb3.train", "train a PPO agent (Stable-Baselines3 / sb3-contrib MaskablePPO)"),
    "evaluate": ("boardgames.training.evaluation.evaluate", "play agents against each other: win rates, Elo"),
    "play": ("boardgames.play.cli", "play a game against an agent: terminal, window (--gui), browser (--web)"),
    "web": ("boardgames.play.web.__main__", "serve games and replays in the browser"),
    "leaderboard": ("boardgames.training.evaluation.leaderboard", "rank every agent of a game in a round robin"),
    "alphazero": ("boardgames.training.alphazero.__main__", "train an AlphaZero agent (compiled search)"),
    "rllib": ("boardgames.training.rllib.train", "train with Ray RLlib, on one machine or a cluster"),
    "replay": ("boardgames.envs.tools.replay", "replay a saved move list: text, GIF"),
    "demo": ("boardgames.training.demo", "train and evaluate a small agent, with a progress bar"),
    "bench": ("boardgames.benchmarks.run", "measure the speed of every game and of its peers"),
    "exploit": ("boardgames.training.evaluation.exploit", "how much a Barc agent can be exploited: best reply, LP"),
}
"""Subcommand -> (module whose ``main(argv)`` runs it, what it is for)."""


def usage() -> str:
    """The text of ``boardgames --help``: every subcommand and what it is for."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name.ljust(width)}  {about}" for name, (_, about) in COMMANDS.items()]
    return (
        "usage: boardgames <command> [options]   (boardgames <command> --help for a command's options)\n"
        "       boardgames --version                 (the package version)\n\n"
        "commands:\n" + "\n".join(lines) + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand ``argv[0]`` with the rest of ``argv``; its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage(), end="")
        return 0
    if args[0] in ("-V", "--version"):
        from boardgames import __version__

        print(f"boardgames {__version__}")
        return 0
    if args[0] not in COMMANDS:
        print(f"boardgames: unknown command {args[0]!r}\n\n{usage()}", end="", file=sys.stderr)
        return 2
    module, _ = COMMANDS[args[0]]
    sys.argv[0] = f"boardgames {args[0]}"
    result = importlib.import_module(module).main(args[1:])
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
