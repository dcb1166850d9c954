"""Replays of any game: a game record (start position + moves), its move list in notation, and an
animated GIF with one frame per position.

A :class:`GameRecord` holds a start state and the moves played from it: one action per turn for
turn-based games, one tuple of actions (one per seat) per turn when every seat acts at once. Records are
made from a list of states (``GameRecord.from_states``), from moves in notation
(``GameRecord.from_moves`` / ``GameRecord.from_text``) or by playing (``record.play(action)``).

The move list format (``record.to_text()``, read back by ``GameRecord.from_text``)::

    # dorix {"num_players": 2, "max_turns": 200}
    # start: dorix -.-.-.-/... hands=13,13 move=0 turn=0      (only when not the usual start)
    1. player_0: b2
    2. player_1: c3
    ...
    # result: player_0 +1, player_1 -1

Games where every seat acts at once write each seat's order on the turn's line: ``1. player_0: c1-c2 | player_1: d6``.
Lines starting with ``#`` are comments to ``GameRecord.from_text`` (the result is informative only); the header
names the game for ``boardgames replay`` and the browser's replay viewer (:func:`read_header`, :func:`game_of_list`).
The ``N.`` numbers and ``player_k:`` labels may be left out when reading.

``save_gif(record_or_states, path)`` writes the pictures of ``State.render_rgb()`` as an animated GIF
with a caption under each frame naming the move that led to it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from itertools import product

import numpy as np
from PIL import Image, ImageDraw

from boardgames.envs.agents.play import play_game
from boardgames.envs.core.errors import IllegalActionError, NotationError
from boardgames.envs.core.game import JOINT_SEPARATOR, Game, State
from boardgames.envs.core.rendering import BACKGROUND, TEXT, font


def parse_move(state: State, text: str, seat: int | None = None) -> int:
    """The action written ``text`` for ``seat`` (default: the seat to act) in ``state``.

    Raises :class:`IllegalActionError` naming the problem when the move is malformed or illegal."""
    action = state.text_to_action(text, seat)
    if seat is not None and not state.legal_mask(seat)[action]:
        name = state.game.info.seat_names[seat]
        raise IllegalActionError(f"move {text!r} is not legal for {name} here")
    return int(action)


def move_text(state: State, move, seat: int | None = None) -> str:
    """The notation of ``move`` in ``state``: one action (of ``seat``, default the seat to act), or a
    whole decision (``{seat: action}`` or one action per seat) of several seats, written
    ``player_0: <move> | player_1: <move>``."""
    if np.ndim(move) == 0 and not isinstance(move, dict):
        return state.action_to_text(int(move), seat)
    decision = state.decision(move)
    if len(decision) == 1:
        ((s, a),) = decision.items()
        return state.action_to_text(a, s)
    return labelled_move(state, decision)


def labelled_move(state: State, move) -> str:
    """``player_k: <move>`` for each seat of ``move`` (see :meth:`State.decision`) in seat order,
    joined by ``|``: a line of a move list."""
    names = state.game.info.seat_names
    return JOINT_SEPARATOR.join(
        f"{names[s]}: {state.action_to_text(a, s)}" for s, a in sorted(state.decision(move).items())
    )


def _game_line(game: Game) -> str:
    return f"# {game.info.name} {json.dumps(game.info.options, sort_keys=True)}"


class GameRecord:
    """A game: the start state and the moves played from it (see the module docstring)."""

    def __init__(self, start: State, moves: Iterable = ()):
        self.game = start.game
        self.start = start.clone()
        self.moves: list = []
        self._states = [self.start.clone()]
        for move in moves:
            self.play(move)

    # building ---------------------------------------------------------------------------------
    def play(self, move) -> State:
        """Play ``move`` (an action, or one action per seat when several act; see :meth:`State.decision`) from the last
        position; returns the new position. Raises IllegalActionError for an illegal move."""
        state = self._states[-1].clone()
        decision = state.decision(move)
        record_form = state.move_of(decision)
        state.apply_actions(decision)
        self.moves.append(record_form)
        self._states.append(state)
        return state

    @classmethod
    def from_moves(cls, game: Game, moves: Sequence, start: State | str | None = None) -> GameRecord:
        """A record from moves in notation: each move a string (for a decision of several seats, a string
        ``"a | b"`` or a sequence with one order per seat) or an action index."""
        record = cls(_start_state(game, start))
        for i, move in enumerate(moves):
            state = record.last
            try:
                if isinstance(move, str):
                    parsed: dict | int | tuple = record._parse_turn(state, move)
                elif np.ndim(move) == 0:
                    parsed = int(move)
                else:  # one order per seat, each a string or an action
                    parsed = tuple(
                        parse_move(state, m, s) if isinstance(m, str) else int(m) for s, m in enumerate(move)
                    )
                record.play(parsed)
            except (IllegalActionError, NotationError) as e:
                raise IllegalActionError(f"move {i + 1} ({move!r}): {e}") from None
        return record

    @classmethod
    def from_text(cls, game: Game, text: str, start: State | str | None = None) -> GameRecord:
        """Read a move list written by :meth:`to_text` (a ``# start:`` comment sets the start
        position unless ``start`` is given)."""
        moves = []
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("#"):
                body = line[1:].strip()
                if body.startswith("start:") and start is None:
                    start = body[len("start:") :].strip()
                continue
            line = re.sub(r"^\d+\s*\.\s*", "", line)
            if line:
                moves.append(line)
        return cls.from_moves(game, moves, start)

    @classmethod
    def from_states(cls, states: Sequence[State]) -> GameRecord:
        """A record from consecutive positions: finds the move leading from each to the next."""
        if not states:
            raise ValueError("from_states needs at least one state")
        record = cls(states[0])
        for i in range(1, len(states)):
            prev, nxt = states[i - 1], states[i]
            move = _find_move(prev, nxt)
            if move is None:
                raise IllegalActionError(f"no legal move leads from position {i - 1} to position {i}")
            record.play(move)
        return record

    def _parse_turn(self, state: State, text: str) -> dict:
        """The decision written ``text``: one move per acting seat, separated by ``|``, each
        optionally prefixed by ``player_k:``."""
        info = self.game.info
        seats = state.current_seats()
        if len(seats) == 1:
            return {seats[0]: parse_move(state, _strip_seat(text, info.seat_names))}
        parts = text.split(JOINT_SEPARATOR.strip())
        if len(parts) != len(seats):
            raise IllegalActionError(f"a turn of {info.name} has {len(seats)} orders separated by '|', got {text!r}")
        return {s: parse_move(state, _strip_seat(p, info.seat_names), s) for s, p in zip(seats, parts)}

    # reading ----------------------------------------------------------------------------------
    @property
    def last(self) -> State:
        """The position after the last move (a copy)."""
        return self._states[-1].clone()

    def states(self) -> list[State]:
        """Every position: the start, then the one after each move (copies)."""
        return [s.clone() for s in self._states]

    def __len__(self) -> int:
        return len(self.moves)

    def move_texts(self) -> list[str]:
        """Each move in notation, in the position where it was played (a decision of several seats
        labelled ``player_k: <move>`` per seat)."""
        return [move_text(state, move) for state, move in zip(self._states, self.moves)]

    def mover_labels(self) -> list[str]:
        """``"player_k: <move>"`` for each move, one per acting seat, joined by ``|``."""
        return [labelled_move(state, move) for state, move in zip(self._states, self.moves)]

    def to_text(self) -> str:
        """The move list in notation (see the module docstring)."""
        lines = [_game_line(self.game)]
        if self.start != self.game.new_initial_state():
            lines.append(f"# start: {self.start.to_text()}")
        lines += [f"{i}. {label}" for i, label in enumerate(self.mover_labels(), 1)]
        final = self._states[-1]
        if final.is_terminal():
            names = self.game.info.seat_names
            result = ", ".join(f"{names[s]} {r:+g}" for s, r in enumerate(final.returns()))
            lines.append(f"# result: {result}" + (" (turn limit)" if final.is_truncated() else ""))
        return "\n".join(lines) + "\n"

    def frames(self) -> list[np.ndarray]:
        """One captioned RGB picture per position (see :func:`save_gif`)."""
        labels = ["start"] + [f"{i}. {t}" for i, t in enumerate(self.mover_labels(), 1)]
        pictures = [s.render_rgb() for s in self._states]
        return _captioned(pictures, labels)

    def save_gif(self, path, duration_ms: int = 700, last_ms: int = 2500) -> str:
        """Write the game as an animated GIF, one frame per position; returns the path."""
        return _write_gif(self.frames(), path, duration_ms, last_ms)


def _strip_seat(text: str, seat_names: Sequence[str]) -> str:
    t = text.strip()
    for name in seat_names:
        if t.lower().startswith(name.lower() + ":"):
            return t[len(name) + 1 :].strip()
    return t


def _start_state(game: Game, start: State | str | None) -> State:
    if start is None:
        return game.new_initial_state()
    if isinstance(start, str):
        return game.from_text(start)
    return start.clone()


def _find_move(prev: State, nxt: State):
    """The action (or joint action) that turns ``prev`` into ``nxt``, None when none does."""
    if prev.is_terminal():
        return None
    seats = prev.current_seats()
    for actions in product(*(prev.legal_actions(s) for s in seats)):
        decision = dict(zip(seats, (int(a) for a in actions)))
        trial = prev.clone()
        trial.apply_actions(decision, check=False)
        if trial == nxt:
            return prev.move_of(decision)
    return None


def _captioned(pictures: Sequence[np.ndarray], labels: Sequence[str]) -> list[np.ndarray]:
    """The pictures padded to one size with ``label`` written in a strip under each."""
    h = max(p.shape[0] for p in pictures)
    w = max(p.shape[1] for p in pictures)
    strip = 34
    fnt = font(18)
    out = []
    for pic, label in zip(pictures, labels):
        img = Image.new("RGB", (w, h + strip), BACKGROUND)
        img.paste(Image.fromarray(pic), (0, 0))
        draw = ImageDraw.Draw(img)
        while len(label) > 8 and draw.textlength(label, font=fnt) > w - 20:
            label = label[:-4] + "..."
        draw.text((10, h + strip // 2), label, fill=TEXT, font=fnt, anchor="lm")
        out.append(np.asarray(img, dtype=np.uint8))
    return out


def _write_gif(frames: Sequence[np.ndarray], path, duration_ms: int, last_ms: int) -> str:
    images = [Image.fromarray(f) for f in frames]
    durations = [duration_ms] * len(images)
    durations[-1] = max(duration_ms, last_ms)
    images[0].save(
        str(path),
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return str(path)


def save_gif(game_or_states, path, duration_ms: int = 700, last_ms: int = 2500) -> str:
    """Write a game as an animated GIF with one frame per position (the start, then after each move).

    ``game_or_states`` is a :class:`GameRecord` or a list of consecutive states (any states can be
    shown; the caption names the move when it can be found)."""
    if isinstance(game_or_states, GameRecord):
        return game_or_states.save_gif(path, duration_ms, last_ms)
    states = list(game_or_states)
    if not states:
        raise ValueError("save_gif needs at least one state")
    try:
        return GameRecord.from_states(states).save_gif(path, duration_ms, last_ms)
    except IllegalActionError:
        labels = [f"position {i}" for i in range(len(states))]
        return _write_gif(_captioned([s.render_rgb() for s in states], labels), path, duration_ms, last_ms)


def move_list(game_or_states) -> str:
    """A game (a :class:`GameRecord` or consecutive states) as a move list in notation."""
    record = game_or_states if isinstance(game_or_states, GameRecord) else GameRecord.from_states(list(game_or_states))
    return record.to_text()


def play_record(game: Game, seat_agents: Sequence, start: State | str | None = None, max_moves: int | None = None):
    """A game between agents: ``seat_agents[s]`` is a callable ``(state, seat) -> action`` for seat s
    (the baseline agents of :mod:`boardgames.envs.agents`, or model agents). Returns its :class:`GameRecord` (to
    print as a move list or save as a GIF)."""
    return _record_of(game, seat_agents, start, max_moves)


def random_record(game: Game, seed: int = 0, max_moves: int | None = None, start: State | str | None = None):
    """A game of uniformly random legal moves (for pictures, tests and notebooks)."""
    rng = np.random.default_rng(seed)

    def random_move(state: State, seat: int) -> int:
        return int(rng.choice(state.legal_actions(seat)))

    return _record_of(game, lambda seat: random_move, start, max_moves)


def _record_of(game: Game, agents, start, max_moves: int | None) -> GameRecord:
    """The record of :func:`boardgames.envs.agents.play.play_game` from ``start`` (at most ``max_moves`` moves)."""
    record = GameRecord(_start_state(game, start))
    states, moves = [], []

    def note(state: State, actions: dict) -> None:
        states.append(state.clone())
        moves.append(state.move_of(actions))

    stop = None if max_moves is None else (lambda state: len(moves) >= max_moves)
    final = play_game(record.last, agents, on_decision=note, until=stop)
    record.moves, record._states = moves, states + [final]
    return record


def read_header(text: str) -> tuple[str, dict] | None:
    """The game name and options of a move list's first line ``# <game> {options}`` (as :meth:`GameRecord.to_text`
    writes it); None when the first line is not such a header. A ValueError names the problem when the line names a
    game but its options are not a JSON object."""
    from boardgames.envs.registry import game_names

    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first.startswith("#"):
        return None
    name, _, options = first[1:].strip().partition(" ")
    if name not in game_names():
        return None
    try:
        parsed = json.loads(options) if options.strip() else {}
    except ValueError as e:
        raise ValueError(f"the header {first[:80]!r} has options that are not JSON: {e}") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"the header {first[:80]!r} has options that are not a JSON object")
    return name, parsed


def game_of_list(text: str, game: str | None = None, options: dict | None = None) -> Game:
    """The game a move list is played in: the one its header names (:func:`read_header`), with ``options`` over the
    header's. ``game``, when given, must be the header's game (a ValueError says both otherwise) and is needed only
    for a list without a header."""
    from boardgames.envs.registry import game_names, make_game

    header = read_header(text)
    if header is None:
        if game is None:
            raise ValueError(
                "the move list does not start with '# <game> {options}' (as record.to_text() and --save-moves write "
                f"it): name its game with --game ({', '.join(game_names())})"
            )
        return make_game(game, **(options or {}))
    named, recorded = header
    if game is not None and game != named:
        raise ValueError(f"--game {game} but the move list's header names {named}: leave --game out or fix it")
    return make_game(named, **{**recorded, **(options or {})})


def _replay_parser():
    """The arguments of ``boardgames replay``."""
    import argparse

    from boardgames.envs.registry import game_names

    p = argparse.ArgumentParser(
        prog="boardgames replay",
        description=(
            "Read a move list in notation (a file, or - for standard input), print it back checked and numbered, "
            "and optionally save it as an animated GIF. The game and its options come from the list's first line, "
            "'# <game> {options}', as record.to_text(), 'boardgames play --save-moves' and 'boardgames evaluate "
            "--save-games' write it."
        ),
        epilog="example: boardgames replay game.txt --gif game.gif",
    )
    p.add_argument("moves", help="a move list file in notation, or - for standard input")
    p.add_argument(
        "--game",
        default=None,
        choices=game_names(),
        help="the game, for a list without a header; with a header it must be the header's game",
    )
    p.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option, over the header's"
    )
    p.add_argument("--start", default=None, help="the start position in notation (else the list's # start:)")
    p.add_argument("--gif", default=None, metavar="PATH", help="write the game as an animated GIF")
    p.add_argument("--duration-ms", type=int, default=700, help="time per frame of the GIF, in milliseconds")
    return p


def main(argv=None) -> int:
    """``boardgames replay moves.txt --gif game.gif``: read a move list in notation (a file, or ``-`` for standard
    input; its header names the game), print it back checked and numbered, and save it as an animated GIF."""
    import sys

    from boardgames.envs.core.options import parse_options

    args = _replay_parser().parse_args(argv)
    try:
        options = parse_options(args.option)
        text = sys.stdin.read() if args.moves == "-" else open(args.moves, encoding="utf-8").read()
        record = GameRecord.from_text(game_of_list(text, args.game, options), text, start=args.start)
    except OSError as e:
        print(f"error: cannot read {args.moves}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (IllegalActionError, NotationError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(record.to_text(), end="")
    if args.gif:
        print(f"GIF with {len(record) + 1} frames: {record.save_gif(args.gif, args.duration_ms)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
