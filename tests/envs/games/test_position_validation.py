"""Positions that no game can reach are refused by the parsers: a stated result that
the board contradicts, a running game whose board has ended it, a turn count past the limit, Barc's
last orders that do not fit the board. Each refused position is next to a possible one that is read,
so that the checks are seen to refuse only what they should. (Boards and results checked by hand
against docs/rules/<game>.md.)"""

from __future__ import annotations

import pytest

from boardgames.envs.core.errors import NotationError
from boardgames.envs.registry import make_game

EMPTY_DORIX = "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0"
# seat 0 tops a1, b2, c3 and d4: the long diagonal a1-d4
DIAGONAL = "dorix -.-.-.0/-.-.0.-/-.0.-.-/0.-.-.- hands=11,15 move=1 turn=7"
EMPTY_OLIX = "olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0"
ADIX_START = "adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0"
BARC_START = "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"

REFUSED = {
    "dorix": [
        (DIAGONAL, "side 0 controls a long diagonal alone: the game is over"),  # was read as a running game
        (EMPTY_DORIX + " over=win:0", "over=win:0, but no side controls a long diagonal alone"),  # broke invariants
        (EMPTY_DORIX.replace("turn=0", "turn=500"), "turn=500 is past the turn limit 200"),  # was accepted
        (EMPTY_DORIX.replace("turn=0", "turn=200"), "turn=200 reaches the turn limit 200: the game is over"),
        (EMPTY_DORIX.replace("turn=0", "turn=199") + " over=limit", r"over=limit before the turn limit"),
        (DIAGONAL.replace("turn=7", "turn=200") + " over=limit", "over=limit, but side 0 controls a long diagonal"),
        (DIAGONAL + " over=win:1", "over=win:1, but side 0 controls a long diagonal alone"),
        (EMPTY_DORIX + " over=draw", "over=draw, but seat 0 can act"),
        (EMPTY_DORIX + " last=a1-a1", "lands on another square"),
    ],
    "olix": [
        (EMPTY_OLIX + " over=super:0:L9", "over=super:0:L9, but player_0's largest L on the grid is no L"),
        (EMPTY_OLIX + " marks=O-,L-,I5wb,X4b", "player_0 holds a marker on column I but has no I pattern"),
        (
            "olix 10b/11/11/11/11/11/11/11/11/11/wwwwwwww3 move=0 turn=9 last=k11 over=super:0:I8",
            r"the last pawn \(k11\) is not in a I-8 of player_0",
        ),
        (
            "olix 11/11/11/11/11/11/11/11/11/11/wwww4bbb move=1 turn=7 marks=O-,L-,I4w,X- over=win:0",
            r"over=win:0: the count \(O6\) comes only once every pawn is placed",
        ),
        ("olix 11/11/11/11/11/11/11/11/11/11/wwb8 move=1 turn=5", "turn=5, but the grid holds 3 pawns"),
        (EMPTY_OLIX.replace("turn=0", "turn=500"), "turn=500 is past the turn limit 92"),
        ("olix 11/11/11/11/11/11/11/11/11/11/wwb8 move=1 turn=3 over=limit", "over=limit before the turn limit"),
    ],
    "adix": [
        (ADIX_START + " over=limit", r"over=limit before the turn limit \(turn=0, limit 300\)"),  # was accepted
        (ADIX_START.replace("turn=0", "turn=301"), "turn=301 is past the turn limit 300"),
        (
            ADIX_START.replace("turn=0 quiet=0", "turn=300 quiet=30") + " over=limit",
            "quiet=30 ended the game in a draw",
        ),
        (ADIX_START.replace("turn=0", "turn=12") + " over=win:0:stuck", "Black has a legal action"),
        (
            "adix 4crps4/4thps4/9/9/9/9/9/9/4Crps4 move=0 turn=40 quiet=30 over=draw",
            "over=draw, but White has lost its captain or every teammate",
        ),
    ],
    "barc": [
        # a3 is empty: player_0's a1-a3 cannot have been played (and a1-a3 is two squares for one pawn)
        (BARC_START.replace("turn=0", "turn=1") + " last=a1-a3,stay", "a3 is not topped by player_0's pawn"),
        # a1 still holds its pawn, so no stack left it
        (BARC_START.replace("turn=0", "turn=1") + " last=a1-a2,stay", "the stack left a1, which is not empty"),
        # a one-pawn stack on a4 cannot have come from a2, two squares away
        (
            "barc 1.1.-.-.1.1/1.-.-.-.-.1/0.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 last=a2-a4,stay",
            "a stack travels at most its height",
        ),
        # both orders named a3, so nobody moved, but North's a5-a3 is two squares for one pawn
        (BARC_START.replace("turn=0", "turn=1") + " last=a2-a3,a5-a3", "nobody moved, but it is not legal here"),
        (BARC_START.replace("turn=0", "turn=201"), "turn=201 is past the turn limit 200"),
    ],
}

