"""The State methods every game gets for free from its rules module of numba kernels.

A game's ``rules.py`` provides the kernels and offsets of the contract that
:mod:`boardgames.envs.core.game_kernels` describes and checks (``init_state``, ``legal_mask``, ``apply_action``
or ``apply_joint``, ``returns``, ``is_over``, ``NUM_ACTIONS``, ``STATE_SIZE``, ``TO_MOVE``, ``TURN``, ``OVER``,
``TRUNCATED``, ``WINNER``); its ``observe.py`` provides the observation kernel ``observe(data, seat, out)``
(and ``OBS_CHANNELS`` where the planes do not depend on the options). A game's State subclasses
:class:`KernelState`, names its ``rules`` module, its ``encoder`` (the observe module) and its
``renderer`` (the render module: ``render_text(state)``, ``render_rgb(state)``, ``render_canvas(state)``),
and adds only action names and invariants; its Game names the notation's parser and writer (``parse_position``,
``write_position``), which ``from_text`` and ``to_text`` call.

The PettingZoo adapters run such a game's turns as compiled kernels generated from the same modules
(:mod:`boardgames.envs.compiled.turns`), and the batched environments their batch loops
(:mod:`boardgames.envs.vector.loops`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import Game, GameInfo, State, action_index, is_integer
from boardgames.envs.core.game_kernels import GameKernels, KernelContractError, game_kernels, module_label
from boardgames.envs.core.squares import INT32_MAX


class KernelState(State):
    """A :class:`State` whose rules are the numba kernels of ``rules`` over ``self.data``, and whose
    observations are written by ``encoder.observe(data, seat, out)`` (the game's ``observe`` module;
    a subclass that names no encoder gets its rules module, for rules that encode their own).

    A game's State names them in its class line, ``class OlixState(KernelState, rules=R, encoder=O)``
    (or as class attributes), which reads and checks them once into ``kernels``, the game's
    :class:`boardgames.envs.core.game_kernels.GameKernels` (what the methods here and every compiled
    consumer run); its pictures come from ``renderer``, the render module the class names
    (``renderer = render``)."""

    __slots__ = ()
    rules: ModuleType
    encoder: ModuleType
    kernels: GameKernels
    renderer: ModuleType | None = None
    game: KernelGame  # the game of a kernel state is a kernel game

    def __init_subclass__(cls, rules: ModuleType | None = None, encoder: ModuleType | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if rules is not None:
            cls.rules = rules
        if encoder is not None:
            cls.encoder = encoder
        if "rules" in cls.__dict__:
            if "encoder" not in cls.__dict__:
                cls.encoder = cls.rules
        if ("rules" in cls.__dict__ or "encoder" in cls.__dict__) and hasattr(cls, "rules"):
            cls.kernels = game_kernels(cls.rules, cls.encoder)  # checked here, once per game

    # The kernels are read into locals before the call: calling one straight off the GameKernels
    # (``self.kernels.is_over(...)``) takes the slower generic method lookup of a slot attribute.

    def current_seats(self) -> tuple:
        is_over = self.kernels.is_over
        if is_over(self.data):
            return ()
        if self.game.info.acting_seats > 1:
            return tuple(range(self.game.info.num_seats))
        return (int(self.data[self.kernels.to_move_at]),)

    @property
    def current_seat(self) -> int:
        if self.game.info.acting_seats > 1:
            return super().current_seat
        kernels = self.kernels
        is_over = kernels.is_over
        return -1 if is_over(self.data) else int(self.data[kernels.to_move_at])

    def _check_seat(self, seat) -> int:
        """``seat`` as an int; ValueError unless it is a seat of this game (the kernels do not check)."""
        n = self.game.info.num_seats
        if type(seat) is int and 0 <= seat < n:  # the common case, first
            return seat
        if not is_integer(seat) or not 0 <= seat < n:
            raise ValueError(f"{seat!r} is not a seat of this {n}-seat game (seats 0..{n - 1})")
        return int(seat)

    def _action_index(self, action) -> int:
        """``action`` as an int; IllegalActionError unless it is one of the game's ``0..NUM_ACTIONS-1``."""
        return action_index(action, self.kernels.num_actions)

    def _playable(self, action: int, text: str, why: Callable[[], str]) -> int:
        """``action``, read from the move ``text``, when this position can play it; else IllegalActionError:
        the game is over, or the move is illegal here for the reason ``why()`` gives."""
        if self.is_terminal():
            raise IllegalActionError("the game is over: no move can be played")
        if not self.legal_mask()[action]:
            raise IllegalActionError(f"move {text!r} is illegal here: {why()}")
        return action

    def legal_mask(self, seat: int | None = None) -> np.ndarray:
        kernels = self.kernels
        legal_mask = kernels.legal_mask
        mask = np.zeros(kernels.num_actions, dtype=np.bool_)
        legal_mask(self.data, self.current_seat if seat is None else self._check_seat(seat), mask)
        return mask

    def legal_actions(self, seat: int | None = None) -> np.ndarray:
        return self.legal_mask(seat).nonzero()[0]

    def apply_actions(self, actions, check: bool = True) -> None:
        # a turn-based game's usual decision, {seat to act: action}, without the general path's steps
        if type(actions) is dict and len(actions) == 1 and self.game.info.acting_seats == 1:
            apply_action = self.kernels.apply_action
            assert apply_action is not None  # a turn-based game's kernels
            if not check:
                for action in actions.values():  # unchecked: the caller's word
                    apply_action(self.data, int(action))
                return
            seat = self.current_seat
            action = actions.get(seat)
            if action is not None:
                self._check_legal(seat, action)
                apply_action(self.data, int(action))
                return
        State.apply_actions(self, actions, check)  # the general path, and its messages

    def _apply(self, action: int) -> None:
        apply_action = self.kernels.apply_action
        assert apply_action is not None  # a turn-based game's kernels
        apply_action(self.data, action)

    def _apply_joint(self, actions: np.ndarray) -> None:
        apply_joint = self.kernels.apply_joint
        assert apply_joint is not None  # a simultaneous game's kernels
        apply_joint(self.data, actions)

    def is_terminal(self) -> bool:
        is_over = self.kernels.is_over
        return bool(is_over(self.data))

    def is_truncated(self) -> bool:
        return bool(self.data[self.kernels.truncated_at])

    def returns(self) -> np.ndarray:
        returns = self.kernels.returns
        out = np.zeros(self.game.info.num_seats, dtype=np.float32)
        returns(self.data, out)
        return out

    @property
    def winner(self) -> int:
        """The winning seat (the winning team at team games), -1 when none (running game, draw or
        truncation)."""
        return int(self.data[self.kernels.winner_at])

    @property
    def turn(self) -> int:
        return int(self.data[self.kernels.turn_at])

    def over_field(self) -> str:
        """The ``over=`` field of an ended game's notation, for games whose result is just the
        winner: ``over=limit`` (truncated), ``over=win:<winner>`` or ``over=draw``."""
        if self.data[self.kernels.truncated_at]:
            return "over=limit"
        winner = self.winner
        return f"over=win:{winner}" if winner >= 0 else "over=draw"

    def to_text(self) -> str:
        return self.game.write_position(self)

    def observation(self, seat: int) -> np.ndarray:
        observe = self.kernels.observe
        out = np.zeros(self.game.info.observation_shape, dtype=np.float32)
        observe(self.data, self._check_seat(seat), out)
        return out

    def _renderer(self) -> ModuleType:
        if self.renderer is None:
            raise NotImplementedError(f"{type(self).__name__} names no renderer (its render module)")
        return self.renderer

    def render_text(self) -> str:
        return self._renderer().render_text(self)

    def render_rgb(self) -> np.ndarray:
        return self._renderer().render_rgb(self)

    def render_canvas(self):
        """The :class:`boardgames.envs.core.rendering.BoardCanvas` that :meth:`render_rgb` draws on (its
        ``cell(square)`` says where each square lies, e.g. to turn clicks into squares)."""
        return self._renderer().render_canvas(self)


