"""The compiled search of a game: the search functions of its engine (:mod:`boardgames.envs.compiled.engines`,
rendered from the templates of :mod:`boardgames.envs.compiled.render`; nothing here is written per game), in
small pieces there: a selection rule per function (``select_uct``, ``select_puct``, chosen by
``select_edge``), expansion through the engine's one ``step`` (``child_of``), leaf evaluation (``rollout``)
and ``backup``.

:func:`search_loops` returns, for a game's :class:`~boardgames.envs.core.game_kernels.GameKernels`, the functions
over a :class:`boardgames.envs.search.tree.Tree` of ``B`` trees (tree ``b``'s root is its node 0):

* ``run_rollouts(t, roots, init, simulations, c, limit, valued, rng, done, rule)``: UCT with random rollouts, all
  compiled (cut after ``limit`` decisions where ``limit`` >= 0, scored 0, or with ``valued`` by the rules'
  ``leaf_values``). With ``init`` every tree is first emptied and gets ``roots[b]`` (a position) as its root. Then
  tree ``b`` runs ``simulations - done[b]`` more simulations, fewer if its edge arrays fill up: ``done`` says how
  many ran (the caller grows the arrays and calls again without ``init``).
* ``select_leaves(t, roots, init, c, rng, leaves, leaf_states, forced, contempt)`` and
  ``expand_and_backup(t, leaves, count, priors, values)``: the evaluator form (PUCT), in two halves
  between which the caller evaluates the leaves of every tree in one call. ``select_leaves`` (after
  the same ``init``) runs one simulation per tree down to a leaf: a leaf where the game is over is
  backed up at once with the game's returns, the others are listed in ``leaves`` (tree, node) with
  their positions in ``leaf_states``; it returns their count. ``forced[b]`` >= 0 makes tree ``b``'s
  simulation take that root edge (Gumbel root selection, decided in Python), -1 leaves it to PUCT.
  ``contempt`` > 0 scores a finished game that is a draw (every seat's return equal) ``contempt`` lower
  for the seat to move at the root and ``contempt / (seats - 1)`` higher for the others (an engine's
  contempt: the searching side plays on rather than settle for a draw); 0 leaves the returns as they
  are, and a simultaneous game's roots (no seat to move) always do.
  ``expand_and_backup`` makes the evaluator's ``priors`` the leaves' edge priors (renormalised over
  the legal actions) and backs up its ``values``. A tree's root, not yet evaluated, is its first leaf.

One simulation: from the root, each acting seat picks an edge, by UCB1 on its own statistics after
trying every edge once in a random order (UCT, decoupled at simultaneous nodes), or by PUCT on the
priors; the (joint) action leads to a child; the first child not yet in the tree is added and is the
leaf; the leaf's value per seat (the game's returns where it is over, else a random rollout's returns
or the evaluator's values) is added to every node and edge on the path, an edge counting its own
seat's value. So each seat maximises its own return (teams: the game's returns are the team's; three
players: general-sum, every seat for itself).

Random numbers come from :mod:`boardgames.envs.compiled.sampling` (xorshift64*, one state per tree in ``rng``): a
search is deterministic given its seed.
"""

from __future__ import annotations

from boardgames.envs.compiled.engines import engine
from boardgames.envs.core.game_kernels import GameKernels

SEARCH_FUNCTIONS = ("run_rollouts", "select_leaves", "expand_and_backup")
"""The engine's functions a search calls (see the module docstring)."""


def search_loops(kernels: GameKernels, simultaneous: bool) -> dict:
    """The compiled search functions of the game's engine: a dict of the functions listed in the module
    docstring, the same dict on every call. ``simultaneous`` must be the game's (every seat acts at once)."""
    if simultaneous != kernels.simultaneous:
        raise ValueError(f"{kernels.name}: simultaneous={simultaneous}, but the rules say otherwise")
    return kernels.derived("search", lambda: {name: getattr(engine(kernels), name) for name in SEARCH_FUNCTIONS})
