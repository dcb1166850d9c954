"""Every Dorix rule (sources 000/001, rulings D1-D8) on a concrete position written in notation.

Board notation reminder: ranks 4 to 1 separated by '/', squares a..d separated by '.', each square
'-' or its pawns' seats from bottom to top. Expected results below were worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs import dorix_v0
from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.dorix import rules as R
from boardgames.envs.dorix.game import DorixGame


def pos(text: str, num_players: int = 2, max_turns: int = 200):
    return DorixGame(num_players, max_turns).from_text(text)


def sq(name: str) -> int:
    return (int(name[1]) - 1) * 4 + ord(name[0]) - ord("a")


def legal_texts(state) -> set:
    return {state.action_to_text(int(a)) for a in state.legal_actions()}


# --- setup (D2) -------------------------------------------------------------------------------


@pytest.mark.parametrize("n,pawns", [(2, 15), (3, 12), (4, 10)])
def test_pawns_per_player_and_first_seat(n, pawns):
    s = DorixGame(n).new_initial_state()
    assert [s.hand(k) for k in range(n)] == [pawns] * n
    assert s.current_seat == 0 and s.turn == 0
    assert legal_texts(s) == {f"{f}{r}" for f in "abcd" for r in "1234"}


def test_bad_options_are_named():
    with pytest.raises(GameOptionError, match="num_players"):
        DorixGame(5)
    with pytest.raises(GameOptionError, match="max_turns"):
        DorixGame(2, max_turns=0)


# --- placing (D3) -----------------------------------------------------------------------------


def test_placing_on_own_partner_opponent_and_empty_squares():
    # 4 players: a1 topped by seat 0 (own), b1 by seat 2 (partner), c1 by seat 1 (opponent), d1 empty
    s = pos("dorix -.-.-.-/-.-.-.-/-.-.-.-/0.2.1.- hands=9,9,9,10 move=0 turn=0", 4)
    legal = legal_texts(s)
    assert "a1" in legal and "d1" in legal
    assert "b1" not in legal and "c1" not in legal
    assert len(legal) == 14  # 13 empty squares + a1; no move while the hand holds pawns
    s.apply(s.text_to_action("a1"))  # a1 is now 2 high next to b1 (1 high): one pawn falls on b1
    assert s.stack("a1") == [0] and s.stack("b1") == [2, 0] and s.hand(0) == 8 and s.current_seat == 1
    with pytest.raises(IllegalActionError, match="topped by player_2"):
        pos("dorix -.-.-.-/-.-.-.-/-.-.-.-/0.2.1.- hands=9,9,9,10 move=0 turn=0", 4).text_to_action("b1")


# --- moving once the hand is empty (D4) -------------------------------------------------------

MOVE_POSITION = "dorix 1.1.1.1/1.1.1.1/00000.1111.-.-/000000000.0.-.- hands=0,3 move=0 turn=30"


def test_moving_a_top_pawn_once_the_hand_is_empty():
    s = pos(MOVE_POSITION)
    legal = legal_texts(s)
    # own tops: a2 (5 pawns), a1 (9), b1 (1); empty: c2 d2 c1 d1
    expected = {f"{f}-{t}" for f in ("a2", "a1", "b1") for t in ("c2", "d2", "c1", "d1")}
    expected |= {"a2-a1", "a2-b1", "a1-a2", "a1-b1", "b1-a2", "b1-a1"}
    assert legal == expected
    assert "a1-a1" not in legal and "b1-b1" not in legal  # never back to the same square
    assert "a1-b2" not in legal  # b2 is topped by the opponent
    assert not any(a < R.MOVE for a in s.legal_actions())  # no placement with an empty hand


def test_lifting_a_one_pawn_stack_empties_its_square():
    s = pos(MOVE_POSITION)
    s.apply(s.text_to_action("b1-c1"))
    assert s.stack("b1") == [] and s.stack("c1") == [0]
    assert s.current_seat == 1 and s.turn == 31


def test_same_square_move_is_rejected_with_a_reason():
    s = pos(MOVE_POSITION)
    with pytest.raises(IllegalActionError, match="different square"):
        s.text_to_action("a1-a1")
    with pytest.raises(IllegalActionError, match="your hand is empty"):
        s.text_to_action("c1")


# --- passing (D5) -----------------------------------------------------------------------------


def test_forced_pass_with_empty_hand_and_no_top_pawn():
    # seat 1 has an empty hand and all its pawns are covered: after seat 0 plays, seat 1 is passed over
    s = pos("dorix -.-.-.-/-.-.-.-/-.-.-.-/1111111111111110.-.-.- hands=14,0 move=0 turn=0")
    s.apply(s.text_to_action("c3"))
    assert s.current_seat == 0
    assert s.turn == 2  # seat 0's turn and seat 1's pass


def test_three_players_pawns_in_hand_but_nowhere_to_place_passes():
    # every square is topped by seat 0 or seat 2; seat 1 holds a pawn but can place it nowhere
    text = "dorix 10.12.10.12/10.12.0.10/12.10.12.10/00.22.00.22 hands=1,1,3 move=0 turn=0"
    s = pos(text, 3)
    s.apply(s.text_to_action("c3"))  # c3 becomes 2 high; its neighbours are 2 high: no collapse
    assert s.stack("c3") == [0, 0]
    assert s.current_seat == 2 and s.turn == 2


# --- collapse (D6) ----------------------------------------------------------------------------


def test_collapse_onto_fewer_lower_neighbours_than_pawns():
    # b2 becomes 3 high; lower neighbours: b3 and c2 (1 high); a2 empty; b1 3 high is not lower
    s = pos("dorix -.-.-.-/-.1.-.-/-.00.1.-/-.111.-.- hands=13,10 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    # the two top pawns (both seat 0) go one each to b3 and c2: no choice to ask
    assert s.stack("b2") == [0]
    assert s.stack("b3") == [1, 0] and s.stack("c2") == [1, 0]
    assert s.stack("a2") == [] and s.stack("b1") == [1, 1, 1]
    assert s.current_seat == 1 and s.turn == 1


def test_collapse_onto_more_lower_neighbours_than_pawns_lets_the_mover_choose():
    # b2 becomes 2 high with three 1-high neighbours (a2, c2, b3) and an empty one (b1)
    s = pos("dorix -.-.-.-/-.1.-.-/1.0.1.-/-.-.-.- hands=14,12 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    assert s.collapsing and s.current_seat == 0 and s.turn == 0
    assert legal_texts(s) == {">b3", ">c2", ">a2"}  # the empty b1 never receives
    s.apply(s.text_to_action(">c2"))
    assert s.stack("c2") == [1, 0] and s.collapsing
    assert legal_texts(s) == {">b3", ">a2"}
    s.apply(s.text_to_action(">a2"))
    assert s.stack("a2") == [1, 0]
    assert s.stack("b2") == []  # the stack emptied itself
    assert s.stack("b3") == [1]  # received nothing
    assert s.stack("b1") == []
    assert not s.collapsing and s.current_seat == 1 and s.turn == 1


def test_pawns_leave_from_the_top_in_order():
    # b2 = 1,0 + placed 0 = 3 high; lower neighbours a2, c2, b3 (1 high) and b1 (2 high): 3 pawns fall
    s = pos("dorix -.-.-.-/-.1.-.-/1.10.1.-/-.11.-.- hands=14,9 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    assert legal_texts(s) == {">b3", ">c2", ">b1", ">a2"}
    s.apply(s.text_to_action(">b1"))  # first the top pawn (seat 0)
    assert s.stack("b1") == [1, 1, 0]
    s.apply(s.text_to_action(">a2"))  # then the second (seat 0)
    assert s.stack("a2") == [1, 0]
    assert legal_texts(s) == {">b3", ">c2"}
    s.apply(s.text_to_action(">c2"))  # last the bottom pawn (seat 1)
    assert s.stack("c2") == [1, 1]
    assert s.stack("b2") == [] and s.stack("b3") == [1]
    assert s.current_seat == 1


def test_no_cascade():
    # b2 -> 3 high; only c2 (2 high) is lower; c2 becomes 3 high next to d2 (1 high) but does not collapse
    s = pos("dorix -.-.-.-/-.111.-.-/111.00.11.1/-.111.-.- hands=13,3 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    assert s.stack("b2") == [0, 0]
    assert s.stack("c2") == [1, 1, 0]
    assert s.stack("d2") == [1]
    assert s.current_seat == 1


def test_placing_on_an_empty_square_never_collapses():
    s = pos("dorix -.-.-.-/-.1.-.-/-.-.1.-/-.-.-.- hands=15,13 move=0 turn=0")
    s.apply(s.text_to_action("b2"))  # neighbours b3 and c2 are 1 high, but b2 was empty
    assert s.stack("b2") == [0] and s.stack("b3") == [1] and s.stack("c2") == [1]


def test_move_onto_own_stack_collapses_with_heights_after_the_lift():
    # a1 (9 pawns) -> b1 gives b1 2 high; its neighbours: a1 now 8 high (not lower), c1 empty, b2 topped
    # by seat 1 and 1 high (lower): one pawn falls on b2
    s = pos("dorix 1.1.1.1/1.1.1.1/00000.1.-.-/000000000.0.-.- hands=0,6 move=0 turn=30")
    s.apply(s.text_to_action("a1-b1"))
    assert s.stack("b1") == [0] and s.stack("b2") == [1, 0] and len(s.stack("a1")) == 8


# --- winning (D7) -----------------------------------------------------------------------------


def test_collapse_that_hands_a_diagonal_to_the_opponent_makes_the_opponent_win():
    # seat 0 plays b2 (1,0 -> 1,0,0); two pawns fall on a2 and c2, uncovering seat 1's pawn on b2:
    # a1, b2, c3, d4 are then all topped by seat 1
    s = pos("dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    assert s.stack("b2") == [1]
    assert s.is_terminal() and not s.is_truncated()
    assert s.returns().tolist() == [-1.0, 1.0]


def test_both_sides_holding_a_diagonal_goes_on():
    # seat 0 holds a1-d4 and seat 1 a4-d1 (a running game: nobody holds one alone); a placement keeps both
    both = "dorix 1.-.-.0/-.1.0.-/-.0.1.-/0.-.-.1 hands=11,11 move=0 turn=8"
    s = pos(both)
    s.apply(s.text_to_action("b4"))
    assert not s.is_terminal() and s.current_seat == 1
    alone = "dorix 1.-.-.-/-.1.0.-/-.0.-.-/0.-.-.1 hands=12,12 move=0 turn=0"
    s = pos(alone)
    s.apply(s.text_to_action("d4"))  # c2 empty: only seat 0 holds a diagonal
    assert s.is_terminal() and s.returns().tolist() == [1.0, -1.0]


def test_three_players_two_diagonal_holders_go_on_and_a_single_one_wins():
    # seat 0 holds a1-d4 and seat 2 a4-d1: play goes on after seat 0's placement elsewhere
    s = pos("dorix 2.-.-.0/-.2.0.-/-.0.2.-/0.-.-.2 hands=8,12,8 move=0 turn=8", 3)
    s.apply(s.text_to_action("b4"))
    assert not s.is_terminal() and s.current_seat == 1
    # seat 1 completes a diagonal alone: it wins, both others lose
    s = pos("dorix -.-.-.-/-.-.1.-/-.1.-.-/1.-.-.- hands=12,9,12 move=1 turn=1", 3)
    s.apply(s.text_to_action("d4"))
    assert s.is_terminal() and s.returns().tolist() == [-1.0, 1.0, -1.0]


def test_four_players_team_wins_with_mixed_partners():
    # a1 and c3 topped by seat 0, b2 by its partner seat 2; seat 2 completes on d4
    s = pos("dorix -.-.-.-/-.-.0.-/-.2.-.-/0.-.-.- hands=8,10,9,10 move=2 turn=2", 4)
    s.apply(s.text_to_action("d4"))
    assert s.is_terminal() and s.returns().tolist() == [1.0, -1.0, 1.0, -1.0]


def test_four_players_both_teams_holding_goes_on():
    s = pos("dorix 1.-.-.2/-.3.0.-/-.2.1.-/0.-.-.3 hands=8,8,8,8 move=2 turn=8", 4)
    s.apply(s.text_to_action("b4"))  # team 0 holds a1-d4, team 1 holds a4-d1: nobody alone
    assert not s.is_terminal() and s.current_seat == 3


# --- turn limit (D8) and rewards through the environment --------------------------------------


def test_turn_limit_truncates_with_zero_returns():
    s = DorixGame(2, max_turns=3).new_initial_state()
    for move in ("a1", "a2", "a3"):
        s.apply(s.text_to_action(move))
    assert s.is_terminal() and s.is_truncated() and s.returns().tolist() == [0.0, 0.0]


def test_env_rewards_loser_on_own_move_and_team_rewards():
    e = dorix_v0.env()
    e.reset(options={"position": "dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0"})
    e.step(e.unwrapped.game_state.text_to_action("b2"))
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": -1.0, "player_1": 1.0}
    e4 = dorix_v0.env(num_players=4)
    e4.reset(options={"position": "dorix -.-.-.-/-.-.0.-/-.2.-.-/0.-.-.- hands=8,10,9,10 move=2 turn=2"})
    assert e4.agent_selection == "player_2"
    e4.step(sq("d4"))
    assert e4.rewards == {"player_0": 1.0, "player_1": -1.0, "player_2": 1.0, "player_3": -1.0}


def test_env_truncation_flags():
    e = dorix_v0.env(max_turns=2)
    e.reset()
    e.step(sq("a1"))
    e.step(sq("d4"))
    assert all(e.truncations.values()) and not any(e.terminations.values())


# --- observation ------------------------------------------------------------------------------


def test_observation_is_egocentric_and_marks_the_partner():
    s = pos("dorix -.-.-.-/-.-.-.-/-.-.-.-/1.-.-.- hands=12,11,12 move=1 turn=1", 3)
    n = 3
    for seat, rel in ((1, 0), (0, 1), (2, 2)):
        obs = s.observation(seat)
        assert obs[0, 0, 0 * n + rel] == 1.0  # depth 0 (top) plane of the owner's relative seat
        assert obs[0, 0, :n].sum() == 1.0
    s4 = DorixGame(4).new_initial_state()
    team_planes = s4.observation(1)[0, 0, 6 * 4 + 2 * 4 : 6 * 4 + 3 * 4]
    assert team_planes.tolist() == [1.0, 0.0, 1.0, 0.0]  # self and the partner two seats on


def test_hand_planes_follow_turn_order_from_the_observer():
    s = pos("dorix -.-.-.-/-.-.-.-/-.-.-.-/1.-.-.- hands=12,11,12 move=1 turn=1", 3)
    hands = s.observation(1)[2, 3, 7 * 3 : 8 * 3]
    assert np.allclose(hands, [11 / 12, 12 / 12, 12 / 12])


# --- notation ---------------------------------------------------------------------------------


def test_notation_round_trip_mid_collapse():
    s = pos("dorix -.-.-.-/-.1.-.-/1.0.1.-/-.-.-.- hands=14,12 move=0 turn=0")
    s.apply(s.text_to_action("b2"))
    text = s.to_text()
    assert "collapse=b2:2:b3,c2,a2" in text
    assert DorixGame(2).from_text(text) == s


def test_malformed_moves_name_the_problem():
    s = DorixGame(2).new_initial_state()
    with pytest.raises(IllegalActionError, match="cannot read move"):
        s.text_to_action("z9")
    with pytest.raises(IllegalActionError, match="no collapse"):
        s.text_to_action(">b2")
    with pytest.raises(IllegalActionError, match="out of range"):
        s.apply(276)
    before = s.to_text()
    with pytest.raises(IllegalActionError, match="illegal"):
        s.apply(R.MOVE + 1)  # a move while the hand is full
    assert s.to_text() == before


def test_every_action_name_reads_back_or_is_refused_as_illegal():
    # a collapse on the edge square d3: east of it is off the board, so ">E" names no square
    state = DorixGame(2).from_text(
        "dorix 1.0.0.1/0.10.0.11/-.0.-.0/1.01.-.1 hands=7,7 move=1 turn=15 last=d3 collapse=d3:2:d4,d2,c3"
    )
    assert state.collapsing and state.action_to_text(R.FALL + 1) == ">E"
    for s in (DorixGame(2).new_initial_state(), state):
        legal = s.legal_mask()
        for action in range(s.game.info.num_actions):
            text = s.action_to_text(action)
            if legal[action]:
                assert s.text_to_action(text) == action, text
            else:  # never "cannot read": every name the state writes, it reads
                with pytest.raises(IllegalActionError, match="illegal|no collapse"):
                    s.text_to_action(text)


# --- the state's own invariant check ------------------------------------------------------------


def _corrupt(change):
    """A legal 2-player position (b2 holds seat 0 then seat 1, hands 14/14) with ``change(data)`` applied."""
    s = pos("dorix -.-.-.-/-.-.-.-/-.01.-.-/-.-.-.- hands=14,14 move=0 turn=2")
    change(s.data)
    return s


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: d.__setitem__(R.HEIGHTS + sq("b2"), 41), "height 41 on b2"),
        (lambda d: d.__setitem__(R.STACKS + sq("b2") * R.MAXH + 1, 2), "bad pawn owner on b2"),
        (lambda d: d.__setitem__(R.STACKS + sq("c3") * R.MAXH + 3, 0), "garbage above the stack on c3"),
        (lambda d: d.__setitem__(R.HANDS + 1, 15), "seat 1: 1 on board + 15 in hand != 15"),
    ],
)
def test_check_invariants_names_the_fault(change, message):
    _corrupt(lambda d: None).check_invariants()  # the untouched position is sound
    with pytest.raises(AssertionError, match=message.replace("+", r"\+")):
        _corrupt(change).check_invariants()
