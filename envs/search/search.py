"""The compiled search's Python side: :class:`MCTS` (UCT with random rollouts, the ``mcts:N`` baseline)
and :class:`EvaluatorSearch` (PUCT whose leaves many searches evaluate together through one call, the
form a network plugs into).

Both run ``B`` searches at once, one per position given (``B`` = 1 for one move), over the arrays of
:mod:`boardgames.envs.search.tree` and the loops :mod:`boardgames.envs.search.loops` compiles from the game's
:class:`boardgames.envs.core.game_kernels.GameKernels` (once per process and game: the first search of a game takes
a few seconds). Their result is a
:class:`SearchResult`: the root's visit counts per acting seat and action, and the root's mean value
per seat, and under the simultaneous-move rules (``rule="regret"`` or ``"exp3"``: regret matching or Exp3
at every node, :mod:`boardgames.envs.compiled.regret`) each seat's *average* strategy at the root, the
strategy that converges to a Nash equilibrium of the game (decoupled UCT's visit counts do not).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from boardgames.envs.compiled.sampling import seed_rng
from boardgames.envs.compiled.turns import compiled_kernels
from boardgames.envs.core.game import Game, State
from boardgames.envs.search.gumbel import GumbelRoot
from boardgames.envs.search.loops import search_loops
from boardgames.envs.search.tree import (
    ACTION,
    EDGE_VISITS,
    PRIOR,
    RULE_EXP3,
    RULE_PUCT,
    RULE_REGRET,
    RULE_UCT,
    SEAT,
    STRATEGY_SUM,
    VALUE,
    VISITS,
    Tree,
    fits,
    grow_edges,
    new_tree,
    root_edges,
)

RULES = {"uct": RULE_UCT, "puct": RULE_PUCT, "regret": RULE_REGRET, "exp3": RULE_EXP3}
"""The selection rules by name: UCB1 (the rollout search's default), PUCT (the evaluator search's default),
regret matching and Exp3 (simultaneous games only; ``c`` is then their uniform exploration share gamma)."""

SIMULTANEOUS_RULES = ("regret", "exp3")
"""The rules that learn a mixed strategy per seat and node, for games whose seats act at once."""


@dataclass
class SearchResult:
    """What a batch of searches found.

    Attributes:
        counts: ``(B, K, NUM_ACTIONS)`` int: visits of each action at the root of search ``b``, for
            each acting seat ``k`` (K = 1 in a turn-based game: the seat to move; K = seats in a
            simultaneous one, row k for seat k).
        values: ``(B, seats)``: the mean value per seat of the simulations through the root.
        strategies: ``(B, K, NUM_ACTIONS)``: each acting seat's average strategy at the root (regret
            matching and Exp3; None under UCT and PUCT).
    """

    counts: np.ndarray
    values: np.ndarray
    strategies: np.ndarray | None = None

    def best_actions(self, k: int = 0, rng: np.random.Generator | None = None) -> np.ndarray:
        """Per search, the most visited action of acting seat ``k`` (ties: a random one of them with
        ``rng``, else the lowest)."""
        out = np.empty(self.counts.shape[0], dtype=np.int64)
        for b, row in enumerate(self.counts[:, k]):
            best = np.flatnonzero(row == row.max())
            out[b] = best[0] if rng is None or len(best) == 1 else rng.choice(best)
        return out

    def policy(self, k: int = 0) -> np.ndarray:
        """``(B, NUM_ACTIONS)``: acting seat ``k``'s average strategy where the search learnt one, else its
        visit counts normalised (a training target, the distribution an agent samples from)."""
        if self.strategies is not None:
            return self.strategies[:, k].copy()
        counts = self.counts[:, k].astype(np.float64)
        return counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)


class _Search:
    """What both searches share: the game's kernels (``kernels``, its
    :class:`boardgames.envs.core.game_kernels.GameKernels`) and the search loops compiled from them (``loops``),
    the tree arrays (kept between searches) and the positions turned into root arrays."""

    def __init__(self, game: Game, c: float, rule: str):
        kernels = compiled_kernels(game)
        if kernels is None:
            raise TypeError(
                f"{game.info.name}: the compiled search needs a game whose states are the numba kernels' "
                "arrays (a KernelGame overriding none of their methods); use boardgames.envs.agents.PythonMCTSAgent"
            )
        self.game = game
        self.kernels = kernels
        self.c = float(c)
        self.simultaneous = game.info.acting_seats > 1
        self.seats = game.info.num_seats
        self.acting = game.info.acting_seats
        self.loops = search_loops(kernels, self.simultaneous)
        self._tree: Tree | None = None
        if rule not in RULES:
            raise ValueError(f"unknown selection rule {rule!r}: use one of {', '.join(RULES)}")
        if rule in SIMULTANEOUS_RULES:
            if not self.simultaneous:
                raise ValueError(f"{game.info.name}: the rule {rule!r} needs a game whose seats act at once")
            if not 0.0 < self.c <= 1.0:
                raise ValueError(f"the rule {rule!r} takes an exploration share gamma in (0, 1], got {self.c}")
        self.rule = rule
        self.rule_code = RULES[rule]

    def _roots(self, states) -> np.ndarray:
        """The positions as a ``(B, STATE_SIZE)`` array: ``states`` is one State, a list of them, or such
        an array; ValueError for a position where the game is over (nothing to search)."""
        if isinstance(states, State):
            states = [states]
        if isinstance(states, np.ndarray):
            roots = np.array(states, dtype=states.dtype, ndmin=2)
        else:
            roots = np.stack([s.data for s in states])
        over = [b for b, row in enumerate(roots) if self.kernels.is_over(row)]
        if over:
            raise ValueError(f"cannot search position {over[0]}: the game is over there")
        return roots

    @property
    def _built(self) -> Tree:
        """The tree of the search under way (made by :meth:`_tree_for`)."""
        assert self._tree is not None, "no search has made its tree yet"
        return self._tree

    def _tree_for(self, roots: np.ndarray, nodes: int) -> Tree:
        trees = roots.shape[0]
        if (
            self._tree is None
            or not fits(self._tree, trees, nodes, self.seats)
            or self._tree.states.dtype != roots.dtype
        ):
            per_node = min(self.kernels.num_actions * self.acting, 32)
            edges = per_node * nodes + self.acting * self.kernels.num_actions
            self._tree = new_tree(trees, nodes, edges, roots.shape[1], roots.dtype, self.seats, self.acting)
        return self._built

    def _grow(self) -> Tree:
        self._tree = grow_edges(self._built, 2 * self._built.edges.shape[1])
        return self._built

    def _result(self) -> SearchResult:
        t = self._built
        trees = t.states.shape[0]
        counts = np.zeros((trees, self.acting, self.kernels.num_actions), dtype=np.int64)
        for b in range(trees):
            for k in range(self.acting):
                edges = t.edges[b, root_edges(t, b, k)]
                counts[b, k, edges[:, ACTION]] = edges[:, EDGE_VISITS]
        values = t.node_value[:, 0] / np.maximum(t.nodes[:, 0, VISITS], 1)[:, None]
        return SearchResult(counts, values, self._strategies() if self.rule in SIMULTANEOUS_RULES else None)

    def _strategies(self) -> np.ndarray:
        """``(B, K, NUM_ACTIONS)``: each acting seat's average strategy at each root (its summed current
        strategies, normalised; uniform over the legal actions before any simulation)."""
        t = self._built
        out = np.zeros((t.states.shape[0], self.acting, self.kernels.num_actions))
        for b in range(t.states.shape[0]):
            for k in range(self.acting):
                edges = root_edges(t, b, k)
                sums = t.edge_value[b, edges, STRATEGY_SUM]
                total = sums.sum()
                weights = sums / total if total > 0 else np.full(len(sums), 1.0 / max(len(sums), 1))
                out[b, k, t.edges[b, edges, ACTION]] = weights
        return out


class MCTS(_Search):
    """UCT with random rollouts, compiled: the same search as :class:`boardgames.envs.agents.PythonMCTSAgent` (UCB1
    after trying every action once in a random order; decoupled UCT at simultaneous nodes, each seat
    with its own statistics per action) on the game's kernels; with ``rule="regret"`` or ``"exp3"``
    (simultaneous games) the search of :class:`boardgames.envs.agents.PythonSMMCTSAgent` instead.

    Args:
        game: a game whose states are kernel arrays (every registered game).
        c: exploration constant of UCB1 on values in [-1, 1] (regret matching, Exp3: gamma).
        rollout_limit: stop a rollout after this many decisions and score it 0 (None: to the end).
        rule: the selection rule, a name of :data:`RULES` other than ``"puct"``.
        leaf_values: score a rollout cut at ``rollout_limit`` by the rules' value of the position reached
            (their ``leaf_values`` kernel, :mod:`boardgames.envs.core.game_kernels`) instead of 0;
            ``rollout_limit=0`` values every leaf so, with no random decision. Only for a game whose rules
            have that kernel.
    """

    def __init__(
        self,
        game: Game,
        c: float = 1.4,
        rollout_limit: int | None = None,
        rule: str = "uct",
        leaf_values: bool = False,
    ):
        if rule == "puct":
            raise ValueError("PUCT needs an evaluator's priors: use EvaluatorSearch")
        super().__init__(game, c, rule)
        self.rollout_limit = -1 if rollout_limit is None else int(rollout_limit)
        if leaf_values and self.kernels.leaf_values is None:
            raise ValueError(f"{game.info.name}: its rules value no position (no leaf_values kernel)")
        if leaf_values and self.rollout_limit < 0:
            raise ValueError("leaf_values values a rollout cut at rollout_limit: give one (0: no rollout)")
        self.leaf_values = bool(leaf_values)

    def run(self, states, simulations: int, seed=None) -> SearchResult:
        """``simulations`` simulations from each position of ``states`` (a State, a list of them, or a
        ``(B, STATE_SIZE)`` array), each search with its own random stream drawn from ``seed``."""
        simulations = int(simulations)
        if simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        roots = self._roots(states)
        t = self._tree_for(roots, simulations + 1)
        rng = seed_rng(seed, roots.shape[0])
        done = np.zeros(roots.shape[0], dtype=np.int64)
        init = True
        while True:
            self.loops["run_rollouts"](
                t, roots, init, simulations, self.c, self.rollout_limit, self.leaf_values, rng, done, self.rule_code
            )
            init = False
            if done.min() >= simulations:
                return self._result()
            t = self._grow()  # a tree's edges filled up: more room, and the rest of its simulations

    def visit_counts(self, state: State, simulations: int, seed=None) -> np.ndarray:
        """``(K, NUM_ACTIONS)``: the root's visit counts of one search from ``state``."""
        return self.run(state, simulations, seed).counts[0]


