"""Each Olix pattern (source 003, ruling O2) on a concrete position written in notation.

Every test places player_0's ("w") pawns and player_1's ("b") pawns, plays one pawn, and checks the
score columns (O, L, I, X) against values worked out by hand from the rules:
I / X = length of the straight / diagonal run; L = arm1 + arm2 - 1 with both arms >= 3 (corner in
both); O = border cells + pawns of either colour strictly inside. Super patterns (O >= 10, L >= 9,
I >= 8, X >= 8) win at once (O4).
"""

from __future__ import annotations

import numpy as np
import pytest
from olix_helpers import columns, only, play, position

W, B = 0, 1


# player_0 ("w") plays one pawn and alone holds the columns it makes (hand-computed, see above)
W_SCORES = [
    # w's pawns, b's pawns, the pawn w plays, {column: value} of every marked column
    pytest.param("f3 f4 f6", "a1 b1 c1", "f5", {"I": 4}, id="i4_vertical_new_pawn_in_the_middle"),
    # d1 e1 f1: 3 only (c1 is b's)
    pytest.param("a1 b1 d1 e1", "c1 k11 k10 k9", "f1", {}, id="three_in_a_row_and_a_broken_line_score_nothing"),
    pytest.param("a1 b1 c1 e1 f1 g1", "a2 b2 c2 e2 f2 g2", "d1", {"I": 7}, id="i7_joining_two_lines"),
    pytest.param("a1 b2 c3", "k1 k2 k3", "d4", {"X": 4}, id="x4_rising_diagonal"),
    pytest.param("h1 g2 f3", "a1 a2 a3", "e4", {"X": 4}, id="x4_falling_diagonal"),  # from e4 to h1
    pytest.param("b2 c3 e5 f6", "k1 k2 k3 k4", "d4", {"X": 5}, id="x5_rising_diagonal_new_pawn_inside"),
    pytest.param("k1 j2 i3 g5", "a1 a2 a3 a4", "h4", {"X": 5}, id="x5_falling_diagonal_new_pawn_inside"),
    # corner k11, arms to the left and down
    pytest.param("k11 j11 i11 k10", "a1 a2 a3 b1", "k9", {"L": 5}, id="l5_turned_the_other_way"),
    # a1..e1 with c2, c3 above c1: corner c1, arms c1..c3 (3) and c1..a1 or c1..e1 (3): L-5 [decision]
    pytest.param("a1 b1 c1 d1 e1 c2", "k9 k10 k11 j11 i11 h11", "c3", {"L": 5}, id="l_arm_runs_past_the_corner"),
    pytest.param("a1 b1 a2", "k9 k10 k11", "b2", {"O": 4}, id="o4_square"),
    pytest.param("a1 b1 a2 b2 a3", "k9 k10 k11 j11 i11", "b3", {"O": 6}, id="o6_two_by_three"),
    # the new pawn b4 also ends the vertical line b1..b4: I-4
    pytest.param("a1 b1 a2 b2 a3 b3 a4", "k5 k6 k7 k8 k9 k10 k11", "b4", {"O": 8, "I": 4}, id="o8_two_by_four"),
    # border of 8, empty centre; c3 is also the corner of an L-5 (c1..c3 and a3..c3)
    pytest.param("a1 b1 c1 a2 c2 a3 b3", "k5 k6 k7 k8 k9 k10 k11", "c3", {"O": 8, "L": 5}, id="o8_three_by_three_ring"),
    # the source's example: d1 ends the line a1..d1 (I-4) and the L with corner a1 (arms 4 and 3)
    pytest.param("a1 b1 c1 a2 a3", "k9 k10 k11 j11 i11", "d1", {"I": 4, "L": 6}, id="one_pawn_makes_i4_and_l6"),
]


@pytest.mark.parametrize("w,b,played,expected", W_SCORES)
def test_a_pawn_of_player_0_makes_these_patterns(w, b, played, expected):
    s = play(position(w=w, b=b, move=0), played)
    assert columns(s) == only(**{t: (v, (W,)) for t, v in expected.items()})


