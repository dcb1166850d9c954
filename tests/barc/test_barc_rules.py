"""Every Barc duel rule (source 002, rulings B1-B6) on a concrete position written in notation.

Board notation reminder: ranks 6 to 1 separated by '/', squares a..f separated by '.', each square
'-' or its pawns from the bottom up (0 = South = player_0, 1 = North = player_1). The positions are
built from a {square: stack} dict by ``board()``. Expected results were worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.barc import rules as R
from boardgames.envs.barc.game import BarcGame
from boardgames.envs.core.errors import GameOptionError, IllegalActionError

FILES = "abcdef"


def board(stacks: dict) -> str:
    """Notation board from ``{"c3": "010", ...}`` (every other square empty)."""
    ranks = []
    for r in range(6, 0, -1):
        ranks.append(".".join(stacks.get(f"{f}{r}", "-") for f in FILES))
    return "/".join(ranks)


def pos(stacks: dict, turn: int = 1, max_turns: int = 200, extra: str = ""):
    return BarcGame(max_turns).from_text(f"barc {board(stacks)} turn={turn} {extra}".strip())


def cells(state) -> dict:
    """{square name: stack text} of the non-empty squares."""
    out = {}
    for sq in range(36):
        pawns = state.stack(sq)
        if pawns:
            out[f"{FILES[sq % 6]}{sq // 6 + 1}"] = "".join(str(p) for p in pawns)
    return out


def play(state, order0: str, order1: str):
    """Both orders at once (text, absolute squares), on a copy."""
    s = state.clone()
    s.apply_joint([s.text_to_action(order0, seat=0), s.text_to_action(order1, seat=1)])
    return s


def orders_from(state, seat: int, origin: str) -> set:
    return {
        t
        for t in (state.action_to_text(int(a), seat=seat) for a in state.legal_actions(seat))
        if t.startswith(origin + "-")
    }


# --- setup (B1) -----------------------------------------------------------------------------------


def test_start_position_and_first_orders():
    # B1 (revised): both back ranks alternate the colours, South from a1 and a6, North from b1 and b6
    s = BarcGame().new_initial_state()
    assert s.to_text() == "barc 0.1.0.1.0.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.1.0.1.0.1 turn=0"
    assert cells(s) == {
        "a1": "0",
        "c1": "0",
        "e1": "0",
        "a6": "0",
        "c6": "0",
        "e6": "0",
        "b1": "1",
        "d1": "1",
        "f1": "1",
        "b6": "1",
        "d6": "1",
        "f6": "1",
    }
    assert s.current_seats() == (0, 1) and s.turn == 0 and not s.is_terminal()
    # each single pawn steps one square onto an empty square or onto a neighbouring North pawn
    south = {s.action_to_text(int(a), seat=0) for a in s.legal_actions(0)}
    assert south == {
        "stay",
        "a1-a2",
        "a1-b2",
        "a1-b1",
        "c1-b1",
        "c1-b2",
        "c1-c2",
        "c1-d2",
        "c1-d1",
        "e1-d1",
        "e1-d2",
        "e1-e2",
        "e1-f2",
        "e1-f1",
        "a6-a5",
        "a6-b5",
        "a6-b6",
        "c6-b6",
        "c6-b5",
        "c6-c5",
        "c6-d5",
        "c6-d6",
        "e6-d6",
        "e6-d5",
        "e6-e5",
        "e6-f5",
        "e6-f6",
    }
    north = {s.action_to_text(int(a), seat=1) for a in s.legal_actions(1)}
    half_turn = str.maketrans("abcdef123456", "fedcba654321")  # a1 <-> f6
    assert north == {m if m == "stay" else m.translate(half_turn) for m in south}


def test_the_named_starts():
    corners = BarcGame(start="corners").new_initial_state()
    assert corners.to_text() == "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"
    # a1: b2; b1: b2, c2, c1; a2: a3, b3, b2; the same mirrored on the right; plus stay
    south = {corners.action_to_text(int(a), seat=0) for a in corners.legal_actions(0)}
    assert south == {
        "stay",
        "a1-b2",
        "b1-b2",
        "b1-c2",
        "b1-c1",
        "a2-a3",
        "a2-b3",
        "a2-b2",
        "f1-e2",
        "e1-e2",
        "e1-d2",
        "e1-d1",
        "f2-f3",
        "f2-e3",
        "f2-e2",
    }
    edges = BarcGame(start="edges").new_initial_state()
    assert edges.to_text() == "barc 1.0.-.-.0.1/-.-.-.-.-.-/1.-.-.-.-.1/0.-.-.-.-.0/-.-.-.-.-.-/0.1.-.-.1.0 turn=0"
    assert BarcGame().start == "alternating" and BarcGame().info.options == {"start": "alternating", "max_turns": 200}
    assert (BarcGame().version, corners.game.version, edges.game.version) == (1, 0, 1)
    for bad in ("Corners", "", 0, None):
        with pytest.raises(GameOptionError, match="start must be one of 'alternating', 'corners', 'edges'"):
            BarcGame(start=bad)


def test_bad_option_is_named():
    with pytest.raises(GameOptionError, match="max_turns"):
        BarcGame(max_turns=0)


# --- orders (B2) ----------------------------------------------------------------------------------

# South pawn alone on c3, its 8 neighbours empty; nobody aligned.
OPEN = {
    "c3": "0",
    "a1": "0",
    "f1": "0",
    "a6": "0",
    "f6": "0",
    "e4": "0",
    "a3": "1",
    "f3": "1",
    "c1": "1",
    "c6": "1",
    "e2": "1",
    "b5": "1",
}


@pytest.mark.parametrize("dest", ["c4", "d4", "d3", "d2", "c2", "b2", "b3", "b4"])
def test_a_pawn_steps_in_each_of_the_8_directions(dest):
    s = pos(OPEN)
    assert orders_from(s, 0, "c3") == {f"c3-{d}" for d in ["c4", "d4", "d3", "d2", "c2", "b2", "b3", "b4"]}
    after = play(s, f"c3-{dest}", "stay")
    assert after.stack("c3") == () and after.stack(dest) == (0,)
    assert after.turn == 2


def test_a_single_pawn_moves_one_square_only():
    s = pos(OPEN)
    with pytest.raises(IllegalActionError, match="at most 1 square"):
        s.text_to_action("c3-c5", seat=0)


# South stack (North pawn covered in the middle) of 3 on c3; North pawns on e3, a3, c1.
TALL = {"c3": "010", "a1": "0", "f1": "0", "a6": "0", "f6": "0", "e3": "1", "a3": "1", "c1": "1", "e6": "1", "b5": "1"}


def test_a_stack_of_3_moves_1_2_or_3_squares_and_is_blocked():
    s = pos(TALL)
    assert orders_from(s, 0, "c3") == {
        "c3-d3",
        "c3-e3",  # E: f3 is behind e3
        "c3-c4",
        "c3-c5",
        "c3-c6",  # N: 3 squares
        "c3-b3",
        "c3-a3",  # W
        "c3-c2",
        "c3-c1",  # S
        "c3-d4",
        "c3-e5",  # NE: f6 is South's own
        "c3-b4",
        "c3-a5",  # NW
        "c3-d2",
        "c3-e1",  # SE
        "c3-b2",  # SW: a1 is South's own
    }
    for dest, dist in (("c4", 1), ("c5", 2), ("c6", 3)):
        after = play(s, f"c3-{dest}", "stay")
        assert after.stack(dest) == (0, 1, 0) and after.stack("c3") == (), dist
    with pytest.raises(IllegalActionError, match="e3 is in the way"):
        s.text_to_action("c3-f3", seat=0)


def test_a_move_onto_ones_own_stack_is_illegal():
    s = pos(TALL)
    for order in ("c3-a1", "c3-f6"):
        with pytest.raises(IllegalActionError, match="own colour"):
            s.text_to_action(order, seat=0)
    assert "c3-a1" not in orders_from(s, 0, "c3")


def test_only_own_stacks_can_be_ordered():
    s = pos(TALL)
    with pytest.raises(IllegalActionError, match="topped by player_1"):
        s.text_to_action("e3-e4", seat=0)
    with pytest.raises(IllegalActionError, match="no stack on d4"):
        s.text_to_action("d4-d5", seat=0)
    with pytest.raises(IllegalActionError, match="straight line"):
        s.text_to_action("c3-d5", seat=0)


def test_stay_is_always_legal_and_changes_only_the_turn():
    s = pos(TALL)
    for seat in (0, 1):
        assert s.legal_mask(seat)[R.STAY]
    after = play(s, "stay", "stay")
    assert cells(after) == cells(s) and after.turn == s.turn + 1
    assert after.last_orders() == ("stay", "stay") and not after.last_cancelled


# --- stacking (B4) --------------------------------------------------------------------------------


def test_capture_by_stacking_and_the_covered_pawns_travel():
    s = pos(TALL)
    assert s.stacks_of(1) == 5
    after = play(s, "c3-e3", "stay")  # the 3-stack covers North's e3 pawn
    assert after.stack("e3") == (1, 0, 1, 0) and after.owner("e3") == 0
    assert after.stacks_of(1) == 4 and after.stacks_of(0) == 5
    # the whole stack of 4 moves on (up to 4 squares), both covered North pawns with it
    again = play(after, "e3-e5", "stay")
    assert again.stack("e5") == (1, 0, 1, 0) and again.stack("e3") == ()
    # a North pawn covering it takes the whole stack over
    back = play(after, "stay", "e6-e5")
    back = play(back, "stay", "e5-e4")
    back = play(back, "stay", "e4-e3")
    assert back.stack("e3") == (1, 0, 1, 0, 1) and back.owner("e3") == 1
    assert back.stacks_of(0) == 4


# --- simultaneous resolution (B3) -----------------------------------------------------------------

# South c3 and North d4/e5 around the empty and full squares used below; nobody aligned.
DUEL = {
    "c3": "0",
    "a1": "0",
    "f1": "0",
    "a6": "0",
    "f6": "0",
    "a4": "0",
    "d4": "1",
    "e5": "1",
    "c1": "1",
    "c6": "1",
    "f3": "1",
    "b5": "1",
}


def test_both_orders_on_one_destination_cancel_both():
    s = pos(DUEL)
    after = play(s, "c3-d3", "d4-d3")
    assert cells(after) == cells(s)
    assert after.last_cancelled and after.last_orders() == ("c3-d3", "d4-d3") and after.turn == 2
    # (both can never aim at an occupied square: each may not aim at its own colour)


def test_aiming_at_a_square_being_left_lands_on_the_emptied_square():
    s = pos(DUEL)
    after = play(s, "c3-d4", "d4-d5")  # South aims at North's d4, which moves away
    assert after.stack("d4") == (0,) and after.stack("d5") == (1,) and after.stack("c3") == ()
    assert after.stacks_of(1) == 6 and not after.last_cancelled


def test_a_swap_succeeds():
    s = pos(DUEL)
    after = play(s, "c3-d4", "d4-c3")
    assert after.stack("c3") == (1,) and after.stack("d4") == (0,)
    assert after.stacks_of(0) == 6 and after.stacks_of(1) == 6


def test_an_unmoving_target_is_captured_while_the_other_moves_elsewhere():
    s = pos(DUEL)
    after = play(s, "c3-d4", "e5-e4")
    assert after.stack("d4") == (1, 0) and after.stack("e4") == (1,)


# --- end of the game (B5, B6) ---------------------------------------------------------------------

NORTH_FILLER = {"a1": "1", "e1": "1", "f1": "1", "b6": "1", "c6": "1", "a3": "1"}
SOUTH_FILLER = {"a6": "0", "f6": "0", "f4": "0"}


@pytest.mark.parametrize(
    "line,mover,order",
    [
        (("b3", "c3"), "d2", "d2-d3"),  # row 3
        (("c2", "c3"), "d5", "d5-c4"),  # column c
        (("b2", "c3"), "e3", "e3-d4"),  # diagonal b2-c3-d4
        (("b4", "c3"), "d1", "d1-d2"),  # diagonal b4-c3-d2
    ],
)
def test_three_aligned_wins(line, mover, order):
    stacks = {**NORTH_FILLER, **SOUTH_FILLER, line[0]: "0", line[1]: "0", mover: "0"}
    s = pos(stacks)
    assert not s.aligned(0) and not s.aligned(1)
    after = play(s, order, "stay")
    assert after.aligned(0) and after.is_terminal() and not after.is_truncated()
    assert after.winner == 0 and list(after.returns()) == [1.0, -1.0]
    assert after.current_seats() == () and not after.legal_mask(0).any()
    assert after.to_text().endswith("over=win:0")


def test_north_wins_with_a_column():
    s = pos(
        {
            "a1": "0",
            "c1": "0",
            "e1": "0",
            "b3": "0",
            "f3": "0",
            "d6": "0",
            "c6": "1",
            "c5": "1",
            "d3": "1",
            "a5": "1",
            "f5": "1",
            "e6": "1",
        }
    )
    after = play(s, "stay", "d3-c4")
    assert after.winner == 1 and list(after.returns()) == [-1.0, 1.0]


def test_a_player_left_with_2_stacks_loses():
    s = pos({"b2": "10", "a1": "0", "d1": "0", "f2": "0", "d3": "0", "f6": "0", "a6": "11", "c6": "11", "e4": "1"})
    assert s.stacks_of(1) == 3 and not s.is_terminal()
    after = play(s, "d3-e4", "stay")
    assert after.stacks_of(1) == 2 and not after.aligned(0)
    assert after.winner == 0 and list(after.returns()) == [1.0, -1.0]


def test_both_aligned_is_a_draw():
    s = pos(
        {
            "b3": "0",
            "c3": "0",
            "d2": "0",
            "a1": "0",
            "f1": "0",
            "f4": "0",
            "b5": "1",
            "c5": "1",
            "d6": "1",
            "f6": "1",
            "e1": "1",
            "a3": "1",
        }
    )
    after = play(s, "d2-d3", "d6-d5")
    assert after.aligned(0) and after.aligned(1)
    assert after.is_terminal() and after.winner == -1 and not after.is_truncated()
    assert list(after.returns()) == [0.0, 0.0] and after.to_text().endswith("over=draw")


def test_both_out_is_a_draw():
    s = pos({"a1": "0000", "c3": "0", "f5": "0", "a6": "1111", "d4": "1", "f6": "1"})
    after = play(s, "c3-d4", "f6-f5")
    assert after.stacks_of(0) == 2 and after.stacks_of(1) == 2
    assert after.is_terminal() and after.winner == -1 and list(after.returns()) == [0.0, 0.0]


def test_turn_limit_truncates_with_no_winner():
    s = pos(DUEL, turn=9, max_turns=10)
    after = play(s, "stay", "stay")
    assert after.is_terminal() and after.is_truncated() and after.winner == -1
    assert list(after.returns()) == [0.0, 0.0] and after.to_text().endswith("over=limit")


def test_line_detection_by_shifts_matches_every_line_of_three():
    """B5's alignment is found by bit shifts (``_has_line``); it must agree with the 80 lines of three
    listed square by square (``LINES``), on every single line, every line with one square missing, and
    on random sets of squares."""
    from boardgames.envs.barc.rules import CELLS, LINES, _has_line

    def by_lines(t: int) -> bool:
        return any(t & int(line) == int(line) for line in LINES)

    for line in LINES:
        assert _has_line(np.int64(int(line)))
        for sq in range(CELLS):
            if int(line) >> sq & 1:
                assert not _has_line(np.int64(int(line) & ~(1 << sq)))
    rng = np.random.default_rng(5)
    for _ in range(20000):
        t = int(rng.integers(0, 2**36)) & int(rng.integers(0, 2**36))
        assert _has_line(np.int64(t)) == by_lines(t), bin(t)
    # a wrapped "line" across the board's edge is not a line: f1-a2... (e1 f1 a2 are consecutive indices)
    assert not _has_line(np.int64((1 << 4) | (1 << 5) | (1 << 6)))
