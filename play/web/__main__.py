"""``boardgames web``: serve the game (and replays) in the browser; see :mod:`boardgames.play.web`.

It is ``boardgames play ... --web`` (the same options, with the browser ones: ``--replay``,
``--host``, ``--allow-remote``, ``--port``, ``--max-games``, ``--idle-minutes``,
``--finished-minutes``); with only
``--replay FILE``, the game is the one the file's first line names."""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv=None) -> int:
    """``boardgames web``: the server of :func:`serve` from the command line (the options of
    ``boardgames play``, plus ``--replay``, ``--host``, ``--port``)."""
    # imported here, not at the top: boardgames.play.cli imports boardgames.play.web
    from boardgames.play.cli import main as play_main

    args = list(sys.argv[1:] if argv is None else argv)
    if "--game" not in args and not any(a.startswith("--game=") for a in args) and "--replay" in args:
        args = _game_of_replay(args)
    return play_main(args + ["--web"])


def _game_of_replay(args: list) -> list:
    """``args`` with ``--game`` (and ``--players``) taken from the first ``--replay`` file's header."""
    import json

    from boardgames.play.web.session import MoveRefused, ReplaySession

    path = args[args.index("--replay") + 1]
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
