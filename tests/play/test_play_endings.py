"""The end of every game in words (boardgames.play.ending), from concrete positions checked by hand: each
position is one move before the end (or, where a game can only reach that end from a position, the
ended position itself), the move is played by the engine, and the sentence must name the rule that
ended the game, said to the player ("You won: ...") and to someone watching ("South won: ...").

Boards in notation list the top rank first (see docs/rules/<game>.md)."""

from __future__ import annotations

import pytest

from boardgames.envs.registry import make_game
from boardgames.play.ending import KINDS, end_line, ending_of, forfeit
from boardgames.play.sides import SIDES, TITLES, sides_of, you_play

OLIX_FILL = "/".join(["wwbbwwbbwwb" if rank % 2 else "bbwwbbwwbbw" for rank in range(7, 0, -1)])
"""Ranks 7..1 of an Olix grid with no pattern (runs of 2 at most in every direction; ranks alternate
colours file by file): 39 light and 38 dark pawns."""
OLIX_TOP = "ww1b7/ww1bb6/5w1w1w1/bbbbb6/"
"""Ranks 11..8 above it: light's 2x2 square (O-4) on a10-b11, dark's I-5 on a8-e8, 7 light and 8 dark
pawns: 46 each, 92 placed, the game over by the count (O6)."""

