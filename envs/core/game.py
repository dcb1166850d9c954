"""The one interface every game's rules engine implements.

In the spirit of OpenSpiel's Game/State split:

* a :class:`Game` holds the static facts (name, seats, number of distinct actions, observation
  shape, turn limit, teams) and makes states;
* a :class:`State` is one position: who acts, which actions are legal, applying an action,
  terminal or not, returns per seat, the observation for a seat, ``clone()``, and text notation
  out (``to_text()``) and in (``Game.from_text()``), plus readable action names and their parser.

Every state keeps its whole position in ONE flat integer numpy array, ``state.data``. The rules of
each game are numba-compiled kernels over that array (``legal_mask(data, seat, mask)``,
``apply_action(data, action)`` or ``apply_joint(data, actions)``, ...: the contract of
:mod:`boardgames.envs.core.game_kernels`), so ``clone()`` is one array copy (cheap for MCTS) and a batch
of games is simply a 2-D array whose rows the same kernels step (batched environments).

One entry point plays a decision in every game, as OpenSpiel's ``apply_actions``:
:meth:`State.apply_actions` takes ``{seat: action}`` for the seats that act now
(``current_seats()``: one seat in a turn-based game, every seat in a simultaneous one). The shorthands
:meth:`State.apply` (turn-based: the one action of the seat to act) and :meth:`State.apply_joint`
(simultaneous: one action per seat, in seat order) call it. Text goes the same way:
:meth:`State.actions_to_text` / :meth:`State.text_to_actions` write and read a whole decision, and
``action_to_text(action, seat)`` / ``text_to_action(text, seat)`` one seat's action.

The PettingZoo and Gymnasium adapters in this package talk to nothing but this interface.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

import numpy as np

from boardgames.envs.core.errors import IllegalActionError

JOINT_SEPARATOR = " | "
"""Between the moves of the seats of one simultaneous decision in notation (``"b1-d3 | stay"``)."""


def _action_of(actions, seat: int, info: GameInfo):
    """``actions[seat]``, or IllegalActionError naming the seat when the decision has none for it."""
    try:
        action = actions[seat]
    except (KeyError, IndexError, TypeError):
        action = None
    if action is None:
        raise IllegalActionError(f"no action given for {info.seat_names[seat]} (seat {seat}), who acts now")
    return action


def is_integer(value: object) -> TypeGuard[int | np.integer]:
    """True for a Python or numpy integer that counts as a number: not a bool (``True`` is not action 1)
    and not a ``np.timedelta64`` (a duration, though numpy makes it an integer type)."""
    if type(value) is int:
        return True
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_, np.timedelta64))


def action_index(action, num_actions: int) -> int:
    """``action`` as a Python int in ``0..num_actions-1``: a Python or numpy integer, or a 0-d integer
    array (what ``model.predict()`` returns); IllegalActionError naming the value for anything else (a
    float, a bool, a string...) or an integer out of range. What ``action_to_text`` takes."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        action = action.item()
    if not is_integer(action):
        raise IllegalActionError(f"an action is an integer in 0..{num_actions - 1}, got {action!r}")
    if not 0 <= action < num_actions:
        raise IllegalActionError(f"action {action} is out of range 0..{num_actions - 1}")
    return int(action)


def check_move_text(text, example: str, noun: str = "a move") -> str:
    """``text`` when it is a string (a move to read), else IllegalActionError naming it; ``example`` is
    a move of the game for the message (``"'b2'"``), ``noun`` what the game calls a move. What every
    ``text_to_action`` checks first."""
    if not isinstance(text, str):
        raise IllegalActionError(f"{noun} is text (a string) like {example}, got {text!r}")
    return text


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, fixed once the game's options are chosen.

    Attributes:
        name: short game name, e.g. ``"dorix"``.
        num_seats: number of players.
        num_actions: size of the flat action space; actions are ``0 .. num_actions-1``.
        observation_shape: shape of :meth:`State.observation`.
        max_turns: turn limit after which the game is truncated (a draw with returns 0).
        simultaneous: True when all seats choose at the same time (see :meth:`State.apply_joint`).
        teams: team index for each seat; seats with the same index share their result.
        seat_names: display name of each seat.
        options: the options the game was built with (for reproducing it).
        acting_seats: derived: how many seats act in one decision (1, or ``num_seats`` when
            ``simultaneous``).
    """

    name: str
    num_seats: int
    num_actions: int
    observation_shape: tuple
    max_turns: int
    simultaneous: bool = False
    teams: tuple = ()
    seat_names: tuple = ()
    options: dict = field(default_factory=dict)
    acting_seats: int = field(init=False, compare=False)
    """How many seats act in one decision: 1 in a turn-based game, every seat when all act at once (the
    number of actions :meth:`State.apply_actions` takes; one column each in batched actions)."""

    def __post_init__(self):
        object.__setattr__(self, "acting_seats", self.num_seats if self.simultaneous else 1)
        if not self.teams:
            object.__setattr__(self, "teams", tuple(range(self.num_seats)))
        if not self.seat_names:
            object.__setattr__(self, "seat_names", tuple(f"player_{i}" for i in range(self.num_seats)))

    def partners(self, seat: int) -> tuple:
        """The other seats of ``seat``'s team (empty when it plays alone)."""
        return tuple(s for s in range(self.num_seats) if s != seat and self.teams[s] == self.teams[seat])

    def sides(self) -> list:
        """The seats of each side (a team, or a single seat), in side order."""
        return [[s for s in range(self.num_seats) if self.teams[s] == t] for t in sorted(set(self.teams))]