@dataclass
class GumbelResult(SearchResult):
    """A :class:`SearchResult` of :meth:`EvaluatorSearch.run_gumbel`, with per search the move chosen
    (``actions``, ``(B,)``) and the improved policy (``improved``, ``(B, NUM_ACTIONS)``)."""

    actions: np.ndarray | None = None
    improved: np.ndarray | None = None


Evaluator = Callable[[np.ndarray, np.ndarray], tuple]
"""``evaluator(states, seats) -> (priors, values)``: for ``M`` leaf positions (``states``, ``(M,
STATE_SIZE)``, and ``seats``, the seat to act at each, -1 where every seat acts at once), the priors
``(M, K, NUM_ACTIONS)`` (or ``(M, NUM_ACTIONS)`` when K = 1; any non-negative weights, renormalised
over the legal actions; uniform where they sum to 0) and the values ``(M, seats)``, each seat's
expected return (in [-1, 1]) from that position."""


class EvaluatorSearch(_Search):
    """PUCT (AlphaZero's selection: ``Q + c * P * sqrt(N) / (1 + n)``, an unvisited action's Q taken
    as 0; decoupled per seat at simultaneous nodes) whose leaves are evaluated by ``evaluator`` (see
    :data:`Evaluator`), the leaves of all the searches of a batch in one call per simulation: the
    compiled loops descend every tree to a leaf, the evaluator (a network) scores the leaves, the
    loops back the values up. A leaf where the game is over is scored by the game's returns without
    the evaluator. The roots are evaluated first (that call counts no simulation).

    Args:
        game: a game whose states are kernel arrays.
        evaluator: the leaf evaluator.
        c: PUCT's exploration constant.
        contempt: how much worse than its returns a finished draw counts for the seat to move at the root
            (the others gain it, shared; see :mod:`boardgames.envs.search.loops`): 0, the default, takes the
            game's returns as they are; a small positive value (0.1 to 0.3) makes a stronger agent play
            on where it would otherwise accept a draw. Turn-based games only.
        rule: ``"puct"``, or for a simultaneous game ``"regret"`` or ``"exp3"`` (``c`` is then their gamma;
            the priors are regret matching's strategy where no regret is positive yet).
    """

    def __init__(self, game: Game, evaluator: Evaluator, c: float = 1.25, contempt: float = 0.0, rule: str = "puct"):
        if rule == "uct":
            raise ValueError("the evaluator search selects by PUCT, regret matching or Exp3, not UCT")
        super().__init__(game, c, rule)
        self.evaluator = evaluator
        contempt = float(contempt)
        if not math.isfinite(contempt) or not 0.0 <= contempt <= 1.0:
            raise ValueError(f"contempt must be a number from 0 to 1, got {contempt}")
        if contempt and self.acting != 1:
            raise ValueError(f"{game.info.name}: contempt needs a turn-based game (a seat to move at the root)")
        self.contempt = contempt

    def run(self, states, simulations: int, seed=None, root_noise: tuple[float, float] | None = None) -> SearchResult:
        """``simulations`` simulations from each position of ``states`` (as :meth:`MCTS.run`).

        ``root_noise = (alpha, fraction)`` mixes Dirichlet(alpha) noise over each root's legal actions
        into its priors, ``(1 - fraction) * prior + fraction * noise`` (AlphaZero's exploration in
        self-play), drawn from ``seed``."""
        simulations = int(simulations)
        if simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        roots = self._roots(states)
        trees = roots.shape[0]
        if root_noise:  # two streams from the seed: the trees' and the noise's
            tree_seeds, noise_seeds = np.random.SeedSequence(seed).spawn(2)
            rng = seed_rng(int(tree_seeds.generate_state(1, np.uint64)[0]), trees)
        else:
            rng = seed_rng(seed, trees)
        noise = np.random.default_rng(noise_seeds) if root_noise else None
        self._loop(
            roots,
            simulations,
            rng,
            lambda t: self._add_root_noise(t, *root_noise, noise) if root_noise and noise else None,
        )
        return self._result()

    def _loop(self, roots: np.ndarray, simulations: int, rng: np.ndarray, after_roots, choose_root=None) -> None:
        """The roots' evaluation (then ``after_roots(tree)``), then ``simulations`` simulations; with
        ``choose_root(tree, i)`` -> root edge per tree (or -1), simulation ``i``'s root choice."""
        trees = roots.shape[0]
        t = self._tree_for(roots, simulations + 1)
        k = self.loops
        leaves = np.zeros((trees, 2), dtype=np.int64)
        leaf_states = np.zeros_like(roots)
        free = np.full(trees, -1, dtype=np.int64)
        for i in range(simulations + 1):  # the roots, then the simulations
            room = self.acting * self.kernels.num_actions
            while i > 0 and (t.edges.shape[1] - t.sizes[:, 1]).min() < room:
                t = self._grow()
            forced = choose_root(t, i - 1) if i > 0 and choose_root is not None else free
            count = k["select_leaves"](
                t, roots, i == 0, self.c, rng, leaves, leaf_states, forced, self.contempt, self.rule_code
            )
            if count:
                priors, values = self._evaluate(t, leaves[:count], leaf_states[:count])
                k["expand_and_backup"](t, leaves, count, priors, values, self.rule_code, self.c)
            if i == 0:
                after_roots(t)
            t = self._built

    def run_gumbel(
        self,
        states,
        simulations: int,
        seed=None,
        max_considered: int = 16,
        c_visit: float = 50.0,
        c_scale: float = 0.1,
    ) -> GumbelResult:
        """Gumbel root selection with sequential halving (:mod:`boardgames.envs.search.gumbel`), PUCT below the
        root: turn-based games only. The result also holds each search's move (``actions``) and its
        improved policy (``improved``, the self-play target)."""
        if self.acting != 1 or self.rule != "puct":
            raise ValueError(f"{self.game.info.name}: Gumbel root selection needs a turn-based game and PUCT")
        simulations = int(simulations)
        if simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        roots = self._roots(states)
        trees = roots.shape[0]
        tree_seeds, gumbel_seeds = np.random.SeedSequence(seed).spawn(2)
        rng = seed_rng(int(tree_seeds.generate_state(1, np.uint64)[0]), trees)
        draws = np.random.default_rng(gumbel_seeds)
        state: list = []

        def start(t: Tree) -> None:
            for b in range(trees):
                edges = root_edges(t, b, 0)
                seat = t.nodes[b, 0, SEAT]
                raw = t.node_value[b, 0, seat] / max(t.nodes[b, 0, VISITS], 1)
                root = GumbelRoot(
                    t.edges[b, edges, ACTION].copy(), t.edge_value[b, edges, PRIOR].copy(), raw, max_considered, draws
                )
                state.append((edges, root))

        def stats(t: Tree, b: int):
            edges, root = state[b]
            visits = t.edges[b, edges, EDGE_VISITS].astype(np.float64)
            q = t.edge_value[b, edges, VALUE] / np.maximum(visits, 1)
            return edges, root, q, visits

        def choose(t: Tree, i: int) -> np.ndarray:
            out = np.empty(trees, dtype=np.int64)
            for b in range(trees):
                edges, root, q, visits = stats(t, b)
                out[b] = edges.start + root.choose(i, simulations, q, visits, c_visit, c_scale)
            return out

        self._loop(roots, simulations, rng, start, choose)
        result = self._result()
        actions = np.empty(trees, dtype=np.int64)
        improved = np.zeros((trees, self.kernels.num_actions))
        for b in range(trees):
            edges, root, q, visits = stats(self._built, b)
            actions[b] = root.actions[root.action(q, visits, c_visit, c_scale)]
            improved[b, root.actions] = root.policy(q, visits, c_visit, c_scale)
        return GumbelResult(result.counts, result.values, actions=actions, improved=improved)

    def _add_root_noise(self, t: Tree, alpha: float, fraction: float, rng: np.random.Generator) -> None:
        """Mix Dirichlet noise into the priors of every root's edges (every acting seat's)."""
        for b in range(t.states.shape[0]):
            for k in range(self.acting):
                edges = root_edges(t, b, k)
                n = edges.stop - edges.start
                if n > 1:
                    noise = rng.dirichlet(np.full(n, float(alpha)))
                    t.edge_value[b, edges, PRIOR] = (1 - fraction) * t.edge_value[b, edges, PRIOR] + fraction * noise

    def _evaluate(self, t: Tree, leaves: np.ndarray, leaf_states: np.ndarray) -> tuple:
        seats = t.nodes[leaves[:, 0], leaves[:, 1], SEAT].astype(np.int64)
        priors, values = self.evaluator(leaf_states, seats)
        m, a = leaves.shape[0], self.kernels.num_actions
        priors = np.asarray(priors, dtype=np.float64).reshape(m, self.acting, a)
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (m, self.seats):
            raise ValueError(f"the evaluator's values have shape {values.shape}, expected {(m, self.seats)}")
        return priors, values
