"""Olix behind the shared Game/State interface: the Game (options) and the State (board access,
action names, invariants), wired to the game's modules: rules kernels (:mod:`~boardgames.envs.olix.rules`),
observations (:mod:`~boardgames.envs.olix.observe`), notation (:mod:`~boardgames.envs.olix.notation`),
pictures (:mod:`~boardgames.envs.olix.render`) and the greedy agent's score (:mod:`~boardgames.envs.olix.heuristic`).
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.game import check_move_text
from boardgames.envs.core.kernel_state import KernelState, TwoPlayerBoardGame
from boardgames.envs.olix import notation as N
from boardgames.envs.olix import observe as O
from boardgames.envs.olix import render
from boardgames.envs.olix import rules as R
from boardgames.envs.olix.heuristic import heuristic
from boardgames.envs.olix.notation import SQ

DEFAULT_MAX_TURNS = R.DEFAULT_MAX_TURNS


class OlixState(KernelState, rules=R, encoder=O):
    """An Olix position (see :mod:`boardgames.envs.olix.rules` for the array layout)."""

    __slots__ = ()
    renderer = render

    @property
    def super_pattern(self) -> str | None:
        """The super pattern that won at once, like ``"L-9"``, or None."""
        t = int(self.data[R.SUPER_TYPE])
        return None if t < 0 else f"{R.TYPE_NAMES[t]}-{int(self.data[R.SUPER_VALUE])}"

    # board access -----------------------------------------------------------------------------
    def owner(self, cell: int | str) -> int:
        """Seat whose pawn is on ``cell`` (index or name), -1 when empty."""
        c = SQ.index(cell)
        return int(self.data[R.BOARD + c])

    def pawns_left(self, seat: int) -> int:
        """Pawns ``seat`` still has to place."""
        return int(self.data[R.LEFT + seat])

    def column(self, pattern: str | int) -> tuple:
        """Score column ``pattern`` ("O", "L", "I", "X" or 0..3): (highest marked value or 0,
        tuple of the seats holding a marker there)."""
        t = R.TYPE_NAMES.index(pattern.upper()) if isinstance(pattern, str) else int(pattern)
        holders = tuple(s for s in range(2) if self.data[R.COL_HOLD + 2 * t + s])
        return int(self.data[R.COL_MAX + t]), holders

    def columns_held(self, seat: int) -> int:
        """How many score columns ``seat`` holds a marker on."""
        return int(sum(self.data[R.COL_HOLD + 2 * t + seat] for t in range(4)))

    def pattern_values(self, cell: int | str, seat: int) -> dict:
        """The largest value of each pattern type of ``seat`` containing ``cell`` (O2), as
        ``{"O": v, "L": v, "I": v, "X": v}`` with 0 for none, on the current grid."""
        c = SQ.index(cell)
        out = np.zeros(4, dtype=np.int64)
        R.pattern_values(self.data, c, int(seat), out)
        return {R.TYPE_NAMES[t]: int(out[t]) for t in range(4)}

    # notation ---------------------------------------------------------------------------------
    def action_to_text(self, action: int, seat: int | None = None) -> str:
        return N.move_text(self._action_index(action))

    def text_to_action(self, text: str, seat: int | None = None) -> int:
        action = N.parse_move(check_move_text(text, "'f6'"))
        return self._playable(action, text, lambda: N.why_illegal(self.data, action))

    # checks -----------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        d = self.data
        board = d[R.BOARD : R.BOARD + R.CELLS]
        assert np.all((board >= -1) & (board <= 1)), "a cell holds something other than -1, 0 or 1"
        for s in range(2):
            placed = int(np.sum(board == s))
            left = int(d[R.LEFT + s])
            assert 0 <= left <= R.PAWNS, f"seat {s} has {left} pawns left"
            assert placed + left == R.PAWNS, f"seat {s}: {placed} on the grid + {left} left != {R.PAWNS}"
        for t in range(4):
            v = int(d[R.COL_MAX + t])
            holders = int(d[R.COL_HOLD + 2 * t]) + int(d[R.COL_HOLD + 2 * t + 1])
            name = R.TYPE_NAMES[t]
            assert v == 0 or v in R.COLUMN_VALUES[t], f"column {name} holds value {v}, not a printed value"
            assert (v == 0) == (holders == 0), f"column {name}: value {v} with {holders} markers"
        if d[R.LAST] >= 0:
            assert board[d[R.LAST]] >= 0, "the last move's cell is empty"
        if not self.is_terminal():
            assert self.legal_mask().any(), "the seat to act has no legal action"
            assert d[R.WINNER] == -1 and d[R.SUPER_TYPE] == -1, "a running game has a winner"
        elif d[R.SUPER_TYPE] >= 0:
            t = int(d[R.SUPER_TYPE])
            assert d[R.SUPER_VALUE] > R.COLUMN_VALUES[t, 3], "the super pattern is within its column"
            assert d[R.WINNER] in (0, 1), "a super pattern without a winner"
        elif not d[R.TRUNCATED]:
            assert R.count_winner(d) == d[R.WINNER], "the winner does not match the count of the columns"


class OlixGame(TwoPlayerBoardGame):
    """Olix for two players on the 11x11 grid, with a turn limit (92 = a full game, no truncation)."""

    name = "olix"
    state_class = OlixState
    parse_position = N.parse_position
    write_position = staticmethod(N.write_position)
    heuristic = staticmethod(heuristic)
