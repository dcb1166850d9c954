"""The games the web server holds, without any web framework: a :class:`PlaySession` (one game between
the human at the page and agents), a :class:`ReplaySession` (a recorded game to step through) and the
:class:`Registry` that keeps a bounded number of each under random ids, never letting go of a game
in progress.

Every change goes through the shared Game/State interface: a human move arrives as an action index or as
notation, is checked by the engine (``legal_mask``, ``text_to_action``) and played with
``apply_actions``; a refused move raises :class:`MoveRefused` (HTTP 4xx with the engine's message) and
leaves the game as it was. The agents' seats are chosen when the server starts (``--opponent``), never
by a request.

When a new game needs room (``limit`` games held), the :class:`Registry` lets one go, in this order:

1. a game nobody plays any more: one in progress without a request for ``idle_timeout`` (30 minutes,
   ``--idle-minutes``: abandoned), or a finished one without a request for ``finished_grace``
   (:data:`FINISHED_GRACE`, 10 minutes, ``--finished-minutes``), the longest without a request first;
2. else a finished game of the browser asking for the new game (its player has moved on: the same
   ``player``, the page's cookie), the longest without a request first;
3. else none: the new game is refused (503) with a message saying why.

So a game in progress with a recent request is never let go, and a finished game stays readable (its
final view and move list) for ``finished_grace`` after its last request, unless its own player starts
another game on a full server. A game let go is logged (one line, logger
``boardgames.play.web.session``) and remembered (:data:`LET_GO_MEMORY` ids) so that a request
for it is answered 404 saying when and why it was let go.
"""

from __future__ import annotations

import json
import logging
import reprlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import Game, State, action_index
from boardgames.envs.registry import game_names, make_game
from boardgames.envs.tools.replay import GameRecord, parse_move
from boardgames.play.ending import Ending, forfeit
from boardgames.play.moves import illegal_choice, record_label, side_labels, thinks
from boardgames.play.sides import options_text, side_name, sides_of, title_of, you_play
from boardgames.play.web.board import board_view, legal_moves, outcome

THINKING_TOP = 8
"""How many of an agent's moves the page lists (the most visited or most probable)."""
MAX_MOVE_TEXT = 64
"""The longest move in notation a request may send (every game's moves are far shorter)."""
MAX_GAMES = 64
"""How many games a server holds at once by default (games in progress, and finished ones: see
:data:`FINISHED_GRACE`)."""
IDLE_TIMEOUT = 30 * 60.0
"""Seconds without a request after which a game in progress counts as abandoned and may be let go to
make room (by default; ``--idle-minutes``)."""
FINISHED_GRACE = 10 * 60.0
"""Seconds a finished game stays readable (its final view and move list) after its last request, however
busy the server (by default; ``--finished-minutes``): within them it is let go only to make room for a new
game of the browser that played it. Past them it goes as readily as an abandoned game."""
LET_GO_MEMORY = 4096
"""How many games let go the server remembers (id, time, reason: a few hundred bytes each), to say so when
one is asked for; past it the oldest are forgotten (and answered as unknown)."""

log = logging.getLogger(__name__)


def duration_text(seconds: float) -> str:
    """A duration in words: "30 minutes", "1 minute", "45 seconds"."""
    if seconds >= 60:
        minutes = seconds / 60
        return "1 minute" if minutes == 1 else f"{minutes:g} minutes"
    return "1 second" if seconds == 1 else f"{seconds:g} seconds"


class MoveRefused(Exception):
    """A request the game refuses; ``status`` is the HTTP status to answer with (400 malformed, 403 not
    the human's seat, 404 unknown, 409 not now, 422 illegal), the message says why."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxdict = 2, 30, 30, 4, 4


def short(value, width: int = 40) -> str:
    """A request's value as quoted in a message: its repr cut to ``width`` characters, at most two levels
    of nesting (a deeply nested value cannot exhaust the stack) and a long number by its size."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        try:
            return f"<a number of {len(str(abs(value)))} digits>"
        except ValueError:  # past Python's limit on int to str conversion
            return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    text = _REPR.repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


