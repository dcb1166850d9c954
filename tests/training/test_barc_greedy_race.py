"""Why no Barc agent reaches 60% wins against greedy (models/barc/card.md): from the start position the
greedy agent has 8 equally scored openings, each followed by a line of three on turn 2 that the other
player can stop in at most 2 of the 8 cases, whatever its first order (its pawns cannot reach the squares
in time; only a cancelled order, both naming one square, or covering a stack could stop it)."""

import numpy as np

from envs.barc import rules as R
from envs.registry import make_game
from training.agents import GreedyAgent


def _winning_orders(state, seat):
    out = []
    for a in np.flatnonzero(state.legal_mask(seat)):
        child = state.clone()
        joint = [R.STAY, R.STAY]
        joint[seat] = int(a)
        child.apply_joint(joint)
        if child.is_terminal() and child.returns()[seat] > 0:
            out.append(int(a))
    return out


def test_greedy_lines_on_turn_two_can_be_stopped_in_at_most_two_of_eight_openings():
    game = make_game("barc")
    start = game.new_initial_state()
    greedy = GreedyAgent(game, seed=0)
    openings = sorted(set(a for _ in range(10) for a in greedy.choices(start, 1)))
    assert len(openings) == 8
    best = 0
    for first in np.flatnonzero(start.legal_mask(0)):  # South's first order, before it sees greedy's
        stoppable = 0
        for opening in openings:
            after = start.clone()
            after.apply_joint([int(first), opening])
            wins = _winning_orders(after, 1)
            assert wins, "greedy always has a line of three on turn 2"
            for second in np.flatnonzero(after.legal_mask(0)):
                ok = True
                for w in wins:
                    end = after.clone()
                    end.apply_joint([int(second), w])
                    ok &= not end.is_terminal() or end.returns()[0] > 0  # South won, or the game goes on
                if ok:
                    stoppable += 1
                    break
        best = max(best, stoppable)
    assert best <= 2  # so at least 6 of 8 games end on turn 2 in a greedy win or a draw
