"""The State methods every game gets for free from its rules module of numba kernels.

A game's ``rules.py`` (see docs/architecture.md) provides ``NUM_ACTIONS``, the offsets ``TO_MOVE``,
``TURN`` and ``TRUNCATED`` into the state array, and the kernels ``is_over(data)``,
``legal_mask(data, seat, mask)``, ``apply_action(data, action)`` (turn-based) or
``apply_joint(data, actions)`` (simultaneous), ``observe(data, seat, out)`` and ``returns(data, out)``.
A game's State subclasses :class:`KernelState`, names its ``rules`` module and its ``render_module``
(with ``render_text(state)`` and ``render_rgb(state)``), and adds only notation, action names and
invariants.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from envs.core.game import State


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