class Table:
    """What the server plays, fixed when it starts: the game, the agent spec of every seat the human
    does not take (``opponent``: any spec :func:`boardgames.training.agent_kinds.make_agent` accepts, or an agent), the
    human's default seat and the start position. The agents are built once per human seat and called
    one at a time (``lock``): sessions share them."""

    def __init__(self, game: Game, opponent="random", human_seat: int = 0, seed: int = 0, start: State | None = None):
        n = game.info.num_seats
        if not 0 <= human_seat < n:
            raise GameOptionError(f"the human's seat must be in 0..{n - 1}, got {human_seat}")
        self.game, self.opponent, self.human_seat, self.seed, self.start = game, opponent, human_seat, seed, start
        self.lock = threading.Lock()
        self._agents: dict = {}
        self.agents_for(human_seat)  # a bad spec fails now, not at the first game
        self.agent_name = getattr(self._agents[human_seat][(human_seat + 1) % n], "name", None) or str(opponent)
        self.agent_thinks = any(thinks(a) for a in self._agents[human_seat].values())
        """Whether its agents search or run a network (the page then says they are thinking while they do)."""

    def agents_for(self, human_seat: int) -> dict:
        """``{seat: agent}`` for every seat but ``human_seat`` (built on first use)."""
        from boardgames.training.agent_kinds import make_agent

        if human_seat not in self._agents:
            self._agents[human_seat] = {
                s: make_agent(self.opponent, self.game, seed=self.seed + s)
                for s in range(self.game.info.num_seats)
                if s != human_seat
            }
        return self._agents[human_seat]


def thinking_of(
    agent, state: State, seat: int, top: int = THINKING_TOP, chosen: int | None = None
) -> list[dict] | None:
    """The agent's ``explain(state, seat)`` as ``[{"move", "action", "share"}]``, its ``top`` largest
    shares first, and the ``chosen`` action's row after them when it is not among them (a search's ties
    can leave it out); None for an agent that cannot explain its choice."""
    explain = getattr(agent, "explain", None)
    if explain is None:
        return None
    shares = explain(state, seat)
    best = sorted(shares.items(), key=lambda kv: -kv[1])[:top]
    if chosen is not None and chosen in shares and chosen not in dict(best):
        best.append((chosen, shares[chosen]))
    return [
        {"move": state.action_to_text(int(a), seat), "action": int(a), "share": round(float(s), 4)} for a, s in best
    ]


