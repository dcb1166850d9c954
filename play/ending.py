"""How a game ended, in words, for every game and every end: the one place the terminal, the window, the
browser page and the replays read it from.

:func:`ending_of` reads a finished position's end from its State (the rule that ended it: an alignment,
a player left with too few stacks, a super pattern or the score columns, a captured captain or last
teammate, a player without a move, 30 quiet turns, the turn limit); :func:`forfeit` is the end of a
game whose agent played an illegal move (play only: the engines refuse such a move). Both give an
:class:`Ending` (the winning seats, the kind of end, the reason as a clause naming the sides), which
:func:`end_line` says to the player (``You won: North tops only 2 stacks (two stacks or fewer
lose).``) or, for someone watching or replaying, in the third person (``South (barc_az) won: ...``).
The sides are named as :mod:`boardgames.play.sides` names them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardgames.envs.core.game import GameInfo, State
from boardgames.envs.core.squares import square_name
from boardgames.play.sides import group_name, has_teams, side_name, team_name, team_seats

if TYPE_CHECKING:  # the games' own States, named in the annotations only
    from boardgames.envs.adix.game import AdixState
    from boardgames.envs.barc.game import BarcState
    from boardgames.envs.dorix.game import DorixState
    from boardgames.envs.olix.game import OlixState

KINDS = (
    "alignment",
    "stacks",
    "pattern",
    "columns",
    "captain",
    "last teammate",
    "no move",
    "quiet turns",
    "turn limit",
    "illegal move",
)
"""Every kind of end an :class:`Ending` names."""


@dataclass(frozen=True)
class Ending:
    """The end of a game: the seats that won (none: a draw, the turn limit included), the ``kind`` of
    end (one of :data:`KINDS`) and the ``reason``, a clause naming the sides (``North tops only 2 stacks
    (two stacks or fewer lose)``)."""

    winners: tuple
    kind: str
    reason: str

    def returns(self, num_seats: int) -> list[float]:
        """+1 to each winner, -1 to the others, 0 to all on a draw."""
        if not self.winners:
            return [0.0] * num_seats
        return [1.0 if s in self.winners else -1.0 for s in range(num_seats)]


def _turn_limit(state: State) -> Ending:
    """The turn limit's end (the game stops at its limit, so the turns played are the limit)."""
    return Ending((), "turn limit", f"the turn limit of {state.turn} turns is reached without a winner")


# ----- the ends of each game, from its State ---------------------------------------------------------
def _barc_line(state: BarcState, seat: int) -> list[str] | None:
    """The first 3 neighbouring squares in a row, column or diagonal that ``seat`` tops, or None."""
    for sq in range(36):
        rank, file = divmod(sq, 6)
        for dr, df in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(rank + k * dr, file + k * df) for k in range(3)]
            if all(0 <= r < 6 and 0 <= f < 6 for r, f in cells):
                names = [square_name(6 * r + f, 6) for r, f in cells]
                if all(state.owner(n) == seat for n in names):
                    return names
    return None


def _barc_victory(state: BarcState, seat: int) -> tuple[str, str] | None:
    """(kind, clause) of ``seat``'s victory (B5): aligned, or the other side out; None when neither."""
    info, other = state.game.info, 1 - seat
    why, kind = [], ""
    line = _barc_line(state, seat)
    if line:
        why.append(f"{side_name(info, seat)} lines up {', '.join(line)}")
        kind = "alignment"
    left = state.stacks_of(other)
    if left <= 2:
        tops = f"only {left} stack{'s' * (left != 1)}" if left else "no stack"
        why.append(f"{side_name(info, other)} tops {tops} (two stacks or fewer lose)")
        kind = kind or "stacks"
    return (kind, " and ".join(why)) if why else None


def _barc_won(state: BarcState, seat: int) -> tuple[str, str]:
    """(kind, clause) of the victory ``seat`` reached (the finished state says it did)."""
    victory = _barc_victory(state, seat)
    assert victory is not None, f"seat {seat} reached no victory"
    return victory


