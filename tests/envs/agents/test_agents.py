"""The baseline agents of boardgames.envs.agents: hand-checked heuristic values, greedy takes an immediate win in
every game, the spec parser, and envs resolving agent specs without training."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import boardgames.training.agent_kinds
from boardgames.envs import agents as A
from boardgames.envs.adapters.single_agent import SingleAgentEnv, resolve_policy
from boardgames.envs.agents import (
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    make_baseline_agent,
    parse_baseline_spec,
)
from boardgames.envs.barc import rules as barc_rules
from boardgames.envs.barc.heuristic import LINES as BARC_LINES
from boardgames.envs.registry import HEURISTICS, game_names, make_game

# ----- heuristics on hand-built positions ----------------------------------------------------------

# a1 = 0 under 1 (seat 1 on top), b1 = 0, d1 = 1, b2 = 1 under 0, c3 = 0.
DORIX = "dorix -.-.-.-/-.-.0.-/-.10.-.-/01.0.-.1 hands=11,12 move=0 turn=7"
# Column O: value 8 held by w (seat 0); L: 6 held by both; I: empty; X: 7 held by b (seat 1). The grid
# holds patterns of those types (a marker needs one): w's ring a1-c3 (O-8, L-5), b's diagonal e5-k11
# and corner k11 with i11-k11 and k9-k11 (L-5).
OLIX = "olix 8bbb/9bb/8b1b/7b3/6b4/5b5/4b6/11/www8/w1w8/www8 move=0 turn=19 marks=O8w,L6wb,I-,X7b"
# White: captain a1, teammates b2 and e5; Black: captain e6, teammate h7.
ADIX = "adix 9/9/7thps1/4crps4/4Tprs4/9/9/1Thps7/Crps8 move=0 turn=10 quiet=0"
# South (0) tops a1, b1, f1; North (1) tops a6, c6, e6; every stack two pawns high.
BARC = "barc 11.-.11.-.11.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/00.00.-.-.-.00 turn=3"


def test_dorix_heuristic_by_hand():
    state = make_game("dorix", num_players=2).from_text(DORIX)
    # a1-d4 diagonal: tops a1 = 1, b2 = 0, c3 = 0 -> seat 0 has 2, seat 1 has 1: 2^2 - 1^2 = 3.
    # a4-d1 diagonal: d1 = 1 -> 0^2 - 1^2 = -1. Own stacks of seat 0: b1 (1 pawn), b2 (2), c3 (1): 0.05 x 4.
    assert HEURISTICS["dorix"](state, 0) == pytest.approx(3 - 1 + 0.2)
    # seat 1: (1 - 4) + (1 - 0) = -2, own stacks a1 (2 pawns) and d1 (1): 0.05 x 3.
    assert HEURISTICS["dorix"](state, 1) == pytest.approx(-2 + 0.15)


def test_olix_heuristic_by_hand():
    state = make_game("olix").from_text(OLIX)
    # O: (1 + 8/10) for w; L held by both counts for neither; X: (1 + 7/10) for b.
    assert HEURISTICS["olix"](state, 0) == pytest.approx(1.8 - 1.7)
    assert HEURISTICS["olix"](state, 1) == pytest.approx(1.7 - 1.8)


def test_adix_heuristic_by_hand():
    state = make_game("adix").from_text(ADIX)
    assert state.pieces(0) == (1, 2) and state.pieces(1) == (1, 1)
    assert HEURISTICS["adix"](state, 0) == 5.0 * (1 - 1) + (2 - 1)
    assert HEURISTICS["adix"](state, 1) == -1.0


def test_barc_heuristic_by_hand():
    state = make_game("barc").from_text(BARC)
    assert not state.is_terminal()
    # Stacks topped: 3 each. No line of three reaches from rank 1 to rank 6, so each line counts for
    # one side only: 0.1 x (own tops)^2 summed over the lines. South's lines (own tops in each): a1-c1 2,
    # b1-d1 1, d1-f1 1, the files a, b, f 1 each, the diagonals a1-c3, b1-d3, f1-d3 1 each:
    # 4 + 1 + 1 + 3 + 3 = 12. North's: a6-c6 2, b6-d6 1, c6-e6 2, d6-f6 1, the files a, c, e 1 each,
    # the diagonals ending on a6 (c4-a6), c6 (a4-c6, e4-c6) and e6 (c4-e6): 4 + 1 + 4 + 1 + 3 + 4 = 17.
    assert HEURISTICS["barc"](state, 0) == pytest.approx(0.1 * (12 - 17))
    assert HEURISTICS["barc"](state, 1) == pytest.approx(0.1 * (17 - 12))


def test_barc_heuristic_lines_are_the_rules_lines_of_three():
    from_rules = {tuple(sq for sq in range(barc_rules.CELLS) if int(m) >> sq & 1) for m in barc_rules.LINES}
    assert set(BARC_LINES) == from_rules and len(BARC_LINES) == len(from_rules) == 6 * 4 * 2 + 4 * 4 * 2
    # in the order the score sums them (float sums depend on it): by lowest square, then E, N, NE, NW
    size = barc_rules.SIZE
    order = [
        tuple((r + k * dr) * size + f + k * df for k in range(3))
        for r in range(size)
        for f in range(size)
        for dr, df in ((0, 1), (1, 0), (1, 1), (1, -1))
        if 0 <= r + 2 * dr < size and 0 <= f + 2 * df < size
    ]
    assert list(BARC_LINES) == order


# ----- greedy takes an immediate win ----------------------------------------------------------------

WINS = {
    # seat 1 tops a1, b2, c3 of the a1-d4 diagonal: d4 wins at once.
    "dorix": ("dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.0.- hands=13,12 move=1 turn=5", 1, "d4"),
    # w has a5..g5: h5 makes I-8, a super pattern that wins at once.
    "olix": ("olix 11/11/11/11/11/11/wwwwwww4/11/11/11/bbbbbbb4 move=0 turn=14", 0, "h5"),
    # White's paper teammate on e5 takes Black's rock captain on e6.
    "adix": (ADIX, 0, "e5xe6"),
    # South (a1, b1, d1) moves d1 to c1: a1, b1, c1 in a row, whatever North (a6, c6, e6) orders: its
    # two-pawn stacks cannot reach rank 1 nor line up three.
    "barc": ("barc 11.-.11.-.11.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/00.00.-.00.-.- turn=3", 0, "d1-c1"),
}


@pytest.mark.parametrize("name", sorted(WINS))
def test_greedy_plays_an_immediate_win(name):
    assert set(WINS) == set(game_names())
    text, seat, move = WINS[name]
    game = make_game(name)
    state = game.from_text(text)
    before = state.clone()
    for seed in range(3):
        agent = GreedyAgent(game, seed=seed)
        assert state.action_to_text(agent.act(state, seat), seat) == move
        assert agent.choices(state, seat) == [state.text_to_action(move, seat)]
    assert state == before  # agents never modify the state they are given


def test_greedy_draws_the_other_seats_only_when_they_act_now():
    dorix = make_game("dorix").from_text(WINS["dorix"][0])
    agent = GreedyAgent(seed=0)
    rng_state = agent.rng.bit_generator.state
    agent.choices(dorix, 1)  # turn-based: one empty draw, the generator untouched
    assert agent.rng.bit_generator.state == rng_state
    barc = make_game("barc").from_text(BARC)
    reference = np.random.default_rng(0)
    legal = np.flatnonzero(barc.legal_mask(1))
    for _ in range(GreedyAgent.samples):  # one draw of North's action per sample, nothing else
        reference.choice(legal)
    agent = GreedyAgent(seed=0)
    agent.choices(barc, 0)
    assert agent.rng.bit_generator.state == reference.bit_generator.state


# ----- specs ----------------------------------------------------------------------------------------


def test_baseline_specs():
    assert parse_baseline_spec("random") == ("random", {})
    assert parse_baseline_spec("greedy") == ("greedy", {})
    assert parse_baseline_spec("mcts") == ("mcts", {"simulations": A.DEFAULT_SIMULATIONS})
    assert parse_baseline_spec("mcts:") == ("mcts", {"simulations": A.DEFAULT_SIMULATIONS})
    assert parse_baseline_spec("mcts:37") == ("mcts", {"simulations": 37})
    for other in ("models/dorix_2p", "sample:models/x", "mctsx", "", 3):
        assert parse_baseline_spec(other) is None
    for bad in ("mcts:0", "mcts:-3", "mcts:many", "random:1", "greedy:x"):
        with pytest.raises(ValueError, match="agent"):
            parse_baseline_spec(bad)
    game = make_game("olix")
    assert type(make_baseline_agent("random", game, seed=1)) is RandomAgent
    greedy = make_baseline_agent("greedy", game)
    assert type(greedy) is GreedyAgent and greedy.heuristic is HEURISTICS["olix"]
    mcts = make_baseline_agent("mcts:12", game)
    assert type(mcts) is MCTSAgent and mcts.simulations == 12 and repr(mcts) == "MCTSAgent('mcts12')"
    with pytest.raises(ValueError, match="unknown baseline agent"):
        make_baseline_agent("models/dorix_2p", game)


def test_seeded_agents_repeat_their_choices():
    game = make_game("dorix", num_players=3)
    for spec in ("random", "greedy", "mcts:6"):
        moves = []
        for _ in range(2):
            agent = make_baseline_agent(spec, game, seed=5)
            state = game.new_initial_state()
            run = []
            for _ in range(8):
                action = agent(state, state.current_seat)
                run.append(action)
                state.apply_actions({state.current_seat: action})
            moves.append(run)
        assert moves[0] == moves[1], spec


def test_single_agent_env_resolves_baseline_specs():
    game = make_game("dorix")
    assert type(resolve_policy("random", game)) is RandomAgent
    assert type(resolve_policy("greedy", game)) is GreedyAgent
    assert resolve_policy("mcts:3", game).simulations == 3
    with pytest.raises(ValueError, match="boardgames.training.agent_kinds.make_agent"):
        resolve_policy("models/dorix_2p", game)
    env = SingleAgentEnv("barc", opponent="greedy", learner_seat=0)
    env.reset(seed=0)
    obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
    assert obs.shape == tuple(env.game.info.observation_shape)


def test_training_agents_reexports_the_baselines():
    for name in ("Agent", "RandomAgent", "GreedyAgent", "MCTSAgent"):
        assert getattr(boardgames.training.agent_kinds, name) is getattr(A, name)
    assert boardgames.training.agent_kinds.HEURISTICS is HEURISTICS
    agent = boardgames.training.agent_kinds.make_agent("mcts:9", make_game("adix"), seed=0)
    assert type(agent) is MCTSAgent and agent.simulations == 9


def test_envs_resolves_agents_without_importing_training():
    code = (
        "import sys; from boardgames.envs.adapters.single_agent import SingleAgentEnv; import boardgames.envs.agents\n"
        "for spec in ('random', 'greedy', 'mcts:2'):\n"
        "    env = SingleAgentEnv('dorix', opponent=spec, learner_seat=1); env.reset(seed=0)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'training'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
