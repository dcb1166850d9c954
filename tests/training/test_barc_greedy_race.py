"""Why no Barc agent reached the targets of 60% wins against greedy and 95% against random from the
first ruling's start, the corners start of barc_v0 (the models trained on it, before barc_v1).

Against greedy: from the corners start the greedy agent has 8 equally scored openings, each followed
by a line of three on turn 2 that the other player can stop in at most 2 of the 8 cases, whatever its
first order (its pawns cannot reach the squares in time; only a cancelled order, both naming one
square, or covering a stack could stop it).

Against random: nobody can line up three on turn 1, and the uniformly random player (boardgames.training.agent_kinds'
RandomAgent: every legal order, "stay" included, equally likely) lines up three on turn 2 often enough
that, whatever the other player does on turns 1 and 2, at least 5% of games are not won.
"""

import numpy as np

from boardgames.envs.barc import rules as R
from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import GreedyAgent


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
    game = make_game("barc", start="corners")
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


def _best_share_not_lost_by_turn_two(seat: int) -> float:
    """The most an agent playing ``seat`` can get, over its first two orders (the second chosen after
    seeing the first turn), of the probability that by the end of turn 2 it has won or the game goes on,
    against an opponent that picks uniformly among its legal orders on both turns. An upper bound of the
    agent's win rate against that opponent."""
    game = make_game("barc", start="corners")
    start = game.new_initial_state()
    other = 1 - seat

    def joint(mine, theirs):
        j = [0, 0]
        j[seat], j[other] = int(mine), int(theirs)
        return j

    def share_after(state, mine):
        theirs = np.flatnonzero(state.legal_mask(other))
        good = 0
        for t in theirs:
            end = state.clone()
            end.apply_joint(joint(mine, t))
            good += (not end.is_terminal()) or end.returns()[seat] > 0
        return good / len(theirs)

    best = 0.0
    for first in np.flatnonzero(start.legal_mask(seat)):
        replies = np.flatnonzero(start.legal_mask(other))
        total = 0.0
        for reply in replies:
            after = start.clone()
            after.apply_joint(joint(first, reply))
            assert not after.is_terminal(), "nobody can end the game on turn 1"
            total += max(share_after(after, second) for second in np.flatnonzero(after.legal_mask(seat)))
        best = max(best, total / len(replies))
    return best


def test_no_agent_wins_95_percent_against_random():
    for seat in (0, 1):
        bound = _best_share_not_lost_by_turn_two(seat)
        # 0.946 from either side (the start is symmetric): random lines up on turn 2 in more than 5%
        # of games, a draw at best for an agent that lines up the same turn (none can do it sooner)
        assert 0.93 < bound < 0.95, bound
