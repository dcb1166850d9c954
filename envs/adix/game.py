"""ADIX behind the shared Game/State interface: the Game (options) and the State (board access,
action names, invariants), wired to the game's modules: rules kernels (:mod:`~boardgames.envs.adix.rules`),
observations (:mod:`~boardgames.envs.adix.observe`), notation (:mod:`~boardgames.envs.adix.notation`),
pictures (:mod:`~boardgames.envs.adix.render`) and the greedy agent's score (:mod:`~boardgames.envs.adix.heuristic`).
"""

from __future__ import annotations

from boardgames.envs.adix import notation as N
from boardgames.envs.adix import observe as O
from boardgames.envs.adix import render
from boardgames.envs.adix import rules as R
from boardgames.envs.adix.heuristic import heuristic
from boardgames.envs.adix.notation import END_NAMES, SEAT_NAMES, SQ, WEAPON_NAMES
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.core.game import check_move_text
from boardgames.envs.core.kernel_state import KernelState, TwoPlayerBoardGame

DEFAULT_MAX_TURNS = R.DEFAULT_MAX_TURNS


class AdixState(KernelState, rules=R, encoder=O):
    """An ADIX position (see :mod:`boardgames.envs.adix.rules` for the array layout and the cube model)."""

    __slots__ = ()
    renderer = render

    @property
    def end_reason(self) -> str | None:
        """How the game ended: "captain", "team", "stuck", "draw", "limit", or None while running."""
        reason = int(self.data[R.REASON])
        if not self.data[R.OVER]:
            return None
        return {R.END_QUIET: "draw", R.END_LIMIT: "limit"}.get(reason, END_NAMES.get(reason))

    # board access -----------------------------------------------------------------------------
    def cube(self, square: int | str) -> tuple | None:
        """The cube on ``square``: (seat, "captain"/"teammate", top, north, east) with weapon names,
        or None when the square is empty."""
        owner, kind, *faces = (int(v) for v in R.cube_fields(self.data, SQ.index(square)))
        if owner < 0:
            return None
        return (owner, "captain" if kind == R.CAPTAIN else "teammate") + tuple(WEAPON_NAMES[w] for w in faces)

    def token(self, square: int | str) -> str:
        """The notation of the cube on ``square`` (``Crps``), ``"."`` when empty."""
        fields = tuple(int(v) for v in R.cube_fields(self.data, SQ.index(square)))
        return "." if fields[0] < 0 else N.cube_token(*fields)

    def pieces(self, seat: int) -> tuple:
        """(captains, teammates) ``seat`` has on the board."""
        return int(R.count_pieces(self.data, seat, R.CAPTAIN)), int(R.count_pieces(self.data, seat, R.TEAMMATE))

    def repetition(self, seat: int) -> tuple | None:
        """``seat``'s A9 record: (square name, movement letter, count), or None."""
        d = self.data
        if d[R.REP_COUNT + seat] <= 0:
            return None
        return SQ.name(d[R.REP_SQ + seat]), R.MOVEMENT_NAMES[d[R.REP_MOVE + seat]], int(d[R.REP_COUNT + seat])

    # actions ----------------------------------------------------------------------------------
    def _mover(self) -> int:
        return int(self.data[R.TO_MOVE])

    def action_to_text(self, action: int, seat: int | None = None) -> str:
        a = self._action_index(action)
        return N.abs_action_text(self.data, int(R.absolute_action(a, self._mover())))

    def text_to_action(self, text: str, seat: int | None = None) -> int:
        abs_action = N.parse_move(check_move_text(text, "'e2-e5', 'e2L' or 'e2~e3'"))
        if self.is_terminal():
            raise IllegalActionError("the game is over: no move can be played")
        seat = self._mover()
        if not R.is_legal_abs(self.data, seat, abs_action):
            raise IllegalActionError(f"move {text!r} is illegal here: {N.why_illegal(self.data, seat, abs_action)}")
        return int(R.absolute_action(abs_action, seat))

    # checks -----------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        d = self.data
        for s in range(2):
            captains, mates = self.pieces(s)
            assert captains <= 1, f"{SEAT_NAMES[s]} has {captains} captains"
            assert mates <= R.TEAMMATES, f"{SEAT_NAMES[s]} has {mates} teammates"
            if not self.is_terminal():
                assert captains == 1 and mates >= 1, f"running game but {SEAT_NAMES[s]} has {captains}+{mates} cubes"
            count = int(d[R.REP_COUNT + s])
            assert 0 <= count <= 2, f"A9 count {count} for {SEAT_NAMES[s]}"
            if count:
                sq = int(d[R.REP_SQ + s])
                assert 0 <= sq < R.CELLS and R.owner_of(d, sq) == s, f"A9 record of {SEAT_NAMES[s]} on a foreign square"
                assert 0 <= d[R.REP_MOVE + s] <= R.M_TILT_W, "A9 record with no movement"
        for sq in range(R.CELLS):
            code = int(d[R.CUBE + sq])
            assert -1 <= code < 256, f"{SQ.name(sq)} holds {code}, not a cube code (-1 empty, 0..255)"
            if code >= 0:
                vals = [int(v) for v in R.cube_fields(d, sq)[1:]]
                assert R.valid_orientation(*vals), f"{SQ.name(sq)}: invalid cube {vals}"
        assert 0 <= d[R.QUIET] <= R.QUIET_DRAW, f"quiet counter {int(d[R.QUIET])}"
        if not self.is_terminal():
            assert d[R.QUIET] < R.QUIET_DRAW, "30 quiet turns but the game goes on"
            assert d[R.TURN] < d[R.MAX_TURNS], "the turn limit is reached but the game goes on"
            assert self.legal_mask().any(), "the seat to act has no legal action"
            assert d[R.WINNER] == -1, "a running game has a winner"
        else:
            reason = int(d[R.REASON])
            if reason == R.END_CAPTAIN:
                assert self.pieces(1 - self.winner)[0] == 0, "won by the captain's capture, but it is there"
            elif reason == R.END_TEAM:
                assert self.pieces(1 - self.winner)[1] == 0, "won by the last teammate's capture, but one is left"
            assert bool(d[R.TRUNCATED]) == (reason == R.END_LIMIT), "truncation flag and end reason disagree"


class AdixGame(TwoPlayerBoardGame):
    """ADIX for two players on the 9x9 arena, with a turn limit (truncation)."""

    name = "adix"
    state_class = AdixState
    parse_position = N.parse_position
    write_position = staticmethod(N.write_position)
    heuristic = staticmethod(heuristic)
