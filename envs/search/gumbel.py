"""Gumbel root selection (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022),
as DeepMind's ``mctx.gumbel_muzero_policy`` does it, for :meth:`boardgames.envs.search.EvaluatorSearch.run_gumbel`.

At the root, each legal action ``a`` gets a Gumbel draw ``g(a)``; simulation ``i`` visits the action
that maximises ``g(a) + logit(a) + sigma(q(a))`` among those whose visit count equals the ``i``-th entry
of a sequential-halving schedule (:func:`considered_visits`): first the ``m`` best actions by
``g + logit`` once each, then the better half of them more, and so on. Below the root the search is
the usual PUCT. The move played is the best remaining action; the policy target is
``softmax(logit + sigma(completed q))``, which improves on the prior even with a handful of simulations
(completed q: the mean value of a visited action, a mix of the root's value and the visited actions'
for the others; sigma: min-max rescaled to [0, 1], times ``(c_visit + max visits) * c_scale``).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np


@cache
def considered_visits(max_considered: int, simulations: int) -> tuple:
    """The visit count the root action of each simulation must have (mctx's
    ``get_sequence_of_considered_visits``): sequential halving over ``max_considered`` actions."""
    if max_considered <= 1:
        return tuple(range(simulations))
    log2max = int(math.ceil(math.log2(max_considered)))
    sequence: list[int] = []
    visits, considered = [0] * max_considered, max_considered
    while len(sequence) < simulations:
        extra = max(1, int(simulations / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


def completed_q(q: np.ndarray, visits: np.ndarray, prior: np.ndarray, raw_value: float, c_visit: float, c_scale: float):
    """sigma(completed q) of one root's actions (see the module docstring; mctx's
    ``qtransform_completed_by_mix_value`` with its defaults)."""
    seen = visits > 0
    total = visits.sum()
    if seen.any():
        p = np.maximum(prior, np.finfo(np.float64).tiny)
        weighted = (p[seen] * q[seen]).sum() / p[seen].sum()
        mixed = (raw_value + total * weighted) / (total + 1)
    else:
        mixed = raw_value
    done = np.where(seen, q, mixed)
    low, high = done.min(), done.max()
    done = (done - low) / max(high - low, 1e-8)
    return (c_visit + visits.max()) * c_scale * done


class GumbelRoot:
    """The root state of one Gumbel search: its actions, logits, Gumbel draws and raw value."""

    def __init__(self, actions: np.ndarray, prior: np.ndarray, raw_value: float, max_considered: int, rng):
        self.actions = actions
        self.prior = prior
        self.logits = np.log(np.maximum(prior, 1e-30))
        self.logits -= self.logits.max()
        self.gumbel = rng.gumbel(size=len(actions))
        self.raw_value = float(raw_value)
        self.considered = min(max_considered, len(actions))

    def choose(self, simulation: int, simulations: int, q, visits, c_visit, c_scale) -> int:
        """The index (among the root's actions) that simulation ``simulation`` (0-based) visits."""
        target = considered_visits(self.considered, simulations)[simulation]
        return self._best(target, q, visits, c_visit, c_scale)

    def _best(self, target: int, q, visits, c_visit, c_scale) -> int:
        score = self.gumbel + self.logits + completed_q(q, visits, self.prior, self.raw_value, c_visit, c_scale)
        score = np.maximum(score, -1e9) + np.where(visits == target, 0.0, -np.inf)
        return int(np.argmax(score))

    def action(self, q, visits, c_visit, c_scale) -> int:
        """The index of the move to play: the best of the most visited actions."""
        return self._best(int(visits.max()), q, visits, c_visit, c_scale)

    def policy(self, q, visits, c_visit, c_scale) -> np.ndarray:
        """The improved policy over the root's actions: softmax(logits + sigma(completed q))."""
        z = self.logits + completed_q(q, visits, self.prior, self.raw_value, c_visit, c_scale)
        z = np.exp(z - z.max())
        return z / z.sum()
