"""Simultaneous-move MCTS agents: regret matching (or Exp3) at every node, the order sampled from the root's
*average* strategy (Lisý et al. 2013, Lanctot, Lisý, Winands 2014: with a Hannan-consistent selection the
average strategy converges to a Nash equilibrium; decoupled UCT's most visited action does not, and a
deterministic agent is beaten by whoever predicts it).

* :class:`SMMCTSAgent` (``smmcts:N``): the compiled search (:class:`boardgames.envs.search.MCTS` or, with a
  leaf evaluator, :class:`boardgames.envs.search.EvaluatorSearch`, under ``rule="regret"`` or ``"exp3"``).
* :class:`PythonSMMCTSAgent` (``pysmmcts:N``): the same rule in Python over any simultaneous :class:`State`,
  with random rollouts: the reference the compiled search is tested against.

Leaf values: one random rollout (the default), or the game's heuristic (``leaf="heuristic"``:
:func:`heuristic_evaluator`, ``tanh(score / 2)`` per seat), or any evaluator of the evaluator search
(a value network: :mod:`boardgames.training.alphazero.agent`).
"""

from __future__ import annotations

import math

import numpy as np

from boardgames.envs.agents.base import Agent
from boardgames.envs.agents.mcts import random_playout
from boardgames.envs.core.game import Game, State
from boardgames.envs.core.kernel_state import KernelGame

SM_RULES = ("regret", "exp3")
DEFAULT_GAMMA = 0.3
"""Uniform exploration share of the played strategy (regret matching, Exp3)."""
LEAVES = ("rollout", "heuristic")


def heuristic_evaluator(game: Game, scale: float = 2.0):
    """An evaluator (:data:`boardgames.envs.search.search.Evaluator`) from the game's heuristic: uniform
    priors and, for each seat, ``tanh(heuristic(state, seat) / scale)``."""
    heuristic = getattr(game, "heuristic", None)
    if heuristic is None or not isinstance(game, KernelGame):
        raise ValueError(f"{game.info.name} has no heuristic to value leaves with")
    info = game.info
    if compiled_leaf_values(game) and getattr(game.state_class.rules, "LEAF_SCALE", None) == scale:
        return _compiled_evaluator(game)

    def evaluate(states: np.ndarray, seats: np.ndarray) -> tuple:
        values = np.zeros((len(states), info.num_seats))
        for i, row in enumerate(states):
            state = game.state_class(game, row.copy())
            for s in range(info.num_seats):
                values[i, s] = math.tanh(heuristic(state, s) / scale)
        return np.ones((len(states), info.acting_seats, info.num_actions)), values

    return evaluate


def _compiled_evaluator(game: Game):
    """:func:`heuristic_evaluator` through the rules' compiled ``leaf_values`` (the same values)."""
    from boardgames.envs.compiled.turns import compiled_kernels

    info = game.info
    kernels = compiled_kernels(game)
    assert kernels is not None and kernels.leaf_values is not None
    leaf_values = kernels.leaf_values

    def evaluate(states: np.ndarray, seats: np.ndarray) -> tuple:
        values = np.zeros((len(states), info.num_seats))
        for i, row in enumerate(states):
            leaf_values(row, values[i])
        return np.ones((len(states), info.acting_seats, info.num_actions)), values

    return evaluate


def compiled_leaf_values(game: Game) -> bool:
    """Whether ``game``'s rules value positions in a compiled kernel (``leaf_values``) that is the same as
    :func:`heuristic_evaluator`'s values, so that a search can value its leaves without leaving the
    compiled loop (Barc's rules do)."""
    from boardgames.envs.compiled.turns import compiled_kernels

    kernels = compiled_kernels(game)
    return kernels is not None and kernels.leaf_values is not None


def sharpened(strategy: np.ndarray, temperature: float) -> np.ndarray:
    """``strategy`` at ``temperature``: each weight raised to ``1 / temperature``, renormalised (AlphaZero's
    move temperature): 1 leaves it as it is, below 1 moves weight towards the most likely actions and keeps
    the others in play, still mixed; the support is unchanged."""
    if temperature == 1.0:
        return strategy
    weights = (strategy / strategy.max()) ** (1.0 / temperature)
    return weights / weights.sum()


def pick_from(strategy: np.ndarray, most_likely: bool, rng: np.random.Generator) -> int:
    """An action drawn from ``strategy`` (its most likely one with ``most_likely``; ties: the lowest)."""
    if most_likely:
        return int(np.argmax(strategy))
    return int(rng.choice(strategy.shape[0], p=strategy / strategy.sum()))


