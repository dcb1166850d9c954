"""Two-seat zero-sum matrix games: the one-turn games of a simultaneous game's position, their solution by
linear programming (:func:`solve`, scipy's ``linprog``) and how much a mixed strategy loses to its best
reply (:func:`exploitability`); backward induction over a few turns (:func:`subgame_matrix`), a matrix-game
solve at each node.

A payoff matrix ``A`` is seat 0's (the row player's) return, seat 1's being ``-A``; rows are seat 0's legal
orders, columns seat 1's, as :func:`one_turn_matrix` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import linprog

from boardgames.envs.core.game import State

Values = Callable[[list], np.ndarray]
"""``values(states) -> (M,)``: seat 0's value (in [-1, 1]) of each running position (a leaf evaluator)."""


def solve(payoff: np.ndarray) -> tuple:
    """``(value, x, y)``: the value of the zero-sum matrix game ``payoff`` for the row player and an
    equilibrium strategy of each side (maximin ``x`` over rows, minimax ``y`` over columns), by linear
    programming."""
    a = np.asarray(payoff, dtype=np.float64)
    x, value = _maximin(a)
    y, _ = _maximin(-a.T)
    return value, x, y


def _maximin(a: np.ndarray) -> tuple:
    """The row player's maximin strategy of ``a`` and its guaranteed value: max v s.t. x^T a >= v, x a
    distribution."""
    m, n = a.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-a.T, np.ones((n, 1))])  # v - x^T a[:, j] <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"linprog failed: {res.message}")
    x = np.maximum(res.x[:m], 0.0)
    return x / x.sum(), float(res.x[-1])


def exploitability(payoff: np.ndarray, strategy: np.ndarray, seat: int) -> float:
    """How much ``seat``'s mixed ``strategy`` (over its rows for seat 0, columns for seat 1) loses against
    its best reply, compared to the game's value: ``value - min_j x^T A[:, j]`` for seat 0, ``max_i A[i] y -
    value`` for seat 1 (0 for an equilibrium strategy, at most 2 on returns in [-1, 1])."""
    a = np.asarray(payoff, dtype=np.float64)
    value, _, _ = solve(a)
    s = np.asarray(strategy, dtype=np.float64)
    s = s / s.sum()
    if seat == 0:
        return max(0.0, value - float((s @ a).min()))
    return max(0.0, float((a @ s).max()) - value)


def legal_orders(state: State) -> tuple:
    """Each seat's legal orders at ``state`` (two arrays)."""
    return tuple(np.flatnonzero(state.legal_mask(seat)) for seat in (0, 1))


def joint_children(state: State, rows, cols):
    """``(i, j, child)`` for each joint order ``(rows[i], cols[j])``: the position it leads to."""
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            child = state.clone()
            child.apply_actions([int(r), int(c)], check=False)
            yield i, j, child


def one_turn_matrix(state: State, values: Values) -> tuple:
    """``(A, rows, cols)``: seat 0's return after each joint order of one turn (the game's returns where it
    ends, else ``values`` of the position), with the legal orders of seat 0 (``rows``) and seat 1 (``cols``)."""
    rows, cols = legal_orders(state)
    a, children = np.zeros((len(rows), len(cols))), []
    for i, j, child in joint_children(state, rows, cols):
        if child.is_terminal():
            a[i, j] = float(child.returns()[0])
        else:
            children.append((i, j, child))
    if children:
        scores = values([child for _, _, child in children])
        for (i, j, _), v in zip(children, scores):
            a[i, j] = float(v)
    return a, rows, cols


def subgame_matrix(state: State, values: Values, turns: int) -> tuple:
    """:func:`one_turn_matrix` with each running child valued by backward induction over ``turns - 1`` more
    turns (a matrix-game solve at each node; ``values`` only at the depth limit). Returns ``(A, rows, cols,
    exact)``, ``exact`` whether every line of play ended within ``turns`` turns (then ``A`` is exact)."""
    if turns <= 1:
        a, rows, cols = one_turn_matrix(state, values)
        return a, rows, cols, _all_terminal(state, rows, cols)
    rows, cols = legal_orders(state)
    a, exact = np.zeros((len(rows), len(cols))), True
    for i, j, child in joint_children(state, rows, cols):
        if child.is_terminal():
            a[i, j] = float(child.returns()[0])
            continue
        sub, _, _, sub_exact = subgame_matrix(child, values, turns - 1)
        a[i, j] = solve(sub)[0]
        exact = exact and sub_exact
    return a, rows, cols, exact


def _all_terminal(state: State, rows, cols) -> bool:
    """Whether every joint order of ``state`` ends the game."""
    return all(child.is_terminal() for _, _, child in joint_children(state, rows, cols))