ACCEPTED = {
    "dorix": [
        DIAGONAL + " over=win:0",
        # seat 0 holds a1-d4 and seat 1 a4-d1: nobody alone, the game goes on
        "dorix 1.-.-.0/-.1.0.-/-.0.1.-/0.-.-.1 hands=11,11 move=0 turn=8",
        # a collapse from c2 under way (c1 and b2 to receive): side 0 holds a1-d4 alone (a1, b2, c3, d4
        # topped by 0) but the diagonals are checked only once the collapse is over
        "dorix 00.0.10.10/0.10.1110.-/10.110.01.010/0.1.110.1 hands=0,0 move=0 turn=36 last=b3-c2 collapse=c2:2:c1,b2",
        EMPTY_DORIX.replace("turn=0", "turn=200") + " over=limit",
        EMPTY_DORIX.replace("turn=0", "turn=50") + " limit=50 over=limit",
    ],
    "olix": [
        # player_0's I-8 a1-h1, made by h1
        "olix 10b/11/11/11/11/11/11/11/11/11/wwwwwwww3 move=0 turn=9 last=h1 over=super:0:I8",
        "olix 11/11/11/11/11/11/11/11/11/11/wwwwb6 move=1 turn=5 last=e1 marks=O-,L-,I4w,X-",
        "olix 11/11/11/11/11/11/11/11/11/11/wwb8 move=1 turn=3 limit=3 over=limit",
    ],
    "adix": [
        ADIX_START.replace("turn=0", "turn=300") + " over=limit",
        ADIX_START.replace("turn=0 quiet=0", "turn=41 quiet=30") + " over=draw",
        "adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=299 quiet=29",
    ],
    "barc": [
        "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/0.-.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 last=a2-a3,stay",
        # South's a2-a3 and North's a5-a4, one square each
        "barc 1.1.-.-.1.1/-.-.-.-.-.1/1.-.-.-.-.-/0.-.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 last=a2-a3,a5-a4",
        # both named a3 (empty), nobody moved, each order legal on this board
        "barc 1.1.-.-.1.1/-.-.-.-.-.1/1.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=3 last=a2-a3,a4-a3",
        # South captured North's stack on b3 as North moved it away to c4: b3 holds South's pawn
        "barc 1.1.-.-.1.1/-.-.-.-.-.1/-.-.1.-.-.-/-.0.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=4 last=a2-b3,b3-c4",
        BARC_START.replace("turn=0", "turn=200") + " over=limit",
    ],
}


@pytest.mark.parametrize(
    "name,text,message", [(name, text, message) for name, rows in REFUSED.items() for text, message in rows]
)
def test_impossible_positions_are_refused_with_the_reason(name, text, message):
    with pytest.raises(NotationError, match=message):
        make_game(name).from_text(text)


@pytest.mark.parametrize("name,text", [(name, text) for name, rows in ACCEPTED.items() for text in rows])
def test_possible_positions_are_read_and_written_back(name, text):
    state = make_game(name).from_text(text)
    state.check_invariants()
    assert state.to_text() == text


def test_results_read_from_a_board_that_backs_them():
    won = make_game("dorix").from_text(DIAGONAL + " over=win:0")
    assert won.is_terminal() and won.winner == 0 and won.returns().tolist() == [1.0, -1.0]
    cut = make_game("adix").from_text(ADIX_START.replace("turn=0", "turn=300") + " over=limit")
    assert cut.is_terminal() and cut.is_truncated() and cut.returns().tolist() == [0.0, 0.0]
    cancelled = make_game("barc").from_text(ACCEPTED["barc"][2])
    assert cancelled.last_cancelled and cancelled.last_orders() == ("a2-a3", "a4-a3")


def test_from_text_refuses_a_parsed_state_that_breaks_an_invariant():
    # the shared guard behind every parser: a parser that let an impossible state through
    game = make_game("dorix")
    bad = game.from_text(EMPTY_DORIX)
    bad.data[bad.rules.HANDS] = 3  # 3 pawns in hand and none on the board: 12 of seat 0's are gone
    game.parse_position = lambda text: bad
    with pytest.raises(NotationError, match="impossible position: seat 0: 0 on board \\+ 3 in hand != 15"):
        game.from_text(EMPTY_DORIX)
