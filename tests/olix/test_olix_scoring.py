"""Olix score columns (O3, O5), the end of the game and the count with its tie-break (O6), the turn
limit, notation, options and bad input. Expected results were worked out by hand from the rulings."""

from __future__ import annotations

import numpy as np
import pytest
from olix_helpers import cell_index, columns, notation, only, play, play_randomly, position

from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.olix import rules as R
from boardgames.envs.olix.game import OlixGame

W, B = 0, 1

# a line of 3 of w's on rank 1 (d1 makes I-4) and one of 4 (f2..f5 side by side with f6: I-5)
LINE = dict(w="a1 b1 c1 f2 f3 f4 f5", b="k5 k6 k7 k8 k9 k10 k11")


def test_column_values_are_the_printed_ones():
    assert R.COLUMN_VALUES.tolist() == [[4, 6, 8, 9], [5, 6, 7, 8], [4, 5, 6, 7], [4, 5, 6, 7]]


def test_a_lower_value_after_a_higher_one_scores_nothing():
    s = play(position(**LINE, move=0, marks="O-,L-,I6b,X-"), "d1")  # w's I-4 under b's I-6
    assert columns(s) == only(I=(6, (B,)))


def test_an_equal_value_is_shared():
    s = play(position(**LINE, move=0, marks="O-,L-,I4b,X-"), "d1")
    assert columns(s) == only(I=(4, (W, B)))


def test_a_higher_value_removes_the_lower_markers_of_both_players():
    s = play(position(**LINE, move=0, marks="O-,L-,I4wb,X-"), "f6")  # w's I-5 over the shared I-4
    assert columns(s) == only(I=(5, (W,)))
    s = play(position(**LINE, move=0, marks="O-,L-,I4w,X-"), "f6")  # w's own marker moves up
    assert columns(s) == only(I=(5, (W,)))


def test_a_shared_top_value_stays_shared_when_the_holder_repeats_it():
    s = play(position(**LINE, move=0, marks="O-,L-,I4wb,X-"), "d1")
    assert columns(s) == only(I=(4, (W, B)))


def test_the_top_value_of_a_column_is_still_marked_not_a_win():
    # I-7 is the top of the I column: marked, the game goes on
    s = play(position(w="a1 b1 c1 e1 f1 g1", b="a2 b2 c2 e2 f2 g2", move=0), "d1")
    assert columns(s) == only(I=(7, (W,))) and not s.is_terminal()


# --- the end when the pawns are used up, and the count -----------------------------------------
# A grid with 46 pawns of w (ranks 1-4 and a5, b5) and 45 of b (ranks 8-11 and a7): b places its
# last pawn on f6, where it makes no pattern, and the game is counted on the given marks.
FULL_W = " ".join(f"{f}{r}" for r in range(1, 5) for f in "abcdefghijk") + " a5 b5"
FULL_B = " ".join(f"{f}{r}" for r in range(8, 12) for f in "abcdefghijk") + " a7"


def final(marks: str | None):
    s = position(w=FULL_W, b=FULL_B, move=1, turn=91, marks=marks)
    assert s.pawns_left(W) == 0 and s.pawns_left(B) == 1 and not s.is_terminal()
    before = columns(s)
    play(s, "f6")
    assert columns(s) == before  # the last pawn scored nothing
    assert s.is_terminal() and not s.is_truncated() and s.super_pattern is None
    return s


@pytest.mark.parametrize(
    "marks,winner",
    [
        ("O4w,L5w,I4w,X7b", W),  # more columns wins (3 against 1), whatever the rows
        ("O6wb,L6wb,I-,X4b", B),  # shared columns count for both: 2 against 3
        ("O8wb,L7wb,I6w,X7b", B),  # 3 each: best rows 3 against 4 (the source's example: X-7 decides)
        ("O9wb,L7w,I5b,X-", W),  # 2 each: best rows equal (4), next 3 against 2
        ("O9wb,L8wb,I4w,X5b", B),  # 3 each: rows 4, 4 equal, then 1 against 2
        ("O6wb,L-,I5w,X5b", -1),  # 2 each, rows 2, 2 against 2, 2: draw
        (None, -1),  # nobody scored anything: draw
    ],
)
def test_end_of_game_count_and_tie_break(marks, winner):
    s = final(marks)
    assert s.winner == winner
    expected = [0.0, 0.0] if winner < 0 else ([1.0, -1.0] if winner == W else [-1.0, 1.0])
    assert list(s.returns()) == expected
    assert s.to_text().endswith("over=draw" if winner < 0 else f"over=win:{winner}")