class _SearchOptions(Agent):
    """The options both agents share, checked: ``simulations`` a move, the ``rule``, its ``gamma``,
    whether to play the most likely order rather than sample one, and the ``temperature`` an order is
    sampled at (:func:`sharpened`)."""

    def __init__(
        self,
        simulations: int = 400,
        rule: str = "regret",
        gamma: float = DEFAULT_GAMMA,
        most_likely: bool = False,
        seed: int | None = None,
        temperature: float = 1.0,
    ):
        super().__init__(seed)
        self.simulations = int(simulations)
        if self.simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        if rule not in SM_RULES:
            raise ValueError(f"unknown rule {rule!r}: use {' or '.join(SM_RULES)}")
        self.gamma = float(gamma)
        if not 0.0 < self.gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], got {gamma}")
        self.rule, self.most_likely = rule, bool(most_likely)
        self.temperature = float(temperature)
        if not 0.0 < self.temperature <= 1.0:
            raise ValueError(f"temperature must be in (0, 1], got {temperature}")
        self.deterministic = self.most_likely
        self.name = f"{type(self).name}{self.simulations}"

    def _check(self, state: State) -> None:
        if not state.game.info.simultaneous:
            raise ValueError(f"{self.name}: simultaneous-move search needs a game whose seats act at once")


class SMMCTSAgent(_SearchOptions):
    """Simultaneous-move MCTS, compiled: regret matching (``rule="regret"``) or Exp3 with ``gamma`` uniform
    exploration at every node, leaves valued by a random rollout (``leaf="rollout"``), the game's heuristic
    (``"heuristic"``) or an evaluator (a callable, see :class:`boardgames.envs.search.EvaluatorSearch`); plays
    an order drawn from its seat's average strategy at the root, at ``temperature`` (:func:`sharpened`;
    ``most_likely``: the most likely order). Each move's search is seeded from the agent's generator;
    ``last_strategy`` is the strategy the last order was drawn from."""

    name = "smmcts"

    def __init__(
        self,
        simulations: int = 1600,
        rule: str = "regret",
        gamma: float = DEFAULT_GAMMA,
        leaf="rollout",
        most_likely: bool = False,
        seed: int | None = None,
        temperature: float = 1.0,
    ):
        super().__init__(simulations, rule, gamma, most_likely, seed, temperature)
        if not callable(leaf) and leaf not in LEAVES:
            raise ValueError(f"unknown leaf evaluation {leaf!r}: use {', '.join(LEAVES)} or an evaluator")
        self.leaf = leaf
        self._searches: dict = {}
        self.last_strategy: np.ndarray | None = None

    def search(self, game: Game):
        """The compiled search for ``game`` (kept per game)."""
        from boardgames.envs.search import MCTS, EvaluatorSearch

        if game not in self._searches:
            if self.leaf == "rollout":
                self._searches[game] = MCTS(game, self.gamma, rule=self.rule)
            elif self.leaf == "heuristic" and compiled_leaf_values(game):
                self._searches[game] = MCTS(game, self.gamma, rollout_limit=0, rule=self.rule, leaf_values=True)
            else:
                evaluator = heuristic_evaluator(game) if self.leaf == "heuristic" else self.leaf
                self._searches[game] = EvaluatorSearch(game, evaluator, c=self.gamma, rule=self.rule)
        return self._searches[game]

    def strategies(self, state: State, seed=None) -> np.ndarray:
        """``(K, NUM_ACTIONS)``: every acting seat's average strategy at the root of one search from ``state``."""
        self._check(state)
        return self.search(state.game).run(state, self.simulations, seed=seed).strategies[0]

    def act(self, state: State, seat: int) -> int:
        self._check(state)
        strategy = sharpened(self.strategies(state, seed=int(self.rng.integers(2**63)))[seat], self.temperature)
        self.last_strategy = strategy
        return pick_from(strategy, self.most_likely, self.rng)

    def explain(self, state: State, seat: int) -> dict:
        """``{action: weight}`` of the strategy ``seat`` draws its order from in ``state`` (the average
        strategy at the agent's temperature; a search seeded apart)."""
        strategy = sharpened(self.strategies(state, seed=0)[seat], self.temperature)
        return {int(a): float(strategy[a]) for a in np.flatnonzero(strategy)}


