"""The Barc duel's openings, searched exhaustively over the rules kernels (ruling B1, criteria 2 and 3;
docs/rules/barc.md, "How deep the start is proved"): from the default (alternating) start nothing is
aligned, no game ends on turn 1 and neither side can force victory by turn 2, nor by turn 3; from the first
ruling's corners start (barc_v0) each side has eight first orders that force victory on turn 2, which is
why the start was revised. The search is :mod:`boardgames.envs.barc.forced`; a plain-Python search checks it on the
two-turn question."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.barc import forced as F
from boardgames.envs.barc import rules as R
from boardgames.envs.registry import make_game

TURN = str.maketrans("abcdef123456", "fedcba654321")  # the half turn, a1 <-> f6


def legal(d, seat):
    m = np.zeros(R.NUM_ACTIONS, np.bool_)
    R.legal_mask(d, seat, m)
    return np.flatnonzero(m)


def play(d, a0, a1):
    x = d.copy()
    R.apply_joint(x, np.array([a0, a1], dtype=np.int64))
    return x


def joint(me, mine, theirs):
    return (mine, theirs) if me == 0 else (theirs, mine)


def sure_victory_by_turn_two(d0, me) -> list:
    """The first moves after which ``me`` has, for every reply, a second move reaching victory against
    every second move of the other side (plain Python over the kernels, independent of boardgames.envs.barc.forced)."""
    other, good = 1 - me, []
    for m1 in legal(d0, me):

        def answered(o1, m1=m1):
            d1 = play(d0, *joint(me, m1, o1))
            if R.is_over(d1):
                return bool(R.victory(d1, me))
            return any(
                all(R.victory(play(d1, *joint(me, m2, o2)), me) for o2 in legal(d1, other)) for m2 in legal(d1, me)
            )

        if all(answered(o1) for o1 in legal(d0, other)):
            good.append(int(m1))
    return good


def start(name):
    return make_game("barc", start=name).new_initial_state()


@pytest.mark.parametrize("name", R.START_NAMES)
def test_the_start_is_fair_by_symmetry_and_nothing_is_aligned(name):
    s = start(name)
    south = {sq for sq in range(36) if s.owner(sq) == 0}
    north = {sq for sq in range(36) if s.owner(sq) == 1}
    assert len(south) == len(north) == 6 and north == {35 - sq for sq in south}  # criterion 1
    assert not s.aligned(0) and not s.aligned(1)


@pytest.mark.parametrize("name", R.START_NAMES)
def test_no_game_ends_on_turn_one(name):
    d = start(name).data
    assert not any(R.is_over(play(d, a, b)) for a in legal(d, 0) for b in legal(d, 1))


def test_from_the_default_start_neither_side_forces_victory_by_turn_two():
    d = start("alternating").data
    assert sure_victory_by_turn_two(d, 0) == [] and sure_victory_by_turn_two(d, 1) == []
    assert not F.forces_victory(d, 0, 2) and not F.forces_victory(d, 1, 2)


@pytest.mark.parametrize("name", ["alternating", "edges"])
def test_neither_side_forces_victory_by_turn_three(name):
    d = start(name).data
    assert not F.forces_victory(d, 0, 3) and not F.forces_victory(d, 1, 3)


def test_from_the_corners_start_each_side_forces_victory_on_turn_two():
    state = start("corners")
    south = {state.action_to_text(a, 0) for a in sure_victory_by_turn_two(state.data, 0)}
    north = {state.action_to_text(a, 1) for a in sure_victory_by_turn_two(state.data, 1)}
    # a1-b2 by hand: South then threatens a2-b3 (column b1-b2-b3) and b1-c2 (row a2-b2-c2); North's
    # nearest pawn (a5) is three squares from c2, and can block b3 at most
    assert "a1-b2" in south and len(south) == 8
    # the start is symmetric under the half turn (a1 <-> f6): North's sure moves are South's, turned
    assert north == {m.translate(TURN) for m in south}
    # the compiled search finds the same orders, and nothing on turn 1
    assert {state.action_to_text(int(a), 0) for a in F.forcing_orders(state.data, 0, 2)} == south
    assert F.forced_depth(state.data, 0, 3) == F.forced_depth(state.data, 1, 3) == 2


def test_the_search_finds_a_victory_one_turn_away_by_hand():
    # South tops a1, b1 and c2: c2-c1 completes the row a1-b1-c1, e2-d3 the diagonal b1-c2-d3; North's pawns
    # stand on ranks 5 and 6, too far to reach c1 or d3 (to cancel) or a1, b1, c2 (to cover). North in turn
    # completes b6-c6-d6 with c5-c6, d6-e6-f6 with e5-e6 or the diagonal b6-c5-d4 with e5-d4, beyond South's
    # reach. Nobody is aligned yet.
    s = make_game("barc").from_text(
        "barc -.1.-.1.-.1/1.-.1.-.1.-/0.-.-.-.-.0/-.-.-.-.-.-/-.-.0.-.0.-/0.0.-.-.-.- turn=4"
    )
    assert {s.action_to_text(int(a), 0) for a in F.forcing_orders(s.data, 0, 1)} == {"c2-c1", "e2-d3"}
    north = {s.action_to_text(int(a), 1) for a in F.forcing_orders(s.data, 1, 1)}
    assert north == {"c5-c6", "e5-e6", "e5-d4"}
    assert F.forced_depth(s.data, 0, 2) == 1
