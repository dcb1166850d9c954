"""The State methods every game gets for free from its rules module of numba kernels.

A game's ``rules.py`` (see docs/architecture.md) provides ``NUM_ACTIONS``, the offsets ``TO_MOVE``,
``TURN`` and ``TRUNCATED`` into the state array, and the kernels ``is_over(data)``,
``legal_mask(data, seat, mask)``, ``apply_action(data, action)`` (turn-based) or
``apply_joint(data, actions)`` (simultaneous), ``observe(data, seat, out)`` and ``returns(data, out)``.
A game's State subclasses :class:`KernelState`, names its ``rules`` module and its ``render_module``
(with ``render_text(state)`` and ``render_rgb(state)``), and adds only notation, action names and
invariants.

A rules module may also provide *fused* kernels for the PettingZoo adapters (``env_refresh`` and
``env_step`` for the Parallel adapter, ``env_refresh`` and ``env_apply`` for the AEC adapter; see
envs/barc/rules.py and envs/adix/rules.py): one compiled call per turn that applies the move and
writes the next masks and observations. They are an optional speed-up: :func:`fused_rules` says when an
adapter may use them, and without them the adapters call the methods below one by one.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from envs.core.game import State

# State methods that the fused kernels stand in for: a subclass overriding one of them does not get them.
_FUSED_STAND_INS = ("legal_mask", "observation", "_apply", "_apply_joint", "is_terminal", "is_truncated",
                    "returns", "current_seats", "current_seat", "turn")
_FUSED: dict = {}


def fused_rules(state: State, names: tuple) -> ModuleType | None:
    """``state``'s rules module when it provides every kernel of ``names`` and ``state``'s class is a
    :class:`KernelState` that overrides none of the methods they stand in for; None otherwise."""
    key = (type(state), names)
    if key not in _FUSED:
        cls = type(state)
        rules = getattr(cls, "rules", None)
        ok = (
            isinstance(state, KernelState)
            and all(getattr(cls, m) is getattr(KernelState, m) for m in _FUSED_STAND_INS)
            and all(hasattr(rules, n) for n in names)
        )
        _FUSED[key] = rules if ok else None
    return _FUSED[key]


class KernelState(State):
    """A :class:`State` whose rules are the numba kernels of ``rules`` over ``self.data``."""

    __slots__ = ()
    rules: ModuleType
    render_module: str

    def current_seats(self) -> tuple:
        if self.rules.is_over(self.data):
            return ()
        if self.game.info.simultaneous:
            return tuple(range(self.game.info.num_seats))
        return (int(self.data[self.rules.TO_MOVE]),)

    @property
    def current_seat(self) -> int:
        if self.game.info.simultaneous:
            return State.current_seat.fget(self)
        return -1 if self.rules.is_over(self.data) else int(self.data[self.rules.TO_MOVE])

    def legal_mask(self, seat: int | None = None) -> np.ndarray:
        mask = np.zeros(self.rules.NUM_ACTIONS, dtype=np.bool_)
        self.rules.legal_mask(self.data, self.current_seat if seat is None else int(seat), mask)
        return mask

    def _apply(self, action: int) -> None:
        self.rules.apply_action(self.data, action)

    def _apply_joint(self, actions: np.ndarray) -> None:
        self.rules.apply_joint(self.data, actions)

    def is_terminal(self) -> bool:
        return bool(self.rules.is_over(self.data))

    def is_truncated(self) -> bool:
        return bool(self.data[self.rules.TRUNCATED])

    def returns(self) -> np.ndarray:
        out = np.zeros(self.game.info.num_seats, dtype=np.float32)
        self.rules.returns(self.data, out)
        return out

    @property
    def turn(self) -> int:
        return int(self.data[self.rules.TURN])

    def observation(self, seat: int) -> np.ndarray:
        out = np.zeros(self.game.info.observation_shape, dtype=np.float32)
        self.rules.observe(self.data, int(seat), out)
        return out

    def _renderer(self) -> ModuleType:
        return importlib.import_module(self.render_module)

    def render_text(self) -> str:
        return self._renderer().render_text(self)

    def render_rgb(self) -> np.ndarray:
        return self._renderer().render_rgb(self)