class _SeatStats:
    """One seat's statistics at one node of the Python search: its legal actions, regrets (Exp3: summed
    importance-weighted rewards), summed current strategies, and each action's visits and summed value."""

    __slots__ = ("legal", "regret", "strategy_sum", "visits", "value")

    def __init__(self, legal: np.ndarray):
        self.legal = legal
        self.regret, self.strategy_sum = np.zeros(len(legal)), np.zeros(len(legal))
        self.visits, self.value = np.zeros(len(legal)), np.zeros(len(legal))

    def current(self, rule: str, gamma: float) -> np.ndarray:
        """The current strategy, exploration excluded."""
        n = len(self.legal)
        if rule == "regret":
            positive = np.maximum(self.regret, 0.0)
            return positive / positive.sum() if positive.sum() > 0 else np.full(n, 1.0 / n)
        weights = np.exp(gamma / n * (self.regret - self.regret.max()))
        return weights / weights.sum()

    def ratio(self, j: int, gamma: float) -> float:
        """Regret matching's current over played probability of ``legal[j]``."""
        current = self.current("regret", gamma)[j]
        return current / ((1 - gamma) * current + gamma / len(self.legal))

    def learn(
        self, j: int, reward: float, estimate: np.ndarray | None, weight: float, age: float, rule: str, gamma: float
    ):
        """After playing ``legal[j]`` for ``reward``: the current strategy summed (regret matching: times
        ``age``, the node's visits, linear averaging), then regret matching on
        ``estimate`` (every action's estimated reward, the step times ``weight``: the others' current over
        played probabilities) or Exp3 on the sampled reward."""
        current = self.current(rule, gamma)
        self.strategy_sum += current * (age if rule == "regret" else 1.0)
        if rule == "regret":
            self.regret += weight * (estimate - current @ estimate)
        else:
            self.regret[j] += 0.5 * (reward + 1) / ((1 - gamma) * current[j] + gamma / len(self.legal))


class _SMNode:
    __slots__ = ("children", "stats", "visits", "value")

    def __init__(self, state: State):
        self.children: dict = {}
        self.stats = {s: _SeatStats(np.flatnonzero(state.legal_mask(s))) for s in state.current_seats()}
        self.visits, self.value = 0, np.zeros(state.game.info.num_seats)

    def mean(self, seat: int, default: float) -> float:
        """The mean value for ``seat`` of the simulations through this node, ``default`` before any."""
        return self.value[seat] / self.visits if self.visits else default

    def estimate(self, seat: int, joint: tuple) -> np.ndarray:
        """``seat``'s estimated reward for each of its actions against the others' orders in ``joint``: the
        joint child's mean value where it is in the tree, else the action's own mean, else the node's."""
        stats = self.stats[seat]
        base = self.mean(seat, 0.0)
        out = np.where(stats.visits > 0, stats.value / np.maximum(stats.visits, 1), base)
        for j, action in enumerate(stats.legal):
            child = self.children.get(joint[:seat] + (int(action),) + joint[seat + 1 :])
            if child is not None and child.visits:
                out[j] = child.mean(seat, 0.0)
        return out


class PythonSMMCTSAgent(_SearchOptions):
    """Simultaneous-move MCTS in Python over any simultaneous State (``clone()`` + ``apply_actions``), random
    rollouts: the rule of :class:`SMMCTSAgent`, written apart from the compiled one to test it."""

    name = "pysmmcts"

    def strategies(self, state: State) -> dict:
        """``{seat: average strategy over NUM_ACTIONS}`` at the root of one search from ``state``."""
        self._check(state)
        root = _SMNode(state)
        for _ in range(self.simulations):
            self._simulate(root, state.clone())
        out = {}
        for seat, stats in root.stats.items():
            strategy = np.zeros(state.game.info.num_actions)
            strategy[stats.legal] = stats.strategy_sum / max(stats.strategy_sum.sum(), 1e-300)
            out[seat] = strategy
        return out

    def act(self, state: State, seat: int) -> int:
        return pick_from(sharpened(self.strategies(state)[seat], self.temperature), self.most_likely, self.rng)

    def _simulate(self, node: _SMNode, state: State) -> np.ndarray:
        """One simulation from ``node`` (whose position ``state`` is, modified in place); its result per seat,
        added to the statistics on the way back."""
        if state.is_terminal():
            result = state.returns().astype(np.float64)
        else:
            result = self._descend(node, state)
        node.visits += 1
        node.value += result
        return result

    def _descend(self, node: _SMNode, state: State) -> np.ndarray:
        """Each seat's order drawn from its played strategy, the joint child (a new one valued by a random
        rollout), then every seat learns."""
        picks, joint = {}, [0] * state.game.info.num_seats
        for seat, stats in node.stats.items():
            n = len(stats.legal)
            played = (1 - self.gamma) * stats.current(self.rule, self.gamma) + self.gamma / n
            picks[seat] = int(self.rng.choice(n, p=played / played.sum()))
            joint[seat] = int(stats.legal[picks[seat]])
        key = tuple(joint)
        state.apply_actions(joint, check=False)
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = _SMNode(state)
            result = random_playout(state, self.rng)
            child.visits, child.value = 1, result.copy()
        else:
            result = self._simulate(child, state)
        for seat, stats in node.stats.items():
            stats.visits[picks[seat]] += 1
            stats.value[picks[seat]] += result[seat]
        regret = self.rule == "regret"
        ratios = {seat: stats.ratio(picks[seat], self.gamma) if regret else 1.0 for seat, stats in node.stats.items()}
        for seat, stats in node.stats.items():
            weight = float(np.prod([r for s, r in ratios.items() if s != seat]))
            estimate = node.estimate(seat, key) if regret else None
            stats.learn(picks[seat], float(result[seat]), estimate, weight, node.visits + 1.0, self.rule, self.gamma)
        return result
