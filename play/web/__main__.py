"""Serve a game (and replays) in the browser: a local web server and its page.

    boardgames web --game barc --opponent models/barc        # prints http://127.0.0.1:8765/
    boardgames web --game dorix --players 4 --opponent mcts:400 --seat 1
    boardgames web --replay game.txt                         # prints the replay's URL

The page draws the board, takes your moves by clicking, says whom you play and who is thinking, and
ends with who won and the rule that ended the game. Every other seat is played by --opponent (any
agent spec). --replay FILE opens a move list (a --save-moves file) in the replay viewer; with only
--replay, the game is the one the file's first line names and the URL printed is the replay's. It is
``boardgames play ... --web`` with the browser's options only (see boardgames.play.web)."""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv=None) -> int:
    """``boardgames web``: the server of :func:`boardgames.play.web.serve` from the command line."""
    # imported here, not at the top: boardgames.play.cli imports boardgames.play.web
    from boardgames.play.cli import build_parser
    from boardgames.play.cli import main as play_main

    args = list(sys.argv[1:] if argv is None else argv)
    if "--game" not in args and not any(a.startswith("--game=") for a in args) and "--replay" in args:
        args = _game_of_replay(args) + ["--replay-only"]
    return play_main(args, parser=build_parser(web=True))


def _game_of_replay(args: list) -> list:
    """``args`` with ``--game`` (and ``--players``) taken from the first ``--replay`` file's header."""
    import json

    from boardgames.play.web.session import MoveRefused, ReplaySession

    at = args.index("--replay") + 1
    if at >= len(args):
        raise SystemExit("error: --replay needs the path of a move list")
    path = args[at]
    try:
        replay = ReplaySession.from_text(Path(path).read_text())
    except (OSError, MoveRefused) as e:
        raise SystemExit(f"error: {e}") from None
    options = replay.record.game.info.options
    extra = ["--game", replay.record.game.info.name]
    if "num_players" in options:
        extra += ["--players", str(options["num_players"])]
    for key, value in options.items():
        if key != "num_players":
            extra += ["--option", f"{key}={json.dumps(value)}"]
    return extra + args


if __name__ == "__main__":
    sys.exit(main())
