"""Hannan-consistent selection for one seat at one simultaneous node: regret matching and Exp3 (Lisý,
Kovařík, Lanctot, Bošanský, NeurIPS 2013; Lanctot, Lisý, Winands 2014), over the statistics of the seat's
actions at the node: ``stat`` (regret matching: the summed regrets; Exp3: the summed importance-weighted
rewards), ``prior`` (sums to 1) and ``strategy_sum``, each a 1-D array, one entry per action.

The seat's *current* strategy ``w`` is regret matching's (the positive regrets, normalised; the prior where
no regret is positive) or Exp3's (a softmax of ``eta * stat``, ``eta = gamma / n``). The seat plays
``sigma = (1 - gamma) * w + gamma / n``: the uniform exploration the convergence results require. After
the simulation, with reward ``v`` (in [-1, 1]) for the action ``c`` it played, :func:`update` adds ``w``
to ``strategy_sum`` (the *average* strategy, exploration excluded, is what the search returns) and learns:
regret matching adds ``x_j - v`` to each regret, ``x`` the importance-sampled reward vector (``v / sigma_c``
at ``c``, 0 elsewhere: an unbiased estimate of each action's reward); Exp3 adds ``(v + 1) / 2 / sigma_c``
to ``stat[c]`` (rewards in [0, 1]).

Regret matching in the search learns on *estimated* rewards (:func:`update_estimated`): every action's
reward against the others' sampled orders, read from the tree (the mean value of each joint child), rather
than the one sampled reward importance-weighted; the sampled form (:func:`update`) is kept for Exp3. The
estimates are far less noisy (no division by a small probability), so the average strategy settles in
thousands of simulations instead of hundreds of thousands at 30 orders a side.

Used by the engines' search (``select_regret``, ``learn``) on slices of the tree's edge arrays and by the
tests on plain matrix games.
"""

from __future__ import annotations

import math

from numba import njit

from boardgames.envs.compiled.tree_layout import RULE_REGRET


@njit(cache=True)
def strategy_norm(stat, rule, gamma):
    """``(total, top)``, what the current strategy is normalised by: regret matching's sum of the positive
    regrets (top 0); Exp3's largest ``stat`` and the sum of ``exp(eta * (stat - top))``."""
    n = stat.shape[0]
    total = 0.0
    if rule == RULE_REGRET:
        for j in range(n):
            if stat[j] > 0.0:
                total += stat[j]
        return total, 0.0
    top = stat[0]
    for j in range(1, n):
        top = max(top, stat[j])
    eta = gamma / n
    for j in range(n):
        total += math.exp(eta * (stat[j] - top))
    return total, top


@njit(cache=True)
def current_weight(stat, prior, j, rule, gamma, total, top):
    """The current strategy's weight on action ``j``, exploration excluded (``total``, ``top``: from
    :func:`strategy_norm`)."""
    if rule == RULE_REGRET:
        if total > 0.0:
            return max(stat[j], 0.0) / total
        return prior[j]
    return math.exp(gamma / stat.shape[0] * (stat[j] - top)) / total


@njit(cache=True)
def played_weight(stat, prior, j, rule, gamma, total, top):
    """The probability that the seat plays action ``j``: the current strategy mixed with ``gamma`` uniform."""
    return (1.0 - gamma) * current_weight(stat, prior, j, rule, gamma, total, top) + gamma / stat.shape[0]


@njit(cache=True)
def sample_action(stat, prior, rule, gamma, u):
    """The action drawn from the played strategy with ``u``, uniform in [0, 1)."""
    total, top = strategy_norm(stat, rule, gamma)
    acc = 0.0
    n = stat.shape[0]
    for j in range(n):
        acc += played_weight(stat, prior, j, rule, gamma, total, top)
        if u < acc:
            return j
    return n - 1


@njit(cache=True)
def update(stat, prior, strategy_sum, chosen, reward, rule, gamma):
    """After a simulation in which the seat played ``chosen`` and got ``reward``: the current strategy
    into ``strategy_sum``, then regret matching's or Exp3's learning step (see the module docstring)."""
    total, top = strategy_norm(stat, rule, gamma)
    n = stat.shape[0]
    for j in range(n):
        strategy_sum[j] += current_weight(stat, prior, j, rule, gamma, total, top)
    p = played_weight(stat, prior, chosen, rule, gamma, total, top)
    if rule == RULE_REGRET:
        for j in range(n):
            stat[j] -= reward
        stat[chosen] += reward / p
    else:
        stat[chosen] += 0.5 * (reward + 1.0) / p


@njit(cache=True)
def on_policy_ratio(stat, prior, j, gamma):
    """Regret matching's current strategy over its played strategy at action ``j``: the weight that makes a
    sample of the played (exploring) strategy count as one of the current strategy."""
    total, top = strategy_norm(stat, RULE_REGRET, gamma)
    return current_weight(stat, prior, j, RULE_REGRET, gamma, total, top) / played_weight(
        stat, prior, j, RULE_REGRET, gamma, total, top
    )


@njit(cache=True)
def update_estimated(stat, prior, strategy_sum, estimate, gamma, weight, age):
    """Regret matching's learning step on estimated rewards: ``estimate[j]``, the reward the seat would have
        got with action ``j`` against the others' orders of this simulation (the tree's mean value of the joint
        child), for every ``j``: the current strategy into ``strategy_sum`` times ``age`` (the node's visits:
    linear averaging, which forgets the first, nearly uniform, strategies faster), then ``weight`` times
        ``estimate[j]`` minus the current strategy's expected reward added to each regret. ``weight``, the
        others' :func:`on_policy_ratio` (multiplied), makes the regrets those against the others' current
        strategies: without it each seat would learn to answer the others' exploration too."""
    total, top = strategy_norm(stat, RULE_REGRET, gamma)
    n = stat.shape[0]
    expected = 0.0
    for j in range(n):
        w = current_weight(stat, prior, j, RULE_REGRET, gamma, total, top)
        strategy_sum[j] += age * w
        expected += w * estimate[j]
    for j in range(n):
        stat[j] += weight * (estimate[j] - expected)