MAX_TURNS_LIMIT = INT32_MAX
"""The largest turn limit, 2**31 - 1: the turn count and the limit live in the int32 state array (a
game ends when its turn count reaches the limit, so the count never passes it; the adapters' packed
codes, ``turn << TURN_SHIFT`` in an int64, hold it too)."""


def check_max_turns(max_turns) -> int:
    """The ``max_turns`` option as an int; :class:`GameOptionError` unless it is an integer (a Python or
    numpy integer, not a bool, a float or a string) in 1..:data:`MAX_TURNS_LIMIT`."""
    if not is_integer(max_turns):
        raise GameOptionError(f"max_turns must be an integer in 1..{MAX_TURNS_LIMIT}, got {max_turns!r}")
    if not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise GameOptionError(
            f"max_turns must be in 1..{MAX_TURNS_LIMIT} (2**31 - 1: the turn count is stored as an int32), "
            f"got {max_turns}"
        )
    return int(max_turns)


def two_player_board_info(name: str, state_class: type[KernelState], max_turns: int, **extra) -> GameInfo:
    """The :class:`GameInfo` of a two-player game on a ``rules.SIZE`` square board whose one option is
    the turn limit (``rules`` and ``encoder`` of ``state_class``): ``rules.NUM_ACTIONS`` actions,
    observations ``(SIZE, SIZE, encoder.OBS_CHANNELS)``; ``extra`` holds any other GameInfo field
    (``seat_names``, the flag of a game whose seats act at once...)."""
    rules, kernels = state_class.rules, state_class.kernels
    if kernels.obs_channels is None:
        raise KernelContractError(f"{name}: observe module {module_label(kernels.encoder)}: missing OBS_CHANNELS")
    return GameInfo(
        name=name,
        num_seats=2,
        num_actions=kernels.num_actions,
        observation_shape=(rules.SIZE, rules.SIZE, kernels.obs_channels),
        max_turns=max_turns,
        options={"max_turns": max_turns},
        **extra,
    )