class PlaySession:
    """One game between the human at the page (``table.human_seat``) and the table's agents."""

    def __init__(self, table: Table, seat: int | None = None):
        self.table = table
        self.game = table.game
        self.seat = table.human_seat if seat is None else seat
        with table.lock:
            self.agents = table.agents_for(self.seat)
        self.record = GameRecord(table.start if table.start is not None else self.game.new_initial_state())
        self.thinking: list = []
        self.last_reveal: str | None = None
        self.forfeited: Ending | None = None
        """The end of a game an agent lost by choosing an illegal move (the position stays as it was)."""
        self.lock = threading.Lock()
        self.finished = False
        """Whether the game is over (the registry may then let it go when it needs room)."""
        self._play_agents()

    @property
    def state(self) -> State:
        return self.record.last

    def _play_agents(self) -> None:
        """Play the agents' decisions until the human acts or the game ends."""
        state = self.state
        while not state.is_terminal() and self.seat not in state.current_seats():
            decision, thinking = self._agent_decision(state, {})
            self.thinking = thinking
            if not self._play_decision(state, decision):
                break
            state = self.state
        self.finished = state.is_terminal() or self.forfeited is not None

    def _play_decision(self, state: State, decision: dict) -> bool:
        """Play ``decision`` in ``state``; False (and the game over, lost by the agent) when an agent's
        action in it is illegal."""
        bad = illegal_choice(state, decision)
        if bad is not None:
            self.forfeited = forfeit(state, bad[0], bad[1], self.table.agent_name)
            return False
        self.record.play(decision)  # the engine checks every action again
        return True

    def _agent_decision(self, state: State, chosen: dict) -> tuple[dict, list]:
        """``chosen`` completed with the agents' actions for the other acting seats (each asked in the
        same position, before any is played), and what those agents can say of their choice."""
        decision, thinking = dict(chosen), []
        for s in state.current_seats():
            if s in decision:
                continue
            agent = self.agents[s]
            with self.table.lock:
                decision[s] = agent(state.clone(), s)
                if illegal_choice(state, {s: decision[s]}) is not None:
                    continue  # the game is lost by it: nothing to explain
                decision[s] = int(decision[s])
                top = thinking_of(agent, state, s, chosen=decision[s])
            if top is not None:
                thinking.append(
                    {
                        "seat": s,
                        "name": side_name(self.game.info, s),
                        "agent": self.table.agent_name,
                        "top": top,
                        "chosen": state.action_to_text(decision[s], s),
                    }
                )
        return decision, thinking

    def human_action(self, state: State, body: dict) -> int:
        """The human's action from a request body (``{"action": index}`` or ``{"move": notation}``),
        checked by the engine; MoveRefused naming the problem otherwise."""
        for key in ("seat", "ply"):
            if key in body and (isinstance(body[key], bool) or not isinstance(body[key], int)):
                raise MoveRefused(f"{key} is a whole number, got {short(body[key])}", 400)
        if "seat" in body and body["seat"] != self.seat:
            raise MoveRefused(
                f"seat {short(body['seat'])} is not yours: you play seat {self.seat} "
                f"({side_name(self.game.info, self.seat)})",
                403,
            )
        if "ply" in body and body["ply"] != len(self.record):
            raise MoveRefused(
                f"this move was chosen at ply {short(body['ply'])}, the game is at ply "
                f"{len(self.record)}: reload the position",
                409,
            )
        if state.is_terminal() or self.forfeited is not None:
            raise MoveRefused("the game is over: no move can be played", 409)
        if self.seat not in state.current_seats():
            raise MoveRefused(f"it is not your turn ({side_name(self.game.info, self.seat)})", 409)
        if ("action" in body) == ("move" in body):
            raise MoveRefused('send either {"action": <index>} or {"move": "<notation>"}', 400)
        try:
            if "action" in body:
                n, action = self.game.info.num_actions, body["action"]
                if isinstance(action, bool) or not isinstance(action, int):
                    raise IllegalActionError(f"an action is an integer in 0..{n - 1}, got {short(action)}")
                if not 0 <= action < n:
                    raise IllegalActionError(f"action {short(action)} is out of range 0..{n - 1}")
                action = action_index(action, n)
                if not state.legal_mask(self.seat)[action]:
                    raise IllegalActionError(
                        f"action {action} ({state.action_to_text(action, self.seat)}) is "
                        f"illegal for {side_name(self.game.info, self.seat)} here"
                    )
                return action
            text = body["move"]
            if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
                raise MoveRefused(f"a move is a string of at most {MAX_MOVE_TEXT} characters in notation", 400)
            return parse_move(state, text, self.seat)
        except (IllegalActionError, NotationError) as e:
            raise MoveRefused(f"illegal move: {e}", 422) from None

    def play(self, body: dict) -> None:
        """Play the human's move (and the agents' replies); MoveRefused with the game untouched when the
        move is malformed, illegal, not the human's to play, or the game is over."""
        with self.lock:
            state = self.state
            action = self.human_action(state, body)
            decision, thinking = self._agent_decision(state, {self.seat: action})
            self.thinking = thinking
            if not self._play_decision(state, decision):
                self.finished = True
                return
            self.last_reveal = record_label(state, decision) if len(decision) > 1 else None
            self._play_agents()

    def view(self) -> dict:
        """Everything the page shows: the picture and its squares, the position in notation, the human's
        legal moves (when it is their turn), the move list, the result and the agents' thinking."""
        with self.lock:
            state = self.state
            board = board_view(state)
            acting = self.seat in state.current_seats() and self.forfeited is None
            info = self.game.info
            return {
                "kind": "play",
                "game": info.name,
                "title": f"{title_of(info)} — you against {self.table.agent_name}",
                "you": you_play(info, self.seat),
                "options": dict(info.options),
                "options_text": options_text(info),
                "seat_names": [side.full for side in sides_of(info)],
                "teams": list(info.teams),
                "simultaneous": bool(info.simultaneous),
                "seat": self.seat,
                "agents": {str(s): self.table.agent_name for s in range(info.num_seats) if s != self.seat},
                "board": board,
                "position": state.to_text(),
                "ply": len(self.record),
                "turn": int(state.turn),
                "to_act": [int(s) for s in state.current_seats()],
                "your_turn": acting,
                "legal": legal_moves(state, self.seat, board["files"], board["ranks"]) if acting else [],
                "moves": self.record.mover_labels(),
                "move_labels": side_labels(self.record),
                "reveal": self.last_reveal,
                "thinking": self.thinking,
                "result": outcome(state, self.seat, ending=self.forfeited),
            }


