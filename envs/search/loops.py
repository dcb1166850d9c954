"""The compiled search, generated from any game's kernels (closures over them, written out as a module that
numba caches on disk by :mod:`boardgames.envs.compiled.kernel_cache`, so compiled once per game, and kept in its
:class:`boardgames.envs.core.game_kernels.GameKernels`' cache, like the batch loops of
:mod:`boardgames.envs.vector.loops`; nothing here is written per game).

:func:`search_loops` returns, for a game's :class:`~boardgames.envs.core.game_kernels.GameKernels`, the functions
over a :class:`boardgames.envs.search.tree.Tree` of ``B`` trees (tree ``b``'s root is its node 0):

* ``run_rollouts(t, roots, init, simulations, c, limit, rng, done)``: UCT with random rollouts, all
  compiled. With ``init`` every tree is first emptied and gets ``roots[b]`` (a position) as its root.
  Then tree ``b`` runs ``simulations - done[b]`` more simulations, fewer if its edge arrays fill up:
  ``done`` says how many ran (the caller grows the arrays and calls again without ``init``).
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

import math

import numpy as np
from numba import njit

from boardgames.envs.compiled.kernel_cache import disk_cached
from boardgames.envs.compiled.sampling import pick_legal, rand_below
from boardgames.envs.core.game_kernels import GameKernels
from boardgames.envs.search.tree import (
    ACTION,
    CHILD,
    EDGE_COUNT,
    EDGE_START,
    EDGE_VISITS,
    EVALUATED,
    FIRST_CHILD,
    IN_EDGE,
    NEXT_SIBLING,
    PARENT,
    PER_SEAT,
    PRIOR,
    SEAT,
    SEAT_COLUMNS,
    TERMINAL,
    TRIED,
    VALUE,
    VISITS,
)


def search_loops(kernels: GameKernels, simultaneous: bool) -> dict:
    """The compiled search functions over the game's ``kernels`` (built once per game, kept by
    :meth:`GameKernels.derived`): a dict of the functions listed in the module docstring."""
    return kernels.derived(("search", simultaneous), lambda: _make(kernels, simultaneous))


@njit
def _col(k, field):
    return SEAT_COLUMNS + PER_SEAT * k + field


def _make(kernels: GameKernels, simultaneous: bool) -> dict:
    legal_mask = kernels.legal_mask
    is_over = kernels.is_over
    returns = kernels.returns
    to_move_at = kernels.to_move_at
    num_actions = kernels.num_actions
    if simultaneous:
        apply_joint = kernels.apply_joint

        @njit
        def play(row, joint):
            apply_joint(row, joint)

    else:
        apply_action = kernels.apply_action

        @njit
        def play(row, joint):
            apply_action(row, joint[0])

    @njit
    def room(t, b, kk):
        """Whether tree ``b`` has room for one more node and its edges."""
        return t.sizes[b, 0] < t.states.shape[1] and t.sizes[b, 1] + kk * num_actions <= t.edges.shape[1]

    @njit
    def make_node(t, b, parent, rng, mask, kk):
        """Set up node ``sizes[b, 0]`` (its position already in ``states``) under ``parent``: whether the
        game is over, its acting seats and their edges (the legal actions, shuffled). Returns it."""
        node = t.sizes[b, 0]
        t.sizes[b, 0] = node + 1
        row = t.states[b, node]
        nd = t.nodes[b, node]
        nd[:] = 0
        nd[PARENT] = parent
        nd[FIRST_CHILD] = -1
        nd[NEXT_SIBLING] = -1
        t.node_value[b, node, :] = 0.0
        e = t.sizes[b, 1]
        for k in range(kk):
            nd[_col(k, IN_EDGE)] = -1
            nd[_col(k, EDGE_START)] = e
        if is_over(row):
            nd[TERMINAL] = 1
            nd[SEAT] = -1
            return node
        nd[SEAT] = -1 if simultaneous else row[to_move_at]
        for k in range(kk):
            legal_mask(row, k if simultaneous else row[to_move_at], mask)
            first = e
            for a in range(num_actions):
                if mask[a]:
                    t.edges[b, e, ACTION] = a
                    t.edges[b, e, CHILD] = -1
                    t.edges[b, e, EDGE_VISITS] = 0
                    t.edge_value[b, e, VALUE] = 0.0
                    e += 1
            count = e - first
            for i in range(count - 1, 0, -1):  # Fisher-Yates: the order UCT tries the edges in
                j = first + rand_below(rng, b, i + 1)
                a = t.edges[b, first + i, ACTION]
                t.edges[b, first + i, ACTION] = t.edges[b, j, ACTION]
                t.edges[b, j, ACTION] = a
            for i in range(first, e):
                t.edge_value[b, i, PRIOR] = 1.0 / count
            nd[_col(k, EDGE_START)] = first
            nd[_col(k, EDGE_COUNT)] = count
        t.sizes[b, 1] = e
        return node

    @njit
    def init_roots(t, roots, rng, mask, kk):
        for b in range(t.states.shape[0]):
            t.sizes[b, 0] = 0
            t.sizes[b, 1] = 0
            t.states[b, 0, :] = roots[b]
            make_node(t, b, -1, rng, mask, kk)

    @njit
    def pick_edge(t, b, node, k, c, puct):
        """The edge acting seat ``k`` takes at ``node`` (-1 if it has none)."""
        nd = t.nodes[b, node]
        count = nd[_col(k, EDGE_COUNT)]
        if count == 0:
            return -1
        first = nd[_col(k, EDGE_START)]
        ev = t.edge_value[b]
        ei = t.edges[b]
        best, best_score = first, -np.inf
        if not puct:
            tried = nd[_col(k, TRIED)]
            if tried < count:  # UCT: every edge once, in the shuffled order
                nd[_col(k, TRIED)] = tried + 1
                return first + tried
            log_n = math.log(max(nd[VISITS], 1))
            for e in range(first, first + count):
                v = ei[e, EDGE_VISITS]
                score = ev[e, VALUE] / v + c * math.sqrt(log_n / v)
                if score > best_score:
                    best, best_score = e, score
            return best
        sqrt_n = math.sqrt(max(nd[VISITS], 1))
        for e in range(first, first + count):
            v = ei[e, EDGE_VISITS]
            q = ev[e, VALUE] / v if v > 0 else 0.0
            score = q + c * ev[e, PRIOR] * sqrt_n / (1 + v)
            if score > best_score:
                best, best_score = e, score
        return best

    @njit
    def child_of(t, b, node, chosen, rng, mask, joint):
        """The child that the edges ``chosen`` (one per acting seat) lead to from ``node``, added to the
        tree if new; returns (child, whether it is new)."""
        kk = chosen.shape[0]
        if not simultaneous:
            child = np.int64(t.edges[b, chosen[0], CHILD])
            if child >= 0:
                return child, False
        else:
            child = np.int64(t.nodes[b, node, FIRST_CHILD])
            while child >= 0:
                same = True
                for k in range(kk):
                    if t.nodes[b, child, _col(k, IN_EDGE)] != chosen[k]:
                        same = False
                        break
                if same:
                    return child, False
                child = np.int64(t.nodes[b, child, NEXT_SIBLING])
        for k in range(kk):
            joint[k] = t.edges[b, chosen[k], ACTION] if chosen[k] >= 0 else 0
        new = np.int64(t.sizes[b, 0])
        t.states[b, new, :] = t.states[b, node]
        play(t.states[b, new], joint)
        make_node(t, b, node, rng, mask, kk)
        for k in range(kk):
            t.nodes[b, new, _col(k, IN_EDGE)] = chosen[k]
        if simultaneous:
            t.nodes[b, new, NEXT_SIBLING] = t.nodes[b, node, FIRST_CHILD]
            t.nodes[b, node, FIRST_CHILD] = new
        else:
            t.edges[b, chosen[0], CHILD] = new
        return new, True

    @njit
    def descend(t, b, c, puct, rng, mask, joint, chosen, forced):
        """One simulation's way down tree ``b``: the leaf (a new node, a node where the game is over, or
        with ``puct`` a node not evaluated yet). ``forced`` >= 0: the edge taken at the root (acting
        seat 0; Gumbel root selection)."""
        node = np.int64(0)
        kk = chosen.shape[0]
        while True:
            nd = t.nodes[b, node]
            if nd[TERMINAL] or (puct and not nd[EVALUATED]):
                return node
            for k in range(kk):
                chosen[k] = pick_edge(t, b, node, k, c, puct)
            if node == 0 and forced >= 0:
                chosen[0] = forced
            node, new = child_of(t, b, node, chosen, rng, mask, joint)
            if new:
                return node

    @njit
    def backup(t, b, leaf, value, kk):
        """Add ``value`` (per seat) to the nodes and edges from ``leaf`` up to the root."""
        node = leaf
        while node >= 0:
            nd = t.nodes[b, node]
            nd[VISITS] += 1
            t.node_value[b, node, :] += value
            parent = nd[PARENT]
            if parent >= 0:
                for k in range(kk):
                    e = nd[_col(k, IN_EDGE)]
                    if e >= 0:
                        t.edges[b, e, EDGE_VISITS] += 1
                        t.edge_value[b, e, VALUE] += value[k if simultaneous else t.nodes[b, parent, SEAT]]
            node = parent

    @njit
    def draw_contempt(value, root_seat, contempt):
        """Where ``value`` (per seat) is a draw, every seat's the same: ``contempt`` off the root seat's,
        the same amount shared among the others (the sum is kept); anything else, or no root seat, is
        left as it is."""
        n = value.shape[0]
        if root_seat < 0 or n < 2:
            return
        for s in range(1, n):
            if value[s] != value[0]:
                return
        for s in range(n):
            value[s] += -contempt if s == root_seat else contempt / (n - 1)

    @njit
    def rollout(row, scratch, limit, rng, b, mask, joint, ret, value):
        """Uniformly random decisions from ``row`` (copied into ``scratch``) to the end of the game, or
        to ``limit`` decisions (then 0 for every seat; ``limit`` < 0: no limit); the returns into
        ``value``."""
        scratch[:] = row
        steps = 0
        kk = joint.shape[0]
        while not is_over(scratch):
            if limit >= 0 and steps >= limit:
                value[:] = 0.0
                return
            for k in range(kk):
                legal_mask(scratch, k if simultaneous else scratch[to_move_at], mask)
                joint[k] = pick_legal(mask, rng, b)
            play(scratch, joint)
            steps += 1
        returns(scratch, ret)
        for s in range(value.shape[0]):
            value[s] = ret[s]

    @njit
    def run_rollouts(t, roots, init, simulations, c, limit, rng, done):
        kk = (t.nodes.shape[2] - SEAT_COLUMNS) // PER_SEAT
        seats = t.node_value.shape[2]
        mask = np.zeros(num_actions, dtype=np.bool_)
        if init:
            init_roots(t, roots, rng, mask, kk)
        joint = np.zeros(kk, dtype=np.int64)
        chosen = np.zeros(kk, dtype=np.int64)
        scratch = np.empty_like(t.states[0, 0])
        ret = np.zeros(seats, dtype=np.float32)
        value = np.zeros(seats, dtype=np.float64)
        for b in range(t.states.shape[0]):
            while done[b] < simulations and room(t, b, kk):
                leaf = descend(t, b, c, False, rng, mask, joint, chosen, -1)
                rollout(t.states[b, leaf], scratch, limit, rng, b, mask, joint, ret, value)
                backup(t, b, leaf, value, kk)
                done[b] += 1

    @njit
    def select_leaves(t, roots, init, c, rng, leaves, leaf_states, forced, contempt):
        kk = (t.nodes.shape[2] - SEAT_COLUMNS) // PER_SEAT
        seats = t.node_value.shape[2]
        mask = np.zeros(num_actions, dtype=np.bool_)
        if init:
            init_roots(t, roots, rng, mask, kk)
        joint = np.zeros(kk, dtype=np.int64)
        chosen = np.zeros(kk, dtype=np.int64)
        ret = np.zeros(seats, dtype=np.float32)
        value = np.zeros(seats, dtype=np.float64)
        count = 0
        for b in range(t.states.shape[0]):
            leaf = descend(t, b, c, True, rng, mask, joint, chosen, forced[b])
            if t.nodes[b, leaf, TERMINAL]:
                returns(t.states[b, leaf], ret)
                for s in range(seats):
                    value[s] = ret[s]
                if contempt != 0.0:
                    draw_contempt(value, t.nodes[b, 0, SEAT], contempt)
                backup(t, b, leaf, value, kk)
            else:
                leaves[count, 0] = b
                leaves[count, 1] = leaf
                leaf_states[count, :] = t.states[b, leaf]
                count += 1
        return count

    @njit
    def expand_and_backup(t, leaves, count, priors, values):
        kk = (t.nodes.shape[2] - SEAT_COLUMNS) // PER_SEAT
        value = np.zeros(values.shape[1], dtype=np.float64)
        for i in range(count):
            b = leaves[i, 0]
            leaf = leaves[i, 1]
            nd = t.nodes[b, leaf]
            for k in range(kk):
                first = nd[_col(k, EDGE_START)]
                n = nd[_col(k, EDGE_COUNT)]
                total = 0.0
                for e in range(first, first + n):
                    total += max(priors[i, k, t.edges[b, e, ACTION]], 0.0)
                for e in range(first, first + n):
                    p = max(priors[i, k, t.edges[b, e, ACTION]], 0.0)
                    t.edge_value[b, e, PRIOR] = p / total if total > 0 else 1.0 / n
            nd[EVALUATED] = 1
            value[:] = values[i]
            backup(t, b, leaf, value, kk)

    loops = dict(run_rollouts=run_rollouts, select_leaves=select_leaves, expand_and_backup=expand_and_backup)
    return disk_cached(kernels, "search_joint" if simultaneous else "search_turn", loops)
