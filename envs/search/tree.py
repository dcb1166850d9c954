"""The search tree as preallocated numpy arrays: ``B`` trees side by side, one per search.

Every array has the tree index first, then the node (``NB`` nodes per tree) or the edge (``EB`` edges per
tree); indices stored in the arrays are relative to their own tree, so the edge arrays can grow (see
:func:`grow_edges`) without rewriting them. Few arrays with field columns rather than one array per
field: the compiled search loops take the tree as one tuple, and a tuple of many arrays makes numba's
compilation several times slower.

A node (``nodes[b, n]``, int32 columns) holds its parent, the seat to act (turn-based; -1 where every
seat acts at once), whether the game is over there, whether an evaluator has scored it, its visit count
and, for each acting seat ``k`` (one in a turn-based game, every seat in a simultaneous one), where its
edges start, how many there are, how many UCT has tried, and the edge of the parent that led here. Its
position is ``states[b, n]`` (the game's flat state array) and ``node_value[b, n, s]`` sums the returns
of seat ``s`` over the simulations through it.

An edge (``edges[b, e]``) is one legal action of one acting seat at a node: the action, the child it
leads to (turn-based nodes; -1 until expanded), its visit count; ``edge_value[b, e]`` holds its summed
value *for its own seat* (column :data:`VALUE`), its prior (:data:`PRIOR`, uniform until an
evaluator sets it) and, for the simultaneous-move rules (regret matching, Exp3:
:mod:`boardgames.envs.compiled.regret`), its seat's regret or summed reward (:data:`REGRET`) and the summed
current strategy (:data:`STRATEGY_SUM`: the average strategy, once normalised). At a simultaneous node
the children are keyed by the joint action: they hang in a
list (:data:`FIRST_CHILD`, :data:`NEXT_SIBLING`) and a child is known by the edges it came through
(its :data:`IN_EDGE` columns): each seat keeps its own statistics per action (decoupled UCT, or regret
matching / Exp3, which converge to a Nash equilibrium where decoupled UCT does not).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from boardgames.envs.compiled.tree_layout import *  # noqa: F403  (every column, read from here by the search)
from boardgames.envs.compiled.tree_layout import EDGE_COUNT, EDGE_FLOATS, EDGE_START, PER_SEAT, SEAT_COLUMNS

Tree = namedtuple("Tree", ["states", "nodes", "node_value", "edges", "edge_value", "sizes"])
"""The arrays of ``B`` search trees (made by :func:`new_tree`, see the module docstring): ``states``
``(B, NB, STATE_SIZE)``, ``nodes`` ``(B, NB, SEAT_COLUMNS + PER_SEAT * K)`` int32, ``node_value``
``(B, NB, seats)`` float64, ``edges`` ``(B, EB, 3)`` int32, ``edge_value`` ``(B, EB, 4)`` float64, and
``sizes`` ``(B, 2)`` int64, the nodes and edges in use per tree."""


def column(k: int, field: int) -> int:
    """The node column of acting seat ``k``'s ``field`` (:data:`EDGE_START` ...)."""
    return SEAT_COLUMNS + PER_SEAT * k + field


def new_tree(trees: int, nodes: int, edges: int, state_size: int, state_dtype, seats: int, acting: int) -> Tree:
    """Room for ``trees`` trees of ``nodes`` nodes and ``edges`` edges each, positions of ``state_size``
    values of ``state_dtype``, ``seats`` seats of which ``acting`` act at each decision."""
    return Tree(
        states=np.zeros((trees, nodes, state_size), dtype=state_dtype),
        nodes=np.zeros((trees, nodes, SEAT_COLUMNS + PER_SEAT * acting), dtype=np.int32),
        node_value=np.zeros((trees, nodes, seats), dtype=np.float64),
        edges=np.zeros((trees, edges, 3), dtype=np.int32),
        edge_value=np.zeros((trees, edges, EDGE_FLOATS), dtype=np.float64),
        sizes=np.zeros((trees, 2), dtype=np.int64),
    )


def acting_seats(tree: Tree) -> int:
    """K, the seats that act at each decision of the tree's game."""
    return (tree.nodes.shape[2] - SEAT_COLUMNS) // PER_SEAT


def grow_edges(tree: Tree, edges: int) -> Tree:
    """``tree`` with room for ``edges`` edges per tree (more than it has), its contents kept."""
    grown = {}
    for name in ("edges", "edge_value"):
        old = getattr(tree, name)
        new = np.zeros((old.shape[0], edges, old.shape[2]), dtype=old.dtype)
        new[:, : old.shape[1]] = old
        grown[name] = new
    return tree._replace(**grown)


def fits(tree: Tree | None, trees: int, nodes: int, seats: int) -> bool:
    """Whether ``tree`` holds ``trees`` trees of at least ``nodes`` nodes for ``seats`` seats (so that a
    new search can reuse its arrays)."""
    return (
        tree is not None
        and tree.states.shape[0] == trees
        and tree.states.shape[1] >= nodes
        and tree.node_value.shape[2] == seats
    )


def root_edges(tree: Tree, b: int, k: int) -> slice:
    """The edges of acting seat ``k`` at the root of tree ``b``."""
    start = tree.nodes[b, 0, column(k, EDGE_START)]
    return slice(start, start + tree.nodes[b, 0, column(k, EDGE_COUNT)])