class ReplaySession:
    """A recorded game (a ``--save-moves`` move list) to step through, position by position."""

    def __init__(self, record: GameRecord, name: str = "game"):
        self.record = record
        self.name = name
        self.states = record.states()
        self.labels = record.mover_labels()
        self.side_labels = side_labels(record)

    @classmethod
    def from_text(cls, text: str, default_game: Game | None = None, name: str = "game") -> ReplaySession:
        """Read a move list (:meth:`GameRecord.to_text`'s format). Its first line ``# <game> {options}``
        names the game (else ``default_game``); MoveRefused (422) naming the problem when it cannot be
        read or a move is illegal."""
        game = default_game
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if first.startswith("#"):
            head, _, options = first[1:].strip().partition(" ")
            if head in game_names():
                try:
                    opts = json.loads(options) if options.strip() else {}
                    if not isinstance(opts, dict):
                        raise ValueError("the options are not a JSON object")
                    game = make_game(head, **opts)
                except (ValueError, TypeError, RecursionError, GameOptionError) as e:
                    raise MoveRefused(
                        f"the header {short(first, 80)} names no game this server can make: {str(e)[:200]}"
                    ) from None
        if game is None:
            raise MoveRefused(
                "the move list does not start with '# <game> {options}' (as --save-moves writes): "
                f"which game is it? Games: {', '.join(game_names())}"
            )
        try:
            record = GameRecord.from_text(game, text)
        except (IllegalActionError, NotationError, ValueError) as e:
            raise MoveRefused(f"the move list cannot be replayed: {str(e)[:300]}") from None
        return cls(record, name)

    def view(self, index: int) -> dict:
        """Position ``index`` (0: the start, k: after move k) with the move that led to it."""
        if not 0 <= index < len(self.states):
            raise MoveRefused(f"position {index} is not in this game (0..{len(self.states) - 1})", 404)
        state = self.states[index]
        info = self.record.game.info
        return {
            "kind": "replay",
            "name": self.name,
            "game": info.name,
            "title": f"Replay of {self.name}: {title_of(info)}",
            "options": dict(info.options),
            "options_text": options_text(info),
            "seat_names": [side.full for side in sides_of(info)],
            "index": index,
            "count": len(self.states),
            "board": board_view(state),
            "position": state.to_text(),
            "moves": self.labels,
            "move_labels": self.side_labels,
            "result": outcome(state),
            "text": self.record.to_text(),
        }