def test_the_game_is_not_over_while_a_player_has_pawns_left():
    s = position(w=FULL_W.replace(" b5", ""), b=FULL_B, move=1, turn=90)  # w 45, b 45
    play(s, "f6")
    assert not s.is_terminal() and s.current_seat == W and s.pawns_left(W) == 1


def test_a_full_random_game_ends_after_92_turns_at_most():
    rng = np.random.default_rng(5)
    game = OlixGame()

    def check(s):
        assert s.current_seat == s.turn % 2  # seat 0 starts, turns alternate (O1)

    for _ in range(20):
        s = play_randomly(game.new_initial_state(), rng, check)
        assert s.turn <= 92 and not s.is_truncated()
        if s.super_pattern is None:
            assert s.turn == 92 and s.pawns_left(W) == 0 and s.pawns_left(B) == 0


def test_set_up_position_a_player_without_pawns_is_skipped():
    # [decision] w has placed all 46 pawns, b has 2 left: b plays twice, then the game is counted
    s = position(w=FULL_W, b=FULL_B.replace(" a7", ""), move=1, turn=90)
    assert s.pawns_left(W) == 0 and s.pawns_left(B) == 2
    play(s, "f6")
    assert not s.is_terminal() and s.current_seat == B and not s.legal_mask(W).any()
    play(s, "c6")  # neither pawn makes a pattern (rank 7 is empty, f6 and c6 are apart)
    assert s.is_terminal() and not s.is_truncated() and s.winner == -1 and columns(s) == only()


# --- turn limit, start, options -----------------------------------------------------------------


def test_start_position():
    s = OlixGame().new_initial_state()
    assert s.current_seat == W and s.turn == 0 and s.pawns_left(W) == 46 and s.pawns_left(B) == 46
    assert s.legal_mask().all() and not s.legal_mask(B).any()
    assert s.to_text() == "olix " + "/".join(["11"] * 11) + " move=0 turn=0"


def test_turn_limit_truncates_with_zero_returns():
    s = OlixGame(max_turns=3).new_initial_state()
    play(s, "a1", "k11", "f6")
    assert s.is_terminal() and s.is_truncated() and list(s.returns()) == [0.0, 0.0]
    assert s.to_text().endswith("over=limit")


def test_bad_options_are_named():
    for bad in (0, -5, 2.5, True, "92"):
        with pytest.raises(GameOptionError, match="max_turns"):
            OlixGame(max_turns=bad)


# --- notation and bad input ---------------------------------------------------------------------


def test_notation_round_trip_with_every_field():
    # the markers' patterns are on the grid: player_0's I-5 a1-e1, player_1's I-5 k7-k11 and X-4 h8-k11
    text = notation(
        w="a1 b1 c1 d1 e1 b2", b="k11 k10 k9 k8 k7 j10 i9 h8", move=1, marks="O-,L-,I5wb,X4b", extra="limit=50 last=b2"
    )
    s = OlixGame().from_text(text)
    assert s.owner("a1") == W and s.owner("k11") == B and s.owner("c3") == -1
    assert s.column("I") == (5, (W, B)) and s.column("X") == (4, (B,))
    assert s.pawns_left(W) == 40 and s.pawns_left(B) == 38
    assert OlixGame().from_text(s.to_text()) == s
    assert s.to_text() == (
        "olix 10b/9bb/8b1b/7b2b/10b/11/11/11/11/1w9/wwwww6 move=1 turn=14 limit=50 last=b2 marks=O-,L-,I5wb,X4b"
    )
    # player_1's X-8 a1-h8 is on the grid (an over=super with no such pattern is refused)
    over = OlixGame().from_text(
        notation(w="k1 k3 k5 k7 k9 k11 i11", b="a1 b2 c3 d4 e5 f6 g7 h8", extra="over=super:1:X8")
    )
    assert over.is_terminal() and over.winner == B and over.super_pattern == "X-8"


def test_illegal_moves_raise_and_leave_the_state_alone():
    s = position(w="a1", b="k11", move=0)
    text = s.to_text()
    with pytest.raises(IllegalActionError, match="already holds a pawn of player_1"):
        s.text_to_action("k11")
    with pytest.raises(IllegalActionError, match="off the board"):
        s.text_to_action("l1")
    with pytest.raises(IllegalActionError, match="not a square name"):
        s.text_to_action("11")
    with pytest.raises(IllegalActionError, match="illegal"):
        s.apply(cell_index("a1"))
    with pytest.raises(IllegalActionError, match="out of range"):
        s.apply(121)
    assert s.to_text() == text


def test_moves_read_and_written_as_cell_names():
    s = OlixGame().new_initial_state()
    assert s.action_to_text(0) == "a1" and s.action_to_text(120) == "k11" and s.action_to_text(12) == "b2"
    assert s.text_to_action("F6") == cell_index("f6") == 60