def _barc(state: BarcState) -> Ending:
    if state.is_truncated():
        return _turn_limit(state)
    if state.winner >= 0:
        kind, clause = _barc_won(state, state.winner)
        return Ending((state.winner,), kind, clause)
    both = [_barc_won(state, s) for s in (0, 1)]
    kind = "alignment" if any(k == "alignment" for k, _ in both) else "stacks"
    return Ending((), kind, f"both reach victory on the same turn: {both[0][1]}; {both[1][1]}")


DORIX_DIAGONALS = ((0, 5, 10, 15), (12, 9, 6, 3))
"""The long diagonals a1-b2-c3-d4 and a4-b3-c2-d1 (Dorix D1), as square indices."""


def _dorix(state: DorixState) -> Ending:
    info = state.game.info
    if state.is_truncated():
        return _turn_limit(state)
    if state.winner < 0:
        return Ending((), "no move", "no seat can act")
    seat = state.winner  # the winning team at 4 players: its first seat
    team = team_seats(info, seat)
    held = [
        "-".join(square_name(sq, 4) for sq in diagonal)
        for diagonal in DORIX_DIAGONALS
        if all(state.stack(sq) and state.stack(sq)[-1] in team for sq in diagonal)
    ]
    where = " and ".join(held) if held else "a long diagonal"
    noun = "the long diagonals" if len(held) > 1 else "the long diagonal"
    who = team_name(info, seat)
    return Ending(tuple(sorted(team)), "alignment", f"{who} tops all four stacks of {noun} {where}")


def _olix_rows(state: OlixState, seat: int) -> list[int]:
    """The rows (1..4) of ``seat``'s score markers, best first."""
    from boardgames.envs.olix.rules import COLUMN_VALUES

    rows = []
    for t in range(4):
        value, holders = state.column(t)
        if seat in holders:
            rows.append(1 + list(COLUMN_VALUES[t]).index(value))
    return sorted(rows, reverse=True)


def _olix(state: OlixState) -> Ending:
    info = state.game.info
    if state.is_truncated():
        return _turn_limit(state)
    if state.super_pattern:
        from boardgames.envs.olix.rules import COLUMN_VALUES, TYPE_NAMES

        kind = state.super_pattern[0]
        top = int(COLUMN_VALUES[TYPE_NAMES.index(kind), 3])
        return Ending(
            (state.winner,),
            "pattern",
            f"{side_name(info, state.winner)} makes the super pattern {state.super_pattern}, beyond the top of "
            f"its column ({kind}-{top})",
        )
    names = [side_name(info, s) for s in (0, 1)]
    held = [state.columns_held(s) for s in (0, 1)]
    head = "every pawn is placed"
    if held[0] != held[1]:
        w = 0 if held[0] > held[1] else 1
        columns = f"{held[w]} score column{'s' * (held[w] != 1)}"
        return Ending((w,), "columns", f"{head}, and {names[w]} holds {columns} to {names[1 - w]}'s {held[1 - w]}")
    rows = [_olix_rows(state, s) for s in (0, 1)]
    both = f"both hold {held[0]} score column{'s' * (held[0] != 1)}" if held[0] else "neither holds a score column"
    if state.winner < 0:
        same = ", on the same rows" if held[0] else ""
        return Ending((), "columns", f"{head}, and {both}{same}")
    w = state.winner
    shown = [", ".join(str(r) for r in rows[s]) for s in (w, 1 - w)]
    return Ending(
        (w,),
        "columns",
        f"{head}; {both}, and {names[w]}'s markers stand on higher rows ({shown[0]} against {shown[1]})",
    )