CASES = [
    # (game, options, position, moves, kind, said to seat 0, said to a watcher)
    (
        "dorix",
        {"num_players": 2},
        "dorix -.-.-.-/-.-.0.-/-.0.-.-/0.-.-.1 hands=12,14 move=0 turn=4",
        ["d4"],
        "alignment",
        "You won: player_0 tops all four stacks of the long diagonal a1-b2-c3-d4.",
        "player_0 won: player_0 tops all four stacks of the long diagonal a1-b2-c3-d4.",
    ),
    (
        "dorix",
        {"num_players": 3},
        "dorix -.-.-.-/-.-.2.-/-.2.-.-/2.1.0.- hands=11,11,9 move=2 turn=5",
        ["d4"],
        "alignment",
        "You lost: player_2 tops all four stacks of the long diagonal a1-b2-c3-d4.",
        "player_2 won: player_2 tops all four stacks of the long diagonal a1-b2-c3-d4.",
    ),
    (
        "dorix",
        {"num_players": 4},
        "dorix 3.-.-.-/-.1.-.-/-.-.3.-/0.2.-.- hands=9,9,9,8 move=3 turn=7",
        ["d1"],
        "alignment",
        "Your team lost (you and your partner player_2): team 1 (player_1 and player_3) tops all four stacks "
        "of the long diagonal a4-b3-c2-d1.",
        "team 1 won: team 1 (player_1 and player_3) tops all four stacks of the long diagonal a4-b3-c2-d1.",
    ),
    (
        "dorix",
        {"num_players": 2},
        "dorix -.-.-.-/-.-.-.-/-.-.-.-/0.1.-.- hands=14,14 move=0 turn=2 limit=3",
        ["c1"],
        "turn limit",
        "Draw: the turn limit of 3 turns is reached without a winner.",
        "Draw: the turn limit of 3 turns is reached without a winner.",
    ),
    (
        "olix",
        {},
        "olix bbbbbbb4/11/11/11/11/11/11/11/11/11/wwwwwww4 move=0 turn=14 marks=O-,L-,I7wb,X-",
        ["h1"],
        "pattern",
        "You won: player_0 makes the super pattern I-8, beyond the top of its column (I-7).",
        "player_0 won: player_0 makes the super pattern I-8, beyond the top of its column (I-7).",
    ),
    (
        "olix",
        {},
        f"olix ww9/ww1bb6/5w1w1w1/bbbbb6/{OLIX_FILL} move=1 turn=91 marks=O4w,L-,I-,X-",
        ["k11"],  # dark's last pawn, alone: it scores nothing, and the count decides
        "columns",
        "You won: every pawn is placed, and player_0 holds 1 score column to player_1's 0.",
        "player_0 won: every pawn is placed, and player_0 holds 1 score column to player_1's 0.",
    ),
    (
        "olix",
        {},
        f"olix {OLIX_TOP}{OLIX_FILL} move=0 turn=92 marks=O4w,L-,I5b,X- over=win:1",
        [],
        "columns",
        "You lost: every pawn is placed; both hold 1 score column, and player_1's markers stand on higher rows "
        "(2 against 1).",
        "player_1 won: every pawn is placed; both hold 1 score column, and player_1's markers stand on higher "
        "rows (2 against 1).",
    ),
    (
        "olix",
        {},
        f"olix {OLIX_TOP}{OLIX_FILL} move=0 turn=92 marks=O4w,L-,I4b,X- over=draw",
        [],
        "columns",
        "Draw: every pawn is placed, and both hold 1 score column, on the same rows.",
        "Draw: every pawn is placed, and both hold 1 score column, on the same rows.",
    ),
    (
        "olix",
        {"max_turns": 30},
        "olix 11/11/11/11/11/11/11/11/11/11/wwwb7 move=1 turn=4 limit=5",
        ["k11"],
        "turn limit",
        "Draw: the turn limit of 5 turns is reached without a winner.",
        "Draw: the turn limit of 5 turns is reached without a winner.",
    ),
    (
        "adix",
        {},
        "adix 4crps4/9/9/9/trps8/9/9/Tpsr8/4Crps4 move=0 turn=10 quiet=0",
        ["a2xa5"],  # White's paper takes Black's rock: its last teammate
        "last teammate",
        "You won: White captures Black's last teammate.",
        "White won: White captures Black's last teammate.",
    ),
    (
        "adix",
        {},
        "adix 4crps4/9/9/9/trps8/9/9/Tpsr8/4Crps4 move=0 turn=40 quiet=29",
        ["e1L"],  # a rotation: the 30th quiet turn
        "quiet turns",
        "Draw: 30 turns in a row passed without a displacement.",
        "Draw: 30 turns in a row passed without a displacement.",
    ),
    (
        "adix",
        {},
        "adix 4crps4/9/9/9/trps8/9/9/Tpsr8/4Crps4 move=0 turn=39 quiet=3 limit=40",
        ["e1L"],
        "turn limit",
        "Draw: the turn limit of 40 turns is reached without a winner.",
        "Draw: the turn limit of 40 turns is reached without a winner.",
    ),
    (
        "barc",
        {},
        "barc 1.1.-.1.0.1/-.-.-.-.-.-/-.-.0.-.-.-/-.-.-.-.-.-/-.-.0.-.-.-/0.0.-.1.0.1 turn=7",
        ["c2-c1 | stay"],
        "alignment",
        "You won: South lines up a1, b1, c1.",
        "South won: South lines up a1, b1, c1.",
    ),
    (
        "barc",
        {},
        "barc 11.11.-.-.-.11/-.-.-.-.-.0/-.-.-.-.-.-/-.0.-.0.-.-/-.-.-.-.-.-/0.-.0.-.0.- turn=7",
        ["f5-f6 | stay"],  # South's pawn covers North's stack on f6: North tops a6 and b6 only
        "stacks",
        "You won: North tops only 2 stacks (two stacks or fewer lose).",
        "South won: North tops only 2 stacks (two stacks or fewer lose).",
    ),
    (
        "barc",
        {},
        "barc -.-.-.1.1.-/1.-.1.-.-.1/-.-.-.-.-.-/1.0.-.-.-.-/-.-.0.-.-.0/0.0.-.-.0.- turn=7",
        ["c2-c1 | f5-f6"],
        "alignment",
        "Draw: both reach victory on the same turn: South lines up a1, b1, c1; North lines up d6, e6, f6.",
        "Draw: both reach victory on the same turn: South lines up a1, b1, c1; North lines up d6, e6, f6.",
    ),
    (
        "barc",
        {},
        "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=4 limit=5",
        ["stay | stay"],
        "turn limit",
        "Draw: the turn limit of 5 turns is reached without a winner.",
        "Draw: the turn limit of 5 turns is reached without a winner.",
    ),
]


