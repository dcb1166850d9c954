"""The compiled search (envs/search): forced wins in one and two moves on hand-built positions of every
game and player count, determinism, the no-JIT path, the evaluator form, and agreement with the Python
MCTS it replaces as the ``mcts:N`` baseline.

Each position's winning moves were worked out by hand (see the notes) and are checked here by an
exhaustive search over the rules kernels (:func:`forced_win`): every first move listed wins at once
(one move) or, whatever the other seats reply, leaves a move that wins (two moves), and for the two-move
positions nothing wins at once. The sets are complete: an exhaustive search over every first move found
no other (too slow to repeat here for every position)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.processes import run_python

from boardgames.envs.agents import MCTSAgent, PythonMCTSAgent, make_baseline_agent
from boardgames.envs.registry import make_game
from boardgames.envs.search import MCTS, EvaluatorSearch

# (game, options, position, seat searched, winning first moves)
WIN_IN_ONE = [
    # seat 1 tops a1, b2 and c3 of the long diagonal a1-d4; d4 is empty: placing there wins
    ("dorix", {"num_players": 2}, "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.0.- hands=13,12 move=1 turn=5", 1, {"d4"}),
    ("dorix", {"num_players": 3}, "dorix -.-.-.-/-.-.1.-/-.1.-.-/1.0.2.- hands=11,9,11 move=1 turn=4", 1, {"d4"}),
    # 4 players: a1 and c3 are seat 0's, b2 its partner seat 2's: seat 2 completes the team's diagonal
    ("dorix", {"num_players": 4}, "dorix -.-.-.-/-.-.0.-/-.2.-.-/0.1.3.- hands=8,9,9,9 move=2 turn=6", 2, {"d4"}),
    # player_0 has a1..g1: h1 makes I-8, a super pattern
    ("olix", {}, "olix 11/11/11/11/11/11/11/b1b1b1b1b1b/11/1b9/wwwwwww4 move=0 turn=14", 0, {"h1"}),
    # White's paper teammate on e2 slides up the empty e-file onto Black's rock captain
    ("adix", {}, "adix thps3crps4/9/9/9/9/9/9/4Tpsr4/4Crps4 move=0 turn=20 quiet=0", 0, {"e2xe9"}),
    # South has a1, b1; c2-c1 aligns three, and no North stack can reach c1, a1 or b1 this turn
    (
        "barc",
        {},
        "barc 111.-.-.-.-.11/-.-.0.-.-.-/-.-.-.0.-.-/-.-.-.-.-.-/-.-.0.-.0.-/0.0.-.-.-.1 turn=10",
        0,
        {"c2-c1"},
    ),
]

WIN_IN_TWO = [
    # Positions found by playing random games and searching every reply exhaustively at each turn; the
    # notes say what the winning moves set up, the exhaustive check below proves the forced win.
    # d3 (2 high after the placement) collapses onto its lower neighbours d4, c3 and d2, seat 1 choosing
    # where its two pawns fall; no placement wins this turn, and after d3 seat 0 cannot meet every threat
    (
        "dorix",
        {"num_players": 2},
        "dorix 10.0.0.0/-.-.1.1/-.1.01.0/-.01.-.10 hands=7,8 move=1 turn=15 last=c4",
        1,
        {"d3"},
    ),
    # 3 players, hands empty: seat 2 moves a pawn onto a3 (from a1, b1 or b4); then whatever seats 0 and 1
    # do, a move of seat 2 completes a diagonal
    (
        "dorix",
        {"num_players": 3},
        "dorix 11.22.1100.10/002.111.00.-/-.10.000.1/222.02.2222.211 hands=0,0,0 move=2 turn=98 last=b3-d2",
        2,
        {"a1-a3", "b1-a3", "b4-a3"},
    ),
    # 4 players: seat 3 places on c2, which it tops (a4-d1 runs through it); seats 0 and 2 cannot meet
    # every threat this leaves in their two turns
    (
        "dorix",
        {"num_players": 4},
        "dorix -.2.01.2/-.1.-.01/-.0.3.-/3.-.-.2 hands=7,7,7,8 move=3 turn=11 last=d1",
        3,
        {"c2"},
    ),
    # player_0 has c1..h1 with both ends open: b1 or i1 makes an open seven, two cells away from I-8
    ("olix", {}, "olix 11/11/11/11/11/11/11/b1b1b1b1b1b/11/11/2wwwwww3 move=0 turn=12", 0, {"b1", "i1"}),
    # White's rock teammate forks Black's scissors captain (e9) and its scissors last teammate (a5): from
    # e5, c7, a9 or i5 it sees both along clear lines; Black can save one, White takes the other and wins
    (
        "adix",
        {},
        "adix 4cspr4/9/9/9/tsph8/9/6Trps2/9/4Crps4 move=0 turn=20 quiet=0",
        0,
        {"g3-e5", "g3-c7", "g3-a9", "g3-i5"},
    ),
    # North (seat 1): c3-d4 (its stack of 2 on c3, one square diagonally) leaves North ways to align or
    # to leave South with two stacks that South cannot all stop in one simultaneous turn
    (
        "barc",
        {},
        "barc -.1.-.-.-.1/-.-.1.-.-.1/-.-.-.0.-.-/-.-.01.-.-.-/0.1.-.-.-.0/-.0.-.-.-.0 turn=13 last=e2-f2,b5-c5",
        1,
        {"c3-d4"},
    ),
]


def _legal(rules, data, seat):
    mask = np.zeros(rules.NUM_ACTIONS, dtype=np.bool_)
    rules.legal_mask(data, seat, mask)
    return np.flatnonzero(mask)


def forced_win(state, me: int, first: int, turns: int) -> bool:
    """Whether ``me`` playing ``first`` now wins within ``turns`` of its own turns whatever the opponents
    do (partners help): exhaustive search over the rules kernels. A turn may take several decisions
    (Dorix collapse choices)."""
    rules, info = state.rules, state.game.info
    teams = info.teams

    def won(data):
        out = np.zeros(info.num_seats, dtype=np.float32)
        rules.returns(data, out)
        return out[me] > 0

    def joint_wins(data, a, n):  # the simultaneous game: a against every reply
        for b in _legal(rules, data, 1 - me):
            d = data.copy()
            rules.apply_joint(d, np.array([a, b] if me == 0 else [b, a], dtype=np.int64))
            if not wins(d, n - 1, False):
                return False
        return True

    def wins(data, n, continuing):
        if rules.is_over(data):
            return won(data)
        if info.acting_seats > 1:
            return n > 0 and any(joint_wins(data, a, n) for a in _legal(rules, data, me))
        seat, turn = data[rules.TO_MOVE], data[rules.TURN]
        if seat == me and not continuing:
            if n == 0:
                return False
            n -= 1
        results = []
        for a in _legal(rules, data, seat):
            d = data.copy()
            rules.apply_action(d, a)
            results.append(wins(d, n, seat == me and d[rules.TURN] == turn))
            if results[-1] and (seat == me or teams[seat] == teams[me]):
                return True
            if not results[-1] and teams[seat] != teams[me]:
                return False
        return teams[seat] != teams[me]

    if info.acting_seats > 1:
        return joint_wins(state.data, first, turns)
    d = state.data.copy()
    rules.apply_action(d, first)
    return wins(d, turns - 1, d[rules.TURN] == state.data[rules.TURN])


def _chosen(game, state, seat, simulations, seed, rollout_limit=None) -> str:
    result = MCTS(game, rollout_limit=rollout_limit).run(state, simulations, seed=seed)
    k = seat if game.info.acting_seats > 1 else 0
    return state.action_to_text(int(result.best_actions(k)[0]), seat)


@pytest.mark.parametrize("name, options, text, seat, wins", WIN_IN_ONE, ids=lambda v: None)
def test_search_takes_a_win_in_one(name, options, text, seat, wins):
    game = make_game(name, **options)
    state = game.from_text(text)
    for move in wins:
        assert forced_win(state, seat, state.text_to_action(move, seat), 1)
    before = state.clone()
    assert _chosen(game, state, seat, 1000, seed=0) in wins
    assert state == before  # the search never touches the position it is given


@pytest.mark.parametrize("name, options, text, seat, wins", WIN_IN_TWO, ids=lambda v: None)
def test_search_finds_a_forced_win_in_two(name, options, text, seat, wins):
    game = make_game(name, **options)
    state = game.from_text(text)
    legal = state.legal_actions(seat)
    for move in wins:
        assert forced_win(state, seat, state.text_to_action(move, seat), 2)
    assert not any(forced_win(state, seat, int(a), 1) for a in legal)  # nothing wins at once
    # Olix (about 110 moves a side) needs the rollouts' hint; the others are found by the tree alone
    limit = None if name == "olix" else 0
    assert _chosen(game, state, seat, 20000, seed=0, rollout_limit=limit) in wins


def test_the_search_is_deterministic_given_its_seed():
    game = make_game("dorix", num_players=3)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply(int(state.legal_actions()[0]))
    search = MCTS(game)
    a = search.run(state, 300, seed=7)
    b = MCTS(game).run(state, 300, seed=7)
    c = search.run(state, 300, seed=8)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.values, b.values)
    assert not np.array_equal(a.counts, c.counts)
    assert a.counts.sum() == 300 and a.counts.shape == (1, 1, game.info.num_actions)
    agents = [MCTSAgent(50, seed=3), MCTSAgent(50, seed=3)]
    assert agents[0].act(state, state.current_seat) == agents[1].act(state, state.current_seat)


def test_simultaneous_root_counts_every_seat():
    game = make_game("barc")
    state = game.new_initial_state()
    result = MCTS(game).run([state, state], 200, seed=1)
    assert result.counts.shape == (2, 2, game.info.num_actions)
    assert (result.counts.sum(axis=2) == 200).all()  # each seat's statistics count every simulation
    for k in range(2):
        assert not (result.counts[0, k] > 0)[~state.legal_mask(k)].any()


def test_a_search_with_small_edge_arrays_grows_them_and_gets_the_same_result():
    game = make_game("olix")
    state = game.new_initial_state()
    full = MCTS(game).run(state, 400, seed=2)
    search = MCTS(game)
    search._tree_for(search._roots(state), 401)
    search._tree = search._tree._replace(
        edges=search._tree.edges[:, :200], edge_value=search._tree.edge_value[:, :200]
    )  # room for one node's edges: the search must grow the arrays (several times) as it goes
    assert np.array_equal(search.run(state, 400, seed=2).counts, full.counts)


def test_the_search_runs_without_the_jit():
    code = (
        "import numpy as np\n"
        "from boardgames.envs.registry import make_game\n"
        "from boardgames.envs.search import MCTS, EvaluatorSearch\n"
        f"g = make_game('dorix', num_players=2); s = g.from_text({WIN_IN_ONE[0][2]!r})\n"
        "r = MCTS(g).run(s, 30, seed=4)\n"
        "print(r.counts[0, 0].tolist())\n"
        "e = EvaluatorSearch(g, lambda st, se: (np.ones((len(st), 276)), np.zeros((len(st), 2))))\n"
        "print(e.run([s, s], 5, seed=0).counts.sum(axis=2).ravel().tolist())\n"
    )
    out = run_python(code, NUMBA_DISABLE_JIT="1")
    assert out.returncode == 0, out.stderr
    counts, evaluated = out.stdout.strip().splitlines()
    game = make_game("dorix", num_players=2)
    jit = MCTS(game).run(game.from_text(WIN_IN_ONE[0][2]), 30, seed=4).counts[0, 0].tolist()
    assert eval(counts) == jit  # the same search, interpreted
    assert eval(evaluated) == [5, 5]


class _Uniform:
    """A dummy evaluator: uniform priors (or all weight on ``favourite``), value 0 for every seat; it
    records the size of each batch it was given."""

    def __init__(self, game, favourite=None):
        self.game, self.favourite, self.batches = game, favourite, []

    def __call__(self, states, seats):
        self.batches.append(len(states))
        priors = np.ones((len(states), self.game.info.acting_seats, self.game.info.num_actions))
        if self.favourite is not None:
            priors[:] = 0.0
            priors[..., self.favourite] = 1.0
        return priors, np.zeros((len(states), self.game.info.num_seats))


def test_evaluator_search_batches_the_leaves_of_every_tree():
    game = make_game("dorix", num_players=2)
    win = game.from_text(WIN_IN_ONE[0][2])
    start = game.new_initial_state()
    evaluator = _Uniform(game)
    result = EvaluatorSearch(game, evaluator).run([win, start, start], 64, seed=0)
    assert evaluator.batches[0] == 3  # the roots, in one call
    assert max(evaluator.batches) <= 3 and len(evaluator.batches) == 65  # one call per simulation
    assert (result.counts.sum(axis=2) == 64).all()
    # with no knowledge but the game's end, PUCT backs the win up and keeps playing it
    assert win.action_to_text(int(result.best_actions()[0])) == "d4"
    assert result.values[0, 1] > 0.5
    # a leaf where the game is over needs no evaluation: the batch shrinks when a tree's leaf is one
    assert min(evaluator.batches) < 3


def test_evaluator_priors_steer_the_search():
    game = make_game("barc")
    state = game.new_initial_state()
    favourite = int(state.legal_actions(0)[3])
    result = EvaluatorSearch(game, _Uniform(game, favourite)).run(state, 50, seed=0)
    assert int(result.best_actions(0)[0]) == favourite  # seat 0: all its prior on one order
    with pytest.raises(ValueError, match="values have shape"):
        EvaluatorSearch(game, lambda s, k: (np.ones((len(s), 2, 1441)), np.zeros((len(s), 3)))).run(state, 2)


def test_mcts_baseline_is_the_compiled_search_and_pymcts_the_python_one():
    game = make_game("olix")
    assert type(make_baseline_agent("mcts:400", game)) is MCTSAgent
    assert type(make_baseline_agent("pymcts:20", game)) is PythonMCTSAgent
    with pytest.raises(ValueError, match="over"):
        MCTS(game).run(
            game.from_text(
                "olix bbbbbbb4/11/11/11/11/11/11/11/11/11/wwwwwwww3 move=0 turn=15 last=h1 marks=O-,L-,I7wb,X- "
                "over=super:0:I8"
            ),
            10,
        )


def test_compiled_and_python_mcts_agree_in_distribution():
    """Same search, different random streams: in an early Dorix position the mean visit shares of the
    two over a few seeded searches are close (total variation), and with one clearly best move both
    agents play it every time."""
    game = make_game("dorix", num_players=2)
    state = game.new_initial_state()
    for move in ("b2", "c3", "a1"):
        state.apply(state.text_to_action(move))
    compiled = np.zeros(game.info.num_actions)
    python = np.zeros(game.info.num_actions)
    for seed in range(6):
        compiled += MCTS(game).run(state, 300, seed=seed).counts[0, 0] / 300
        python += _python_visits(state, 300, seed)
    compiled /= 6
    python /= 6
    assert 0.5 * np.abs(compiled - python).sum() < 0.2
    win = game.from_text(WIN_IN_ONE[0][2])
    for seed in range(3):
        assert win.action_to_text(MCTSAgent(200, seed=seed).act(win, 1)) == "d4"
        assert win.action_to_text(PythonMCTSAgent(200, seed=seed).act(win, 1)) == "d4"


def _python_visits(state, simulations, seed) -> np.ndarray:
    """The root's visit shares of one search of :class:`PythonMCTSAgent`."""
    from boardgames.envs.agents.mcts import _Node

    agent = PythonMCTSAgent(simulations, seed=seed)
    root = _Node(state, agent.rng)
    for _ in range(simulations):
        agent._simulate(root, state.clone())
    out = np.zeros(state.game.info.num_actions)
    for action, child in root.children.items():
        out[action] = child.visits / simulations
    return out


