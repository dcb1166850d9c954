"""Play any registered game against an agent, in the terminal or in a pygame window.

    boardgames play --game dorix --opponent random
    boardgames play --game dorix --players 3 --opponent greedy --seat 1
    boardgames play --game olix --opponent mcts --gui
    boardgames play --game dorix --opponent models/dorix_2p/model.zip --save-gif game.gif
    boardgames play --game barc --opponent models/barc --web

Terminal: the board is redrawn after every move (``render_text``) with the position in notation;
type a move in the game's notation (``moves`` lists the legal ones, ``help`` explains, ``quit``
stops). An illegal or unreadable move is explained and asked again. It reads moves from standard
input, so a script can drive it (``boardgames play ... < moves.txt``). It says whom you play ("You
play South (light)."), who is thinking, and how the game ended with the rule that ended it ("You won:
North tops only 2 stacks (two stacks or fewer lose)."); an agent's illegal move loses the game.
``--watch``: the agent plays every seat, and the end is said in the third person.

Window (``--gui``): click squares to play (a placement is one click, a move from one square to another
two clicks, a square clicked twice plays the one-square move when a longer one starts there too);
several moves on the same squares are offered as a numbered list (press the number); any move can
also be typed on the keyboard and sent with Enter; right click or Escape clears the selection.

Browser (``--web``, the ``[web]`` extra): a local web server (127.0.0.1 by default, ``--host``,
``--port``; a host open to the network only with ``--allow-remote``) serves a page that draws the board,
takes moves by clicking, and shows the move list, the result and the agent's thinking; ``--replay FILE``
opens a ``--save-moves`` file in its replay viewer (:mod:`boardgames.play.web`). ``boardgames web`` is
the same command.

Opponents: ``random``, ``greedy``, ``mcts`` (the baseline agents of :mod:`boardgames.envs.agents`) or the path of
a saved model. Every seat but yours (``--seat``, default 0) is played by that agent, your partner
included in team games (4-player Dorix). ``--save-moves`` and ``--save-gif`` keep the game as a move
list in notation and as an animated GIF.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import Game, State
from boardgames.envs.registry import make_game
from boardgames.envs.tools.replay import GameRecord, parse_move
from boardgames.play.ending import end_line, forfeit
from boardgames.play.moves import (  # noqa: F401  (re-exported: the player's helpers)
    agent_label,
    get_ready,
    illegal_choice,
    legal_move_texts,
    make_opponent,
    opponent_move,
    random_policy,
    record_label,
    result_text,
    thinking_text,
    thinks,
    timed_opponent_moves,
    warm_up,
)
from boardgames.play.sides import options_text, side_name, title_of, you_play
from boardgames.play.window import (  # noqa: F401  (re-exported: the window's helpers)
    ClickSelector,
    NoDisplayError,
    no_display_message,
    no_display_reason,
    play_window,
    render_with_geometry,
    squares_in,
)
from boardgames.training.cli import add_game_arguments, add_torch_threads_argument, apply_torch_threads, game_options_of

HELP = (
    "Type a move in the game's notation, then Enter.\n"
    "Commands: 'moves' lists your legal moves, 'position' prints the position in notation, "
    "'help' shows this, 'quit' stops the game."
)


def rules_page(name: str, root: Path | None = None) -> Path | None:
    """The rules page of game ``name`` (``docs/rules/<name>.md``) when the package runs from a source
    checkout (``root``: the checkout's folder, found from the package by default), else None: an
    installed wheel holds no ``docs/``."""
    import boardgames

    root = Path(boardgames.__file__).resolve().parent.parent if root is None else root
    page = root / "docs" / "rules" / f"{name}.md"
    return page if page.is_file() else None


def rules_help(name: str, root: Path | None = None) -> str:
    """Where the player reads the rules of game ``name``: its rules page in a source checkout; without
    one (an installed wheel), the rules in short from its environment module's documentation and the
    command that shows that documentation with the notation."""
    from boardgames.envs.registry import env_module

    page = rules_page(name, root)
    if page is not None:
        return f"The rules of {name}, with the notation: {page}"
    module = env_module(name)
    paragraphs = [p.strip() for p in (module.__doc__ or "").split("\n\n")]
    summary = next((p for p in paragraphs[1:] if p and not p.startswith("|")), "")
    summary = re.sub(r"\s*Full rules with the rulings: `[^`]*`\.", "", " ".join(summary.split()))
    return (
        textwrap.fill(f"The rules of {name} in short: {summary}", 100) + "\n"
        f"The notation and the rest of its documentation: python -m pydoc {module.__name__}"
    )


# ----- terminal -----------------------------------------------------------------------------------
def play_terminal(
    game: Game,
    policies: dict,
    human_seats: set,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] | None = None,
    start: State | None = None,
) -> GameRecord:
    """Play a game in the terminal; returns its record. ``read(prompt)`` gives the human's lines
    (``input`` by default); EOF or ``quit`` stops the game early. ``write(line)`` shows a line (printed
    at once by default); before the move of an agent that searches or runs a network the player reads
    ``North (barc_az) is thinking…``, and after it the seconds it took. The end is said with the rule
    that ended the game, to the human (``You won: ...``) or, when every seat is an agent, in the
    third person (``South (barc_az) won: ...``); an agent's illegal move loses the game."""
    write = write or _say
    record = GameRecord(start if start is not None else game.new_initial_state())
    state = record.last
    while not state.is_terminal():
        write("")
        write(state.render_text())
        write(f"position: {state.to_text()}")
        chosen = _human_moves(state, human_seats, read, write)
        if chosen is None:
            write("Game stopped.")
            return record
        thinking = thinking_text(state, human_seats, policies)
        if thinking:
            write(thinking)
        seconds, bad = timed_opponent_moves(state, human_seats, policies, chosen)
        took = f"  ({seconds:.1f} s)" if thinking else ""
        if bad is not None:
            ending = forfeit(state, bad[0], bad[1], agent_label(policies[bad[0]]))
            write(end_line(ending, game.info, *_viewer(human_seats, policies)))
            return record
        label = record_label(state, chosen)
        state = record.play(chosen)
        write(f"{len(record)}. {label}{took}")
    write("")
    write(state.render_text())
    write(result_text(state, *_viewer(human_seats, policies)))
    return record


def _say(line: str = "") -> None:
    print(line, flush=True)  # at once, a pipe included: "... is thinking" is read while the agent thinks


def _viewer(human_seats: set, policies: dict) -> tuple:
    """``(seat, agents)`` the end is said to: the one human's seat, else nobody (the third person) with
    the agents' names."""
    if len(human_seats) == 1:
        return next(iter(human_seats)), None
    return None, {s: agent_label(p) for s, p in policies.items()}


def _human_moves(state: State, human_seats: set, read, write) -> dict | None:
    """``{seat: action}`` of the human seats acting in ``state``, asked in turn; None when the human
    stops the game."""
    chosen = {}
    for seat in state.current_seats():
        if seat in human_seats:
            action = _ask_move(state, seat, read, write)
            if action is None:
                return None
            chosen[seat] = action
    return chosen


def _ask_move(state: State, seat: int, read, write) -> int | None:
    info = state.game.info
    what = "order" if info.simultaneous else "move"
    write(f"Your {what}, {side_name(info, seat)} (a move in notation, 'moves', 'help' or 'quit'):")
    while True:
        try:
            line = read("> ")
        except EOFError:
            return None
        text = line.strip()
        if not text:
            continue
        command = text.lower()
        if command in ("quit", "exit", "q"):
            return None
        if command in ("help", "?"):
            write(HELP)
            write(rules_help(state.game.info.name))
            continue
        if command in ("moves", "legal"):
            write("legal moves: " + " ".join(legal_move_texts(state, seat)))
            continue
        if command == "position":
            write(state.to_text())
            continue
        try:
            return parse_move(state, text, seat)
        except (IllegalActionError, NotationError) as e:
            write(f"Illegal move: {e}")
            write("Try again ('moves' lists the legal moves).")


def intro_line(game: Game, opponent: str, seat: int | None) -> str:
    """The line a game starts with: ``Barc duel — you against barc_az (start alternating, max_turns 200).
    You play South (light).``; ``seat`` None: the agent plays every seat (watching)."""
    info = game.info
    who = f"{opponent} against itself" if seat is None else f"you against {opponent}"
    line = f"{title_of(info)} — {who} ({options_text(info)})."
    return line if seat is None else f"{line} {you_play(info, seat)}"


# ----- command line -------------------------------------------------------------------------------
def build_parser(web: bool = False) -> argparse.ArgumentParser:
    """The options of ``boardgames play``; ``web``: those of ``boardgames web`` (its own name, help and
    options: the browser's, without the terminal's and the window's)."""
    doc = _web_doc() if web else __doc__
    p = argparse.ArgumentParser(
        prog="boardgames web" if web else "boardgames play",
        description=doc.split("\n\n")[0],
        epilog="\n\n".join(doc.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p, default=None)
    p.add_argument(
        "--opponent",
        default="random",
        help="random, greedy, mcts, mcts:<simulations>, smmcts:<simulations>[:options] (Barc: "
        "smmcts:6400:heuristic:t0.33 mixes its orders) or a saved model",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (0 moves first)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--position", default=None, help="start from this position (in notation)")
    if not web:
        p.add_argument("--gui", action="store_true", help="play in a pygame window with the mouse")
        p.add_argument("--watch", action="store_true", help="watch: --opponent plays every seat (terminal, window)")
        p.add_argument("--save-gif", default=None, metavar="PATH", help="save the game as an animated GIF")
        p.add_argument("--save-moves", default=None, metavar="PATH", help="save the move list in notation")
    add_torch_threads_argument(p)
    _add_browser_arguments(p, web)
    if web:
        p.set_defaults(web=True, gui=False, watch=False, save_gif=None, save_moves=None)
        game = next(a for a in p._actions if a.dest == "game")
        game.required, game.help = False, f"{game.help} (required unless --replay names the game)"
    return p


def _web_doc() -> str:
    """The docstring of ``boardgames web`` (play/web/__main__.py), read from its file: that module imports this
    one to run, so importing it here would make a loop."""
    import ast

    return ast.get_docstring(ast.parse((Path(__file__).parent / "web" / "__main__.py").read_text())) or ""


def _add_browser_arguments(p: argparse.ArgumentParser, web: bool) -> None:
    """The browser's options (a group of their own in ``boardgames play``)."""
    group = p.add_argument_group("browser" if web else "browser (--web)")
    if not web:
        group.add_argument(
            "--web", action="store_true", help="play in the browser: start a local web server, print its URL"
        )
    group.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address it listens on (default 127.0.0.1; ::1 and localhost are loopback too)",
    )
    group.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host open to the network (prints a warning; every request then needs the "
        "token in the URL printed)",
    )
    group.add_argument("--port", type=int, default=8765, help="its port (default 8765; 0: a free one)")
    group.add_argument(
        "--max-games",
        type=int,
        default=64,
        help="the most games the server holds (default 64); games in progress are never dropped: "
        "past it, new ones are refused until a game is finished or abandoned",
    )
    group.add_argument(
        "--idle-minutes",
        type=float,
        default=30.0,
        help="minutes without a request after which a game counts as abandoned (default 30)",
    )
    group.add_argument(
        "--finished-minutes",
        type=float,
        default=10.0,
        help="minutes a finished game stays readable after its last request (default 10), unless the "
        "browser that played it starts another game on a full server",
    )
    group.add_argument(
        "--replay",
        action="append",
        default=[],
        metavar="PATH",
        help="a --save-moves file to open in the replay viewer (repeatable)",
    )
    group.add_argument("--open", action="store_true", help="open the page in the default browser")
    group.add_argument("--replay-only", action="store_true", help=argparse.SUPPRESS)


def main(argv=None, parser: argparse.ArgumentParser | None = None) -> int:
    """``boardgames play`` (``parser``: another command's options, ``boardgames web``'s)."""
    parser = parser or build_parser()
    args = parser.parse_args(argv)
    if args.game is None:
        parser.error("the following arguments are required: --game")
    apply_torch_threads(parser, args)
    if args.gui and not (args.web or args.replay) and (reason := no_display_reason()):
        print(f"error: {no_display_message(reason)}", file=sys.stderr)
        return 2
    try:
        options = game_options_of(args)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    try:
        game = make_game(args.game, **options)
        if not 0 <= args.seat < game.info.num_seats:
            raise GameOptionError(f"--seat must be in 0..{game.info.num_seats - 1}")
        start = game.from_text(args.position) if args.position else None
        opponent = None if args.web or args.replay else make_opponent(args.opponent, game, args.seed)
    except (GameOptionError, NotationError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.web or args.replay:
        if args.watch:
            print("error: --watch is for the terminal and the window (--gui), not the browser", file=sys.stderr)
            return 2
        return _serve(args, game, start)
    humans = set() if args.watch else {args.seat}
    policies = {s: opponent for s in range(game.info.num_seats) if s not in humans}
    print(intro_line(game, args.opponent, None if args.watch else args.seat))
    get_ready(opponent, args.opponent, start if start is not None else game.new_initial_state())
    if args.gui:
        try:
            record = play_window(game, policies, humans, start)
        except NoDisplayError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    else:
        record = play_terminal(game, policies, humans, start=start)
    if args.save_moves:
        with open(args.save_moves, "w") as fh:
            fh.write(record.to_text())
        print(f"move list saved to {args.save_moves}")
    if args.save_gif:
        record.save_gif(args.save_gif)
        print(f"GIF saved to {args.save_gif}")
    return 0


def _serve(args, game: Game, start: State | None) -> int:
    """``--web``: serve the game and the ``--replay`` files in the browser
    (:func:`boardgames.play.web.serve`)."""
    try:
        from boardgames.play.web import serve
        from boardgames.play.web.session import MoveRefused
    except ImportError as e:
        print(f"error: --web needs the web extra (pip install -e '.[web]'): {e}", file=sys.stderr)
        return 2
    try:
        serve(
            game,
            args.opponent,
            args.seat,
            args.seed,
            start,
            args.replay,
            args.host,
            args.port,
            args.open,
            allow_remote=args.allow_remote,
            max_games=args.max_games,
            idle_minutes=args.idle_minutes,
            finished_minutes=args.finished_minutes,
            replay_only=args.replay_only,
        )
    except (GameOptionError, MoveRefused, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