@dataclass
class Registry:
    """The sessions of one server under random ids, and what keeps it bounded without losing a game
    someone is playing or has just finished.

    At most ``limit`` play sessions are held. When a new game needs room, the one let go is, in order:
    a game without a request for ``idle_timeout`` seconds when in progress (abandoned) or for
    ``finished_grace`` seconds when finished (the longest without a request first); else a finished game
    of the ``player`` asking for the new game (the longest without a request first). A game in progress
    with a request in the last ``idle_timeout`` seconds, and another player's finished game with one in
    the last ``finished_grace`` seconds, are never let go: when only such games are held, a new one is
    refused with 503 and a message saying so. Each game let go is logged and its id kept (the last
    ``let_go_memory``) with the time (``wall``) and the reason, which the 404 for it states.

    Replays (which nobody plays: they can be opened again from their move list) are kept up to ``limit``
    too, the least recently viewed let go first; the ``pinned`` ones (the server's ``--replay`` files)
    never. ``clock`` gives the time in seconds (``time.monotonic``)."""

    limit: int = MAX_GAMES
    idle_timeout: float = IDLE_TIMEOUT
    clock: Callable[[], float] = time.monotonic
    plays: dict = field(default_factory=dict)
    replays: OrderedDict = field(default_factory=OrderedDict)
    pinned: set = field(default_factory=set)
    seen: dict = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    finished_grace: float = FINISHED_GRACE
    wall: Callable[[], float] = time.time
    let_go_memory: int = LET_GO_MEMORY
    players: dict = field(default_factory=dict)
    """``{id: player}`` of the play sessions started by a known player (the page's cookie)."""
    let_go: OrderedDict = field(default_factory=OrderedDict)
    """``{id: (wall time, reason)}`` of the last ``let_go_memory`` games let go, the oldest first."""

    def __post_init__(self):
        if self.limit < 1:
            raise ValueError(f"a server holds at least 1 game, got limit={self.limit}")
        if not self.idle_timeout > 0:
            raise ValueError(f"the idle timeout is a positive number of seconds, got {self.idle_timeout}")
        if not self.finished_grace >= 0:
            raise ValueError(f"the time a finished game is kept is a number of seconds >= 0, got {self.finished_grace}")

    @property
    def idle_text(self) -> str:
        """The idle timeout in words ("30 minutes")."""
        return duration_text(self.idle_timeout)

    @property
    def grace_text(self) -> str:
        """The time a finished game is kept in words ("10 minutes")."""
        return duration_text(self.finished_grace)

    def _full(self) -> MoveRefused:
        live = sum(not s.finished for s in self.plays.values())
        kept = len(self.plays) - live
        held = []
        if live:
            held.append(
                f"{live} game{'s' * (live != 1)} in progress, {'each ' * (live != 1)}played or viewed in the last "
                f"{self.idle_text}"
            )
        if kept:
            held.append(
                f"{kept} finished game{'s' * (kept != 1)}, {'each ' * (kept != 1)}kept {self.grace_text} after "
                "its last request for its player to read"
            )
        frees = f"a game left alone for {self.idle_text}" + (
            f", or a finished one for {self.grace_text}," if kept else ""
        )
        return MoveRefused(
            f"this server is full: it holds {', and '.join(held)}, and drops none of them. Try again in a few "
            f"minutes ({frees} makes room), or finish a game of yours first (its place goes to your next game).",
            503,
        )

    def _to_let_go(self, player: str | None) -> tuple[str, str] | None:
        """``(id, reason)`` of the play session to let go for a new game of ``player``, by the order of
        the class's rule; None when none may go (lock held)."""
        now = self.clock()
        stale = []
        for sid, session in self.plays.items():
            idle = now - self.seen[sid]
            if idle > (self.finished_grace if session.finished else self.idle_timeout):
                stale.append((self.seen[sid], sid, "finished" if session.finished else "abandoned"))
        if not stale and player is not None:
            stale = [
                (self.seen[sid], sid, "moved on")
                for sid, session in self.plays.items()
                if session.finished and self.players.get(sid) == player
            ]
        return min(stale)[1:] if stale else None

    def _reason_text(self, reason: str) -> str:
        return {
            "abandoned": f"it was in progress but left alone for {self.idle_text}, so counted as abandoned",
            "finished": f"it was finished and left alone for {self.grace_text}, the time a finished game is kept",
            "moved on": "it was finished, and the browser that played it started another game",
        }[reason]

    def _room_for_play(self, player: str | None) -> None:
        """Let one play session go when ``limit`` are held (lock held); MoveRefused (503) when none may go."""
        if len(self.plays) < self.limit:
            return
        chosen = self._to_let_go(player)
        if chosen is None:
            raise self._full()
        sid, reason = chosen
        del self.plays[sid]
        del self.seen[sid]
        self.players.pop(sid, None)
        self.let_go[sid] = (self.wall(), reason)
        while len(self.let_go) > self.let_go_memory:
            self.let_go.popitem(last=False)
        log.info("let go game %s to make room for a new game: %s", sid, self._reason_text(reason))

    def check_room(self, player: str | None = None) -> None:
        """MoveRefused (503) when a new game of ``player`` would be refused now (before the work of
        starting one)."""
        with self.lock:
            if len(self.plays) >= self.limit and self._to_let_go(player) is None:
                raise self._full()

    def add(self, session, pinned: bool = False, player: str | None = None) -> str:
        """Keep ``session`` (a PlaySession or a ReplaySession); returns its new id. For a PlaySession,
        ``player`` names who started it (None: unknown); MoveRefused (503) when the server is full of
        games in progress and finished games kept for their players."""
        sid = secrets.token_hex(8)
        with self.lock:
            if isinstance(session, PlaySession):
                self._room_for_play(player)
                self.plays[sid] = session
                self.seen[sid] = self.clock()
                if player is not None:
                    self.players[sid] = player
                return sid
            self.replays[sid] = session
            if pinned:
                self.pinned.add(sid)
            unpinned = [r for r in self.replays if r not in self.pinned]
            while len(unpinned) > self.limit:
                del self.replays[unpinned.pop(0)]
        return sid

    def _unknown_play(self, sid: str) -> str:
        """Why there is no play session ``sid``: when and why it was let go, or that it is unknown (lock held)."""
        shown = repr(sid[:40])
        gone = self.let_go.get(sid)
        if gone is None:
            return (
                f"no play session {shown} on this server: no game was started under this id since the server "
                f"started, or it was let go long ago (the server remembers the last {self.let_go_memory} games "
                "it let go). Start a new one"
            )
        when, reason = gone
        stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(when))
        return f"game {shown} was let go at {stamp} to make room for a new game: {self._reason_text(reason)}"

    def get(self, kind: str, sid: str):
        """The session ``sid`` of ``kind`` ("play" or "replay"), marked as just used; MoveRefused (404)
        when there is none, saying when and why it was let go if it was."""
        with self.lock:
            if kind == "play":
                session = self.plays.get(sid)
                if session is not None:
                    self.seen[sid] = self.clock()
                else:
                    message = self._unknown_play(sid)
            else:
                session = self.replays.get(sid)
                if session is not None:
                    self.replays.move_to_end(sid)
                else:
                    message = (
                        f"no replay session {sid[:40]!r} on this server (it may have been let go to make room "
                        "for newer ones: open the move list again)"
                    )
        if session is None:
            raise MoveRefused(message, 404)
        return session
