"""The one naming of each game's sides, read by every screen of ``boardgames play`` (terminal, window,
browser page, replays): the name each game's rules page (``docs/rules/<game>.md``) gives its sides, the
colour the pictures draw them in, and the game's title.

==========  ==========================================================  ===============================
game        sides (seat 0 first), as the rules page names them          title
==========  ==========================================================  ===============================
dorix       player_0 (light), player_1 (dark), player_2 (red),          Dorix
            player_3 (blue); at 4 players team 0 = player_0 and
            player_2, team 1 = player_1 and player_3
olix        player_0 (light), player_1 (dark)                           Olix
adix        White, Black                                                ADIX
barc        South (light), North (dark)                                 Barc duel
==========  ==========================================================  ===============================

The engines keep naming seats ``player_k`` (``GameInfo.seat_names``, move lists, notation): these names
are what a person reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardgames.envs.core.game import GameInfo


@dataclass(frozen=True)
class Side:
    """One side of a game: its ``name`` in sentences ("South") and the ``detail`` said once when the
    side is introduced (its colour in the pictures: "light"), or None."""

    name: str
    detail: str | None = None

    @property
    def full(self) -> str:
        """The side as introduced: ``South (light)``, or its name alone."""
        return f"{self.name} ({self.detail})" if self.detail else self.name


SIDES: dict[str, tuple[Side, ...]] = {
    "dorix": (Side("player_0", "light"), Side("player_1", "dark"), Side("player_2", "red"), Side("player_3", "blue")),
    "olix": (Side("player_0", "light"), Side("player_1", "dark")),
    "adix": (Side("White"), Side("Black")),
    "barc": (Side("South", "light"), Side("North", "dark")),
}
"""The sides of each game, seat 0 first (Dorix's at 2 and 3 players are its first 2 or 3)."""

TITLES = {"dorix": "Dorix", "olix": "Olix", "adix": "ADIX", "barc": "Barc duel"}
"""Each game's title as its rules page writes it."""


def sides_of(info: GameInfo) -> tuple[Side, ...]:
    """The sides of the game ``info`` describes, one per seat (a game missing from :data:`SIDES` keeps
    its engine's seat names)."""
    table = SIDES.get(info.name)
    if table is None or len(table) < info.num_seats:
        return tuple(Side(name) for name in info.seat_names)
    return table[: info.num_seats]


def side_name(info: GameInfo, seat: int) -> str:
    """The name of ``seat``'s side in sentences (``South``)."""
    return sides_of(info)[seat].name


def title_of(info: GameInfo) -> str:
    """The game's title, with the player count where the game has several (``Dorix for 4 players``)."""
    title = TITLES.get(info.name, info.name)
    return f"{title} for {info.num_seats} players" if "num_players" in info.options else title


def options_text(info: GameInfo) -> str:
    """The game's options as a reader writes them: ``start alternating, max_turns 200``."""
    return ", ".join(f"{key} {value}" for key, value in info.options.items())


def team_seats(info: GameInfo, seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s team, ``seat`` first (only ``seat`` where there are no teams)."""
    return (seat,) + tuple(info.partners(seat))


def has_teams(info: GameInfo) -> bool:
    """Whether some side holds several seats (4-player Dorix)."""
    return len(set(info.teams)) < info.num_seats


def group_name(info: GameInfo, seats) -> str:
    """The seats named together: ``player_0 and player_2``, ``South``."""
    names = [side_name(info, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def team_name(info: GameInfo, seat: int) -> str:
    """``seat``'s side as a sentence names it: its name, or with teams ``team 0 (player_0 and player_2)``."""
    if not has_teams(info):
        return side_name(info, seat)
    return f"team {info.teams[seat]} ({group_name(info, sorted(team_seats(info, seat)))})"


def you_play(info: GameInfo, seat: int) -> str:
    """The line introducing the player's side: ``You play South (light).``; with teams it names the
    partner: ``You play player_0 (light), with player_2 (red) as your partner (team 0).``"""
    side = sides_of(info)[seat]
    partners = info.partners(seat)
    if not partners:
        return f"You play {side.full}."
    mates = " and ".join(sides_of(info)[p].full for p in partners)
    return f"You play {side.full}, with {mates} as your partner (team {info.teams[seat]})."
