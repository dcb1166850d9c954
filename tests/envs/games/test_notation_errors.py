"""Every game's position parser refuses a malformed position with a NotationError whose message names
the problem: one table of malformed positions per game (the text, and a pattern the message must
match), one test (the conformance suite only checks that nonsense is refused)."""

from __future__ import annotations

import pytest

from boardgames.envs.core.errors import NotationError
from boardgames.envs.registry import make_game

BARC_START = "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"

MALFORMED = {
    "adix": [
        ("dorix 9/9", "starts with 'adix"),
        ("adix 9/9/9 move=0 turn=0 quiet=0", "9 ranks"),
        ("adix 4crps4/9/9/9/9/9/9/9/4Crps3 move=0 turn=0 quiet=0", "8 squares"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Cpps4 move=0 turn=0 quiet=0", "not a possible cube"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Chps4 move=0 turn=0 quiet=0", "no shelter face"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Xrps4 move=0 turn=0 quiet=0", "cannot read"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/3CrpsCrps4 move=0 turn=0 quiet=0", "2 captains"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/9 move=0 turn=0 quiet=0", "no captain"),
        ("adix 4crps4/9/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0", "no teammate"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=2 turn=0 quiet=0", "move"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0", "quiet="),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=30", "draw"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=300 quiet=0", "turn limit"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 rep=0:e5:L:2", "no cube of theirs"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 rep=0:e2:L:2", "sheltered"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 rep=0:e1:L:3", "rep="),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 colour=1", "unknown field"),
        ("adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 over=win:0:captain", "still on the board"),
    ],
    "barc": [
        ("barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.- turn=0", "5 pawns"),
        ("barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.2 turn=0", "not a cell"),
        (
            "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0 turn=0",
            "rank 1 needs 6 squares .*got 5",
        ),
        ("barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0 turn=0", "6 ranks"),
        ("barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0", "turn="),
        (BARC_START + " last=a1-a2,stay", "turn=0"),
        (BARC_START.replace("turn=0", "turn=2") + " last=a1-a2", "both orders"),
        (BARC_START.replace("turn=0", "turn=2") + " last=a1-c2,stay", "straight line"),
        (BARC_START + " over=win:0", "nobody reaches victory"),
        (BARC_START + " over=limit", "before the turn limit"),
        (BARC_START + " colour=1", "unknown field"),
        ("barc 0.0.0.1.-.-/1.-.-.1.-.-/-.-.-.1.1.1/-.-.-.0.0.0/-.-.-.-.-.-/-.-.-.-.-.- turn=4", "draw"),
        (
            "barc 0.0.0.1.-.-/1.-.-.1.-.-/-.-.-.1.1.1/-.-.-.0.0.0/-.-.-.-.-.-/-.-.-.-.-.- turn=4 over=win:1",
            "both players reach victory",
        ),
    ],
    "dorix": [
        ("dorix -.-.-.-/-.-.-.- hands=15,15 move=0 turn=0", "4 ranks"),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/5.-.-.- hands=14,15 move=0 turn=0", "seats 0..1"),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/0.-.-.- hands=15,15 move=0 turn=0", "seat 0 has 1 pawns"),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 turn=0", "move="),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15,15 move=0 turn=0", "3 players"),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0 speed=3", "unknown field"),
        ("chess -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0", "starts with"),
    ],
    "olix": [
        ("olix 11/11/11 move=0 turn=0", "11 ranks"),
        ("olix 11/11/11/11/11/11/11/11/11/11/10z move=0 turn=0", "'z' is not a cell"),
        ("olix 11/11/11/11/11/11/11/11/11/11/12 move=0 turn=0", "longer than 11"),
        ("olix 11/11/11/11/11/11/11/11/11/11/10 move=0 turn=0", "has 10 cells"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 turn=0", "move="),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=2 turn=0", "move"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0 marks=O5w,L-,I-,X-", "no value 5"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0 marks=L5w,O-,I-,X-", "entry 1"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0 over=super:0:L8", "not a super pattern"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0 last=a1", "empty cell"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0 colour=red", "unknown field"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=92", "turn limit 92"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=10 limit=10", "turn limit 10"),
        ("olix " + "/".join(["w" * 11] * 5 + ["11"] * 6) + " move=0 turn=55", "55 pawns"),
        ("olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=92 marks=O4w,L-,I-,X- over=win:1", "contradicts"),
        ("dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0", "starts with 'olix"),
    ],
}


@pytest.mark.parametrize(
    "name,text,message", [(name, text, message) for name, rows in MALFORMED.items() for text, message in rows]
)
def test_malformed_positions_are_named(name, text, message):
    with pytest.raises(NotationError, match=message):
        make_game(name).from_text(text)