def _play(name: str, options: dict, position: str, moves: list):
    game = make_game(name, **options)
    state = game.from_text(position)
    for move in moves:
        assert ending_of(state) is None, "the game ended before the last move"
        seats = state.current_seats()
        state.apply_actions(state.text_to_actions(move) if "|" in move else {seats[0]: state.text_to_action(move)})
    return game, state


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[4]}-{i}" for i, c in enumerate(CASES)])
def test_each_end_is_said_with_its_rule(case):
    name, options, position, moves, kind, to_player, to_watcher = case
    game, state = _play(name, options, position, moves)
    ending = ending_of(state)
    assert ending is not None and ending.kind == kind and kind in KINDS
    assert end_line(ending, game.info, 0) == to_player
    assert end_line(ending, game.info) == to_watcher
    assert ending.returns(game.info.num_seats) == [float(r) for r in state.returns()]


def test_adix_captain_captured():
    """White's paper teammate on e8 takes Black's rock captain on e9 (paper beats rock)."""
    game, state = _play("adix", {}, "adix 4crps4/4Tpsr4/9/9/9/9/9/thps8/4Crps4 move=0 turn=10 quiet=0", ["e8xe9"])
    ending = ending_of(state)
    assert ending.kind == "captain" and ending.winners == (0,)
    assert end_line(ending, game.info, 1) == "You lost: White captures Black's captain."


def test_the_ends_no_game_reaches_from_a_position_are_said_too():
    """ADIX's player without a legal action (A4) and Dorix's "no seat can act" cannot arise while the
    rules run (a captain can always rotate; some Dorix seat can always act), and no position in
    notation holds them; their words are checked on the engine's own end fields."""
    from boardgames.envs.adix import rules as A
    from boardgames.envs.dorix import rules as D

    game = make_game("adix")
    state = game.new_initial_state()
    state.data[A.OVER], state.data[A.WINNER], state.data[A.REASON] = 1, 1, A.END_STUCK
    ending = ending_of(state)
    assert ending.kind == "no move" and ending.winners == (1,)
    assert end_line(ending, game.info, 1) == "You won: White has no legal move, and a player who cannot move loses."
    dorix = make_game("dorix", num_players=3)
    state = dorix.new_initial_state()
    state.data[D.OVER], state.data[D.WINNER] = 1, -1
    assert end_line(ending_of(state), dorix.info, 0) == "Draw: no seat can act."


def test_a_team_that_wins_is_told_who_its_partner_is():
    game, state = _play("dorix", {"num_players": 4}, CASES[2][2], ["d1"])
    ending = ending_of(state)
    assert ending.winners == (1, 3)
    assert end_line(ending, game.info, 3).startswith("Your team won (you and your partner player_1): team 1")


def test_an_illegal_move_loses_and_is_named():
    game = make_game("barc")
    state = game.new_initial_state()
    ending = forfeit(state, 1, 0, agent="cheat")  # action 0 of North: no stack of North's there
    assert ending.kind == "illegal move" and ending.winners == (0,)
    line = end_line(ending, game.info, 0)
    assert line.startswith("You won: North (cheat) chose an illegal move (") and line.endswith("which loses the game.")
    assert end_line(ending, game.info, agents={0: "barc_az"}).startswith("South (barc_az) won: North (cheat)")
    assert "action 99999" in forfeit(state, 1, 99999).reason  # one the notation cannot write
    four = make_game("dorix", num_players=4)
    assert forfeit(four.new_initial_state(), 2, 999).winners == (1, 3)  # the offender's partner loses too


def test_the_sides_are_named_as_the_rules_pages_name_them():
    """Every side's name and colour is in its game's rules page (docs/rules/<game>.md), and its title."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "docs" / "rules"
    for name, sides in SIDES.items():
        text = (root / f"{name}.md").read_text()
        assert TITLES[name] in text
        for side in sides:
            assert side.name in text and (side.detail is None or side.detail in text), (name, side)
    barc = make_game("barc").info
    assert [s.full for s in sides_of(barc)] == ["South (light)", "North (dark)"]
    assert you_play(barc, 1) == "You play North (dark)."
    four = make_game("dorix", num_players=4).info
    assert you_play(four, 1) == "You play player_1 (dark), with player_3 (blue) as your partner (team 1)."
