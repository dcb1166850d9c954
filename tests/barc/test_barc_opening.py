"""The Barc duel's opening, solved two turns deep (docs/rules/barc.md, "What competent play looks like"):
no game ends on turn 1, and each side has first moves that make it reach victory on turn 2 whatever the
other side does, so no opponent can beat a side that plays one of them: the game is a draw under
competent play, decided on turn 2 (this is why every agent draws against greedy)."""

from __future__ import annotations

import numpy as np

from envs.barc import rules as R
from envs.registry import make_game


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
    every second move of the other side (an exhaustive search over the rules kernels)."""
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


def test_no_game_ends_on_turn_one():
    # South holds a1, b1, e1, f1, a2, f2: every line it nearly holds (a1-b1-c1, a1-a2-a3, d1-e1-f1,
    # f1-f2-f3) lacks a square only the line's own pawn could reach; North's position is the mirror image
    d = make_game("barc").new_initial_state().data
    assert not any(R.is_over(play(d, a, b)) for a in legal(d, 0) for b in legal(d, 1))


def test_each_side_can_force_victory_on_turn_two():
    state = make_game("barc").new_initial_state()
    south = {state.action_to_text(a, 0) for a in sure_victory_by_turn_two(state.data, 0)}
    north = {state.action_to_text(a, 1) for a in sure_victory_by_turn_two(state.data, 1)}
    # a1-b2 by hand: South then threatens a2-b3 (column b1-b2-b3) and b1-c2 (row a2-b2-c2); North's
    # nearest pawn (a5) is three squares from c2, and can block b3 at most
    assert "a1-b2" in south
    # the start is symmetric under the half turn (a1 <-> f6): North's sure moves are South's, turned
    turn = str.maketrans("abcdef123456", "fedcba654321")
    assert north == {m.translate(turn) for m in south}
