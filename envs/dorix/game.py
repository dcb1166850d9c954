"""Dorix behind the shared Game/State interface: the Game (options) and the State (board access,
action names, invariants), wired to the game's modules: rules kernels (:mod:`~boardgames.envs.dorix.rules`),
observations (:mod:`~boardgames.envs.dorix.observe`), notation (:mod:`~boardgames.envs.dorix.notation`),
pictures (:mod:`~boardgames.envs.dorix.render`) and the greedy agent's score (:mod:`~boardgames.envs.dorix.heuristic`).
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import GameInfo, check_move_text, is_integer
from boardgames.envs.core.kernel_state import KernelGame, KernelState, check_max_turns
from boardgames.envs.dorix import notation as N
from boardgames.envs.dorix import observe as O
from boardgames.envs.dorix import render
from boardgames.envs.dorix import rules as R
from boardgames.envs.dorix.heuristic import heuristic
from boardgames.envs.dorix.notation import SQ

DEFAULT_MAX_TURNS = 200


class DorixState(KernelState, rules=R, encoder=O):
    """A Dorix position (see :mod:`boardgames.envs.dorix.rules` for the array layout)."""

    __slots__ = ()
    game: DorixGame
    renderer = render

    # board access -----------------------------------------------------------------------------
    def stack(self, square: int | str) -> list:
        """Owners of the pawns on ``square`` (index or name), bottom to top."""
        sq = SQ.index(square)
        h = int(self.data[R.HEIGHTS + sq])
        return [int(x) for x in self.data[R.STACKS + sq * R.MAXH : R.STACKS + sq * R.MAXH + h]]

    def hand(self, seat: int) -> int:
        """Pawns left in ``seat``'s hand."""
        return int(self.data[R.HANDS + seat])

    @property
    def collapsing(self) -> bool:
        """True while the mover must choose where the next pawn of a collapse falls."""
        return bool(self.data[R.PHASE] == R.COLLAPSE)

    # notation ---------------------------------------------------------------------------------
    def action_to_text(self, action: int, seat: int | None = None) -> str:
        return N.move_text(self.data, self._action_index(action))

    def text_to_action(self, text: str, seat: int | None = None) -> int:
        action = N.parse_move(self.data, check_move_text(text, "'b2', 'a1-b2' or '>c2'"))
        return self._playable(action, text, lambda: N.why_illegal(self.data, action))

    # checks -----------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        d = self.data
        n = self.game.num_players
        per = R.PAWNS_PER_PLAYER[n]
        heights = d[R.HEIGHTS : R.HEIGHTS + R.SQUARES].astype(np.int64)
        stacks = d[R.STACKS : R.STACKS + R.SQUARES * R.MAXH].reshape(R.SQUARES, R.MAXH)
        filled = np.arange(R.MAXH) < heights[:, None]
        bad_height = np.asarray((heights < 0) | (heights > R.MAXH))
        bad_owner = np.asarray((filled & ((stacks < 0) | (stacks >= n))).any(axis=1))
        garbage = np.asarray((~filled & (stacks != -1)).any(axis=1))
        for sq in np.flatnonzero(bad_height | bad_owner | garbage)[:1]:  # the first faulty square, named
            assert not bad_height[sq], f"height {heights[sq]} on {SQ.name(sq)}"
            assert not bad_owner[sq], f"bad pawn owner on {SQ.name(sq)}"
            assert not garbage[sq], f"garbage above the stack on {SQ.name(sq)}"
        counts = np.bincount(stacks[filled].astype(np.int64), minlength=n)
        for s in range(n):
            hand = int(d[R.HANDS + s])
            assert 0 <= hand <= per, f"hand of seat {s} is {hand}"
            assert counts[s] + hand == per, f"seat {s}: {counts[s]} on board + {hand} in hand != {per}"
        if not self.is_terminal():
            assert self.legal_mask().any(), "the seat to act has no legal action"
        if d[R.OVER] and not d[R.TRUNCATED] and d[R.WINNER] >= 0:
            assert R.diagonal_winner(d) == d[R.WINNER], "the winner does not hold a diagonal"


class DorixGame(KernelGame):
    """Dorix for 2, 3 or 4 players (teams 0+2 against 1+3 at 4 players), with a turn limit."""

    state_class = DorixState
    parse_position = N.parse_position
    write_position = staticmethod(N.write_position)
    heuristic = staticmethod(heuristic)

    def __init__(self, num_players: int = 2, max_turns: int = DEFAULT_MAX_TURNS):
        integer = is_integer(num_players)
        if not integer or num_players not in (2, 3, 4):  # 2.0, True and "2" are not player counts
            raise GameOptionError(f"num_players must be the integer 2, 3 or 4, got {num_players!r}")
        self.num_players = int(num_players)
        self.max_turns = check_max_turns(max_turns)
        teams = (0, 1, 0, 1) if num_players == 4 else tuple(range(num_players))
        self.info = GameInfo(
            name="dorix",
            num_seats=self.num_players,
            num_actions=R.NUM_ACTIONS,
            observation_shape=(R.SIZE, R.SIZE, O.obs_channels(self.num_players)),
            max_turns=self.max_turns,
            teams=teams,
            options={"num_players": self.num_players, "max_turns": self.max_turns},
        )

    def init_args(self) -> tuple:
        return (self.num_players, self.max_turns)