def test_i4_horizontal_new_pawn_at_the_end():
    s = play(position(w="a1 b1 c1", b="a2 b2 c2", move=0), "d1")
    assert columns(s) == only(I=(4, (W,)))
    assert not s.is_terminal() and s.current_seat == B


def test_i8_wins_at_once():
    s = play(position(w="a5 b5 c5 d5 e5 f5 g5", b="a1 b1 c1 d1 e1 f1 g1", move=0), "h5")
    assert s.is_terminal() and s.super_pattern == "I-8"
    assert list(s.returns()) == [1.0, -1.0]


def test_x_for_the_second_player():
    s = play(position(w="a1 a2 a3 a4", b="c3 d4 e5", move=1), "f6")
    assert columns(s) == only(X=(4, (B,)))


# L shapes with the corner on a1: a vertical arm a1..a<v> and a horizontal arm a1..<h>1 (h = file letter)
L_CASES = [
    # arms, cell played, expected columns (hand-computed: L = v + h - 1; a line of 4+ through the pawn is an I)
    ((3, 3), "a1", {"L": (5, (W,))}),  # the corner
    ((3, 3), "c1", {"L": (5, (W,))}),  # the end of the horizontal arm
    ((3, 3), "a3", {"L": (5, (W,))}),  # the end of the vertical arm
    ((5, 3), "a1", {"L": (7, (W,)), "I": (5, (W,))}),  # corner: also ends the line a1..a5
    ((5, 3), "c1", {"L": (7, (W,))}),  # the end of the short arm: a1..c1 is no I
    ((5, 3), "a5", {"L": (7, (W,)), "I": (5, (W,))}),
    ((5, 5), "a1", "L-9"),  # super pattern: wins at once
    ((5, 5), "e1", "L-9"),
]


@pytest.mark.parametrize("arms,played,expected", L_CASES)
def test_l_patterns_with_the_new_pawn_at_the_corner_or_an_arms_end(arms, played, expected):
    v, h = arms
    cells = {f"a{r}" for r in range(1, v + 1)} | {f"{f}1" for f in "abcdefghijk"[:h]}
    w = " ".join(sorted(cells - {played}))
    b = " ".join(f"k{r}" for r in range(11, 11 - len(cells) + 1, -1))  # out of the way
    s = play(position(w=w, b=b, move=0), played)
    if isinstance(expected, str):
        assert s.is_terminal() and s.super_pattern == expected and s.winner == W
        assert list(s.returns()) == [1.0, -1.0]
        assert columns(s) == only(I=(5, (W,)))  # the I-5 made by the same pawn is still marked
        assert s.to_text().endswith("over=super:0:L9")
    else:
        assert columns(s) == only(**expected) and not s.is_terminal()


@pytest.mark.parametrize("centre", ["w", "b"])
def test_o9_ring_with_a_pawn_inside_of_either_colour(centre):
    w = "a1 b1 c1 a2 c2 a3 b3" + (" b2" if centre == "w" else "")
    b = "k5 k6 k7 k8 k9 k10 k11" + (" b2" if centre == "b" else "")
    s = play(position(w=w, b=b, move=0), "c3")
    assert columns(s) == only(O=(9, (W,)), L=(5, (W,)))


def test_o9_new_pawn_placed_inside_an_own_ring():
    s = play(position(w="a1 b1 c1 a2 c2 a3 b3 c3", b="k5 k6 k7 k8 k9 k10 k11", move=0, marks="O8w,L5w,I-,X-"), "b2")
    assert columns(s) == only(O=(9, (W,)), L=(5, (W,)))  # only the O grew; the L stays marked