class KernelGame(Game):
    """A :class:`Game` whose states are ``state_class`` (a :class:`KernelState`): a new game is a zeroed
    state array filled by the rules module's ``init_state(data, *self.init_args())``."""

    state_class: type[KernelState]
    max_turns: int
    """The turn limit (the option every kernel game has)."""
    heuristic: Callable[[State, int], float]
    """How good a position is for a seat, higher better (the greedy agent's; the game module's function)."""

    @property
    def kernels(self) -> GameKernels:
        """The :class:`boardgames.envs.core.game_kernels.GameKernels` of this game's states."""
        return self.state_class.kernels

    def init_args(self) -> tuple:
        """The option values ``rules.init_state`` takes after the array (default: the turn limit)."""
        return (self.max_turns,)

    def new_initial_state(self) -> KernelState:
        kernels = self.state_class.kernels
        data = np.zeros(kernels.state_size, dtype=np.int32)
        kernels.init_state(data, *self.init_args())
        return self.state_class(self, data)

    def parse_position(self, text: str) -> KernelState:
        """Parse a position in the game's notation (a game module sets this to its parser, a function
        ``(game, text) -> state``)."""
        raise NotImplementedError(f"{type(self).__name__} has no position parser")

    @staticmethod
    def write_position(state: KernelState) -> str:
        """The notation of ``state``, which ``state.to_text()`` returns (a game module sets this to
        its writer, ``staticmethod`` of a function ``state -> text``)."""
        raise NotImplementedError(f"{type(state.game).__name__} has no position writer")

    def from_text(self, text: str) -> KernelState:
        state = self.parse_position(text)
        try:  # the parsers refuse the impossible positions they know of; this catches any other
            state.check_invariants()
        except AssertionError as e:
            raise NotationError(f"impossible position: {e}") from None
        return state


class TwoPlayerBoardGame(KernelGame):
    """A two-player :class:`KernelGame` on a ``rules.SIZE`` square board whose one option is the turn
    limit ``max_turns`` (None: ``rules.DEFAULT_MAX_TURNS``). A subclass names the game (``name``), its
    ``state_class``, its ``parse_position`` and, in ``info_extra``, any other :class:`GameInfo` field
    (``seat_names``, the flag of a game whose seats act at once...)."""

    name: str
    info_extra: dict = {}

    def __init__(self, max_turns: int | None = None):
        rules = self.state_class.rules
        self.max_turns = check_max_turns(rules.DEFAULT_MAX_TURNS if max_turns is None else max_turns)
        self.info = two_player_board_info(self.name, self.state_class, self.max_turns, **self.info_extra)