def test_gumbel_schedule_is_sequential_halving():
    from boardgames.envs.search.gumbel import considered_visits

    # 4 actions, 8 simulations: each of the 4 once (phase 1: 8 / (2 * 4) = 1 visit each), then the best
    # 2 twice more (8 / (2 * 2) = 2 rounds)
    assert considered_visits(4, 8) == (0, 0, 0, 0, 1, 1, 2, 2)
    assert considered_visits(1, 3) == (0, 1, 2)


@pytest.mark.parametrize("case", [c for c in WIN_IN_ONE if c[0] != "barc"], ids=lambda c: c[0])
def test_gumbel_search_takes_a_win_in_one(case):
    name, options, text, seat, wins = case
    game = make_game(name, **options)
    state = game.from_text(text)
    n = len(state.legal_actions(seat))
    search = EvaluatorSearch(game, _Uniform(game))
    result = search.run_gumbel(state, 2 * n, seed=0, max_considered=n)  # every move considered once
    assert state.action_to_text(int(result.actions[0]), seat) in wins
    assert result.counts[0, 0].sum() == 2 * n
    policy = result.improved[0]
    assert abs(policy.sum() - 1) < 1e-9 and not policy[~state.legal_mask(seat)].any()
    assert state.action_to_text(int(policy.argmax()), seat) in wins  # the improved policy favours the win
    with pytest.raises(ValueError, match="turn-based"):
        barc = make_game("barc")
        EvaluatorSearch(barc, _Uniform(barc)).run_gumbel(barc.new_initial_state(), 4)


