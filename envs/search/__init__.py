"""Compiled search over the games' numba kernels (see docs/search.md).

* :class:`MCTS`: UCT with random rollouts, selection, expansion, rollout and backup all compiled;
  decoupled UCT where the seats act at once. The ``mcts:N`` baseline
  (:class:`boardgames.envs.agents.MCTSAgent`) runs it.
* :class:`EvaluatorSearch`: PUCT whose leaves are evaluated by a callback (a network), the leaves of
  many searches through one call per simulation.
* :class:`SearchResult`: the root's visit counts per acting seat and action, and its mean values.

Both run one search per position given, for every registered game, from one implementation compiled
per game from its kernels (:mod:`boardgames.envs.search.loops`) over the tree arrays of
:mod:`boardgames.envs.search.tree`.
"""

from boardgames.envs.search.search import MCTS, Evaluator, EvaluatorSearch, SearchResult

__all__ = ["MCTS", "Evaluator", "EvaluatorSearch", "SearchResult"]