def test_o11_wins_at_once():
    # ring a1..c4 (3 x 4: 10 border cells) with b's pawn on b2 inside: 10 + 1 = 11; c4 also makes L-6
    # (c4..a4 and c4..c1) and I-4 (c1..c4), marked before the win
    s = play(position(w="a1 b1 c1 a2 c2 a3 c3 a4 b4", b="b2 k5 k6 k7 k8 k9 k10 k11", move=0), "c4")
    assert s.is_terminal() and s.super_pattern == "O-11" and s.winner == W
    assert columns(s) == only(L=(6, (W,)), I=(4, (W,)))
    assert list(s.returns()) == [1.0, -1.0]


def test_o10_two_by_five_wins_at_once():
    s = play(position(w="a1 b1 a2 b2 a3 b3 a4 b4 a5", b="k3 k4 k5 k6 k7 k8 k9 k10 k11", move=0), "b5")
    assert s.super_pattern == "O-10" and s.winner == W


def test_one_pawn_on_two_lines_marks_the_longer():
    # e5 ends a horizontal line of 4 and a vertical line of 5: one I column, value 5
    s = play(position(w="b5 c5 d5 e1 e2 e3 e4", b="k5 k6 k7 k8 k9 k10 k11", move=0), "e5")
    assert columns(s)["I"] == (5, (W,))


def test_opponent_pawn_inside_your_ring_does_not_score_for_you():
    s = position(w="a1 b1 c1 a2 c2 a3 b3 c3", b="k5 k6 k7 k8 k9 k10 k11", move=1, marks="O8w,L5w,I-,X-")
    play(s, "b2")  # b's pawn into w's ring: w's ring is now worth 9, but only the mover scores
    assert columns(s) == only(O=(8, (W,)), L=(5, (W,)))
    play(s, "f6")  # w plays away from the ring: nothing is marked later either
    assert columns(s) == only(O=(8, (W,)), L=(5, (W,)))
    assert s.pattern_values("a1", W)["O"] == 9  # the ring would be O-9 if w extended it


def test_opponent_patterns_are_not_scored_by_the_mover():
    s = play(position(w="k1", b="a1 b1 c1", move=0), "d1")  # w blocks b's line: nothing for w
    assert columns(s) == only()


def test_pattern_values_of_the_engine_match_simple_cases():
    s = position(w="a1 b1 c1 d1 a2 a3", b="k11", move=1)
    assert s.pattern_values("a1", W) == {"O": 0, "L": 6, "I": 4, "X": 0}
    assert s.pattern_values("k11", B) == {"O": 0, "L": 0, "I": 0, "X": 0}


def test_observation_is_egocentric():
    s = play(position(w="a1 b1", b="k11", move=0), "c1")
    own, opp = s.observation(W), s.observation(B)
    assert own[0, 0, 0] == 1.0 and own[10, 10, 1] == 1.0 and own[10, 10, 0] == 0.0
    assert opp[10, 10, 0] == 1.0 and opp[0, 0, 1] == 1.0 and opp[0, 2, 1] == 1.0
    assert np.allclose(own[:, :, 2], 43 / 46) and np.allclose(own[:, :, 3], 45 / 46)
    assert np.allclose(opp[:, :, 2], 45 / 46) and np.allclose(opp[:, :, 3], 43 / 46)
    assert own[0, 2, 36] == 1.0 and opp[0, 2, 36] == 1.0 and own[:, :, 36].sum() == 1.0


def test_marks_survive_into_the_observation():
    s = play(position(w="a1 b1 c1 a2 a3", b="k9 k10 k11 j11 i11", move=0), "d1")  # I-4 (row 1), L-6 (row 2)
    own = s.observation(W)
    opp = s.observation(B)
    assert own[0, 0, 4 + 4 * 2 + 0] == 1.0 and own[0, 0, 4 + 4 * 1 + 1] == 1.0  # own I row 1, own L row 2
    assert np.count_nonzero(own[0, 0, 4:20]) == 2 and not own[0, 0, 20:36].any()
    assert opp[5, 5, 20 + 4 * 2 + 0] == 1.0 and opp[5, 5, 20 + 4 * 1 + 1] == 1.0 and not opp[0, 0, 4:20].any()