class _Behind:
    """A dummy evaluator for two seats: uniform priors, and every unfinished position worth -0.1 to seat 0
    and +0.1 to seat 1 (seat 0 thinks it is a little behind)."""

    def __init__(self, game):
        self.game = game

    def __call__(self, states, seats):
        values = np.tile([-0.1, 0.1], (len(states), 1))
        return np.ones((len(states), 1, self.game.info.num_actions)), values


def test_contempt_makes_the_root_seat_play_on_rather_than_draw():
    """ADIX's start with 29 quiet turns behind it (A11): 21 of the 23 legal moves (rotations) end the game
    in a draw, the 2 others displace a cube and play on into positions the evaluator scores -0.1 for seat 0.
    Without contempt the draw (0) beats -0.1 and takes nearly every visit; with contempt 0.3 a draw counts
    -0.3 for the root seat, worse than -0.1, and the search plays on."""
    game = make_game("adix")
    state = game.from_text(game.new_initial_state().to_text().replace("quiet=0", "quiet=29"))
    legal = state.legal_actions()
    drawn = np.zeros(len(legal), dtype=bool)
    for i, action in enumerate(legal):
        after = state.clone()
        after.apply(int(action))
        drawn[i] = after.is_terminal() and after.end_reason == "draw"
    assert (len(legal), int(drawn.sum())) == (23, 21)

    def visits_to_draws(contempt):
        result = EvaluatorSearch(game, _Behind(game), contempt=contempt).run(state, 800, seed=0)
        counts = result.counts[0, 0, legal]
        assert abs(result.values[0].sum()) < 1e-9  # contempt moves value between the seats, never adds any
        return counts[drawn].sum() / counts.sum()

    assert visits_to_draws(0.0) > 0.9
    assert visits_to_draws(0.3) < 0.3


def test_contempt_is_checked():
    adix, barc = make_game("adix"), make_game("barc")
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="contempt must be a number from 0 to 1"):
            EvaluatorSearch(adix, _Behind(adix), contempt=bad)
    with pytest.raises(ValueError, match="contempt needs a turn-based game"):
        EvaluatorSearch(barc, _Uniform(barc), contempt=0.2)
    EvaluatorSearch(barc, _Uniform(barc), contempt=0.0)  # no contempt: any game