def _adix(state: AdixState) -> Ending:
    info = state.game.info
    reason = state.end_reason
    if reason == "limit":
        return _turn_limit(state)
    if reason == "draw":
        return Ending((), "quiet turns", "30 turns in a row passed without a displacement")
    assert reason is not None, "a finished ADIX game has its end's reason"
    w = state.winner
    winner, loser = side_name(info, w), side_name(info, 1 - w)
    clause, kind = {
        "captain": (f"{winner} captures {loser}'s captain", "captain"),
        "team": (f"{winner} captures {loser}'s last teammate", "last teammate"),
        "stuck": (f"{loser} has no legal move, and a player who cannot move loses", "no move"),
    }[reason]
    return Ending((w,), kind, clause)


ENDS: dict[str, Callable[[Any], Ending]] = {"barc": _barc, "dorix": _dorix, "olix": _olix, "adix": _adix}
"""Each game's reader of its ends."""


def ending_of(state: State) -> Ending | None:
    """How the finished ``state`` ended (None while the game goes on); a game without a reader of its
    own says who won by the returns."""
    if not state.is_terminal():
        return None
    read = ENDS.get(state.game.info.name)
    if read is not None:
        return read(state)
    if state.is_truncated():
        return _turn_limit(state)
    returns = state.returns()
    winners = tuple(s for s in range(len(returns)) if returns[s] > 0)
    return Ending(winners, "no move" if not winners else "alignment", "the game is over")


def forfeit(state: State, seat: int, action, agent: str | None = None) -> Ending:
    """The end of a game in which ``seat`` (played by ``agent``) chose the illegal ``action`` in
    ``state``: it loses, every side but its own wins (as the environments' ``illegal_action="lose"``)."""
    info = state.game.info
    try:
        move = state.action_to_text(int(action), seat)
    except Exception:  # an action the notation cannot write: out of range, not a number
        move = f"action {action!r}"[:60]
    who = side_name(info, seat) + (f" ({agent})" if agent else "")
    losers = set(team_seats(info, seat))
    winners = tuple(s for s in range(info.num_seats) if s not in losers)
    return Ending(winners, "illegal move", f"{who} chose an illegal move ({move}), which loses the game")


# ----- the end in words -----------------------------------------------------------------------------
def outcome_for(ending: Ending, seat: int) -> str:
    """``"won"``, ``"lost"`` or ``"draw"`` for ``seat``."""
    if not ending.winners:
        return "draw"
    return "won" if seat in ending.winners else "lost"


def headline(ending: Ending, info: GameInfo, seat: int | None = None, agents: dict | None = None) -> str:
    """Who won, said to the player at ``seat`` (``You won``, ``You lost``, ``Draw``; with teams ``Your
    team won (you and player_2)``) or, without a seat, in the third person (``South (barc_az) won``,
    ``team 0 won``), the agents' names (``{seat: name}``) beside their sides."""
    if not ending.winners:
        return "Draw"
    if seat is not None:
        verb = "won" if seat in ending.winners else "lost"
        partners = info.partners(seat)
        if partners:
            return f"Your team {verb} (you and your partner {group_name(info, partners)})"
        return f"You {verb}"
    if has_teams(info):
        return f"team {info.teams[ending.winners[0]]} won"
    agents = agents or {}
    names = [side_name(info, s) + (f" ({agents[s]})" if agents.get(s) else "") for s in ending.winners]
    return " and ".join(names) + " won"


def end_line(ending: Ending, info: GameInfo, seat: int | None = None, agents: dict | None = None) -> str:
    """The end in one sentence: :func:`headline`, then the rule that ended the game (``You won: South
    lines up a1, b2, c3.``)."""
    return f"{headline(ending, info, seat, agents)}: {ending.reason}."


def result_line(state: State, seat: int | None = None, agents: dict | None = None) -> str:
    """:func:`end_line` of the finished ``state`` (empty while the game goes on)."""
    ending = ending_of(state)
    return "" if ending is None else end_line(ending, state.game.info, seat, agents)