class Game(abc.ABC):
    """A game with its options fixed: makes initial states and parses positions."""

    info: GameInfo

    @property
    def version(self) -> int:
        """The environment version whose dynamics this game has: ``boardgames/<name>-v<version>`` (a game
        whose rules changed gets a new version, as PettingZoo numbers its environments; models record it)."""
        return 0

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """The starting position."""

    @abc.abstractmethod
    def from_text(self, text: str) -> State:
        """Parse a position written by :meth:`State.to_text`; raise NotationError when malformed."""

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.info.options.items())
        return f"{type(self).__name__}({opts})"


class State(abc.ABC):
    """One position of a game. Subclasses keep the position in ``self.data`` (a flat int array)."""

    __slots__ = ("game", "data")

    def __init__(self, game: Game, data: np.ndarray):
        self.game = game
        self.data = data

    # ----- who acts -------------------------------------------------------------------------
    @abc.abstractmethod
    def current_seats(self) -> tuple:
        """Seats that must act now (one for turn-based games, several for simultaneous ones);
        empty when the game is over."""

    @property
    def current_seat(self) -> int:
        """The single seat to act in a turn-based game, -1 when the game is over."""
        seats = self.current_seats()
        if len(seats) > 1:
            raise TypeError(f"{self.game.info.name} is simultaneous: use current_seats()")
        return seats[0] if seats else -1

    # ----- actions --------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_mask(self, seat: int | None = None) -> np.ndarray:
        """Boolean array of length ``num_actions``: the legal actions of ``seat`` now
        (default: the seat to act). All False for a seat that does not act now."""

    def legal_actions(self, seat: int | None = None) -> np.ndarray:
        """Indices of the legal actions of ``seat`` (default: the seat to act)."""
        return np.flatnonzero(self.legal_mask(seat))

    def apply_actions(self, actions, check: bool = True) -> None:
        """Play one decision: ``actions`` maps each seat of :meth:`current_seats` to its action (a dict
        ``{seat: action}``, or a sequence indexed by seat). Seats that do not act now are ignored.

        With ``check`` (the default) a missing, malformed, out-of-range or illegal action, or any
        action once the game is over, raises :class:`IllegalActionError` and leaves the state
        untouched. Actions are Python or numpy integers or 0-d integer arrays. ``check=False`` skips
        every test, for callers that drew the actions from the masks of a running game (search,
        batched play): it trusts the caller, and on a finished game or with an illegal action the
        state it leaves is undefined (refusing there would cost the hot loops that use it a check per
        move; they test ``is_terminal()`` already).
        """
        info = self.game.info
        if not info.simultaneous:
            seat = self.current_seat
            if check:
                if seat < 0:
                    raise IllegalActionError("the game is over: no action can be played")
                action = _action_of(actions, seat, info)
                self._check_legal(seat, action)
            else:
                action = actions[seat]
            self._apply(int(action))
            return
        seats = self.current_seats()
        if check and not seats:
            raise IllegalActionError("the game is over: no action can be played")
        joint = np.zeros(info.num_seats, dtype=np.int64)
        for seat in seats:
            action = _action_of(actions, seat, info) if check else actions[seat]
            if check:
                self._check_legal(seat, action)
            joint[seat] = action
        self._apply_joint(joint)

    def decision(self, move) -> dict:
        """``{seat: action}`` from a move as records and callers write it: a dict already, one action
        (of the seat to act), or a sequence with one action per seat (seats that do not act ignored)."""
        if isinstance(move, dict):
            return {int(s): int(a) for s, a in move.items()}
        if np.ndim(move) == 0:
            return {self.current_seat: int(move)}
        return {s: int(move[s]) for s in self.current_seats()}

    def move_of(self, actions: dict):
        """The record form of a decision (see :meth:`decision`): the action itself in a turn-based
        game, a tuple with one action per seat (0 for a seat that does not act) in a simultaneous one."""
        info = self.game.info
        if not info.simultaneous:
            return int(actions[self.current_seat])
        return tuple(int(actions.get(s, 0)) for s in range(info.num_seats))

    def apply(self, action: int, check: bool = True) -> None:
        """Play ``action`` for the seat to act: the turn-based shorthand of :meth:`apply_actions`.

        With ``check`` (the default) an illegal, malformed or out-of-range action, or any action once
        the game is over, raises :class:`IllegalActionError` and leaves the state untouched.
        ``check=False`` skips the tests and trusts the caller, as in :meth:`apply_actions`.
        """
        if self.game.info.simultaneous:
            raise TypeError(f"{self.game.info.name} is simultaneous: use apply_actions() or apply_joint()")
        if check:
            self._check_legal(self.current_seat, action)
        self._apply(int(action))

    def apply_joint(self, actions: Sequence[int], check: bool = True) -> None:
        """Play one action for every seat at once (simultaneous games); ``actions[i]`` is seat i's: the
        simultaneous shorthand of :meth:`apply_actions` (seats that do not act get any value)."""
        if not self.game.info.simultaneous:
            raise TypeError(f"{self.game.info.name} is turn-based: use apply() or apply_actions()")
        if len(actions) != self.game.info.num_seats:
            raise IllegalActionError(f"expected {self.game.info.num_seats} actions, got {len(actions)}")
        self.apply_actions(actions, check)

    def _check_legal(self, seat: int, action) -> None:
        if seat < 0 or self.is_terminal():
            raise IllegalActionError("the game is over: no action can be played")
        action = action_index(action, self.game.info.num_actions)
        if not self.legal_mask(seat)[action]:
            raise IllegalActionError(
                f"action {action} ({self.action_to_text(int(action), seat)}) is illegal for "
                f"{self.game.info.seat_names[seat]} in position {self.to_text()!r}"
            )

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _apply_joint(self, actions: np.ndarray) -> None:
        raise NotImplementedError

    # ----- outcome --------------------------------------------------------------------------
    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over (won, drawn, or truncated by the turn limit)."""

    @abc.abstractmethod
    def is_truncated(self) -> bool:
        """True when the game ended only because the turn limit was reached."""

    @abc.abstractmethod
    def returns(self) -> np.ndarray:
        """Final result per seat (float32): +1 win, -1 loss, 0 draw/truncation/unfinished."""

    @property
    @abc.abstractmethod
    def turn(self) -> int:
        """Number of turns played so far."""

    # ----- observation ----------------------------------------------------------------------
    @abc.abstractmethod
    def observation(self, seat: int) -> np.ndarray:
        """float32 tensor of shape ``observation_shape`` seen from ``seat``'s point of view."""

    # ----- copying and notation -------------------------------------------------------------
    def clone(self) -> State:
        """An independent copy (one array copy)."""
        return type(self)(self.game, self.data.copy())

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and np.array_equal(self.data, other.data)

    def __hash__(self):
        return hash(self.data.tobytes())

    @abc.abstractmethod
    def to_text(self) -> str:
        """The position in the game's notation (read back by ``Game.from_text``)."""

    @abc.abstractmethod
    def action_to_text(self, action: int, seat: int | None = None) -> str:
        """Readable name of ``action`` of ``seat`` (default: the seat to act; games whose action names
        do not depend on the seat ignore it) in the game's move notation."""

    @abc.abstractmethod
    def text_to_action(self, text: str, seat: int | None = None) -> int:
        """Parse a move of ``seat`` (default: the seat to act, or whoever the move names) written in
        the game's notation; raise IllegalActionError naming the problem when it is malformed or not
        legal here."""

    def actions_to_text(self, actions) -> str:
        """A whole decision (``{seat: action}`` or a sequence indexed by seat, as :meth:`apply_actions`
        takes) in notation: the one move of the seat to act, or the moves of every acting seat in seat
        order joined by ``" | "``."""
        return JOINT_SEPARATOR.join(self.action_to_text(int(actions[s]), s) for s in self.current_seats())

    def text_to_actions(self, text: str) -> dict:
        """Read a decision written by :meth:`actions_to_text`: ``{seat: action}`` for every acting seat.
        Raises IllegalActionError naming the problem (a wrong number of moves, a malformed or illegal
        one)."""
        if not isinstance(text, str):
            raise IllegalActionError(f"a move is a string, got {text!r}")
        seats = self.current_seats()
        if not seats:
            raise IllegalActionError("the game is over: no move can be played")
        parts = text.split(JOINT_SEPARATOR.strip()) if len(seats) > 1 else [text]
        if len(parts) != len(seats):
            raise IllegalActionError(
                f"expected {len(seats)} moves separated by '{JOINT_SEPARATOR.strip()}' "
                f"(one per seat {', '.join(map(str, seats))}), got {text!r}"
            )
        return {s: self.text_to_action(part.strip(), s) for s, part in zip(seats, parts)}

    @abc.abstractmethod
    def check_invariants(self) -> None:
        """Raise AssertionError when a rule invariant is broken (piece conservation, ownership, ...).
        Used by the shared random-playout tests; cheap enough to call after every move there."""

    # ----- rendering ------------------------------------------------------------------------
    @abc.abstractmethod
    def render_text(self) -> str:
        """A readable text picture of the position (the ``ansi`` render mode)."""

    @abc.abstractmethod
    def render_rgb(self) -> np.ndarray:
        """An RGB picture of the position, uint8 array (H, W, 3) (the ``rgb_array`` mode)."""

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_text()!r})"
