"""The MCTS agents: UCT with random rollouts.

* :class:`MCTSAgent` (the ``mcts:N`` baseline): the compiled search of :mod:`boardgames.envs.search` over the
  game's numba kernels, far faster; it falls back to the Python search for a game whose states are not
  kernel arrays.
* :class:`PythonMCTSAgent` (``pymcts:N``): the same search in Python on the engine (``clone()`` +
  ``apply_actions``), for any :class:`State`; the reference the compiled search is tested against.

Simultaneous games run decoupled UCT: at a node each acting seat keeps its own statistics per action
and picks its action by UCB independently; the children are keyed by the joint action.
"""

from __future__ import annotations

import math

import numpy as np

from boardgames.envs.agents.base import Agent
from boardgames.envs.core.game import State


class _Node:
    __slots__ = ("visits", "value", "children", "untried", "seat", "stats")

    def __init__(self, state: State, rng: np.random.Generator):
        self.visits = 0
        self.value: np.ndarray | None = None  # sum of returns per seat of the playouts through this node
        self.children: dict = {}
        seats = state.current_seats()
        self.seat = seats[0] if len(seats) == 1 else -1
        self.untried: list[int] | None
        self.stats: dict[int, tuple[np.ndarray, dict]]
        if state.is_terminal():
            self.untried = []
        elif state.game.info.simultaneous:
            self.untried = None
            # decoupled UCT: per acting seat, its legal actions and {action: (visits, summed value)}
            self.stats = {s: (np.flatnonzero(state.legal_mask(s)), {}) for s in seats}
        else:
            self.untried = list(rng.permutation(np.flatnonzero(state.legal_mask(self.seat))))


class PythonMCTSAgent(Agent):
    """UCT with random rollouts (decoupled UCT for simultaneous games), in Python over any State.

    Args:
        simulations: playouts per move.
        c: exploration constant of UCB1 on values in [-1, 1].
        rollout_limit: stop a rollout after this many moves and score it 0 (None: play to the end).
        seed: seeds the search.
    """

    name = "pymcts"

    def __init__(
        self, simulations: int = 200, c: float = 1.4, rollout_limit: int | None = None, seed: int | None = None
    ):
        super().__init__(seed)
        self.simulations = int(simulations)
        self.c = float(c)
        self.rollout_limit = rollout_limit
        self.name = f"{type(self).name}{self.simulations}"

    def act(self, state: State, seat: int) -> int:
        actions = np.flatnonzero(state.legal_mask(seat))
        if len(actions) == 1:
            return int(actions[0])
        root = _Node(state, self.rng)
        for _ in range(self.simulations):
            self._simulate(root, state.clone())
        if state.game.info.simultaneous:
            _, table = root.stats[seat]
            return int(max(table, key=lambda a: table[a][0]))
        return int(max(root.children, key=lambda a: root.children[a].visits))

    def _simulate(self, node: _Node, state: State) -> np.ndarray:
        """One playout from ``node`` (whose position ``state`` is, modified in place); returns its
        result per seat after adding it to the statistics along the path."""
        if state.is_terminal():
            result = state.returns().astype(np.float64)
        elif state.game.info.simultaneous:
            joint = []
            for s in range(state.game.info.num_seats):
                if s not in node.stats:
                    joint.append(0)
                    continue
                legal, table = node.stats[s]
                untried = [a for a in legal if a not in table]
                if untried:
                    joint.append(int(self.rng.choice(untried)))
                else:
                    joint.append(self._ucb(table, node.visits))
            key = tuple(joint)
            child = node.children.get(key)
            state.apply_actions(joint, check=False)
            if child is None:
                node.children[key] = _Node(state, self.rng)
                result = self._rollout(state)
            else:
                result = self._simulate(child, state)
            for s in node.stats:
                _, table = node.stats[s]
                v, w = table.get(joint[s], (0, 0.0))
                table[joint[s]] = (v + 1, w + result[s])
        elif node.untried:
            action = int(node.untried.pop())
            state.apply_actions({node.seat: action}, check=False)
            child = _Node(state, self.rng)
            node.children[action] = child
            result = self._rollout(state)
            child.visits += 1
            child.value = result.copy()
        else:
            seat = node.seat
            table = {a: (ch.visits, ch.value[seat]) for a, ch in node.children.items()}
            action = self._ucb(table, node.visits)
            state.apply_actions({seat: action}, check=False)
            child = node.children[action]
            result = self._simulate(child, state)
        node.visits += 1
        node.value = result.copy() if node.value is None else node.value + result
        return result

    def _ucb(self, table: dict, parent_visits: int) -> int:
        """The action of ``table`` ({action: (visits, summed value)}) with the best UCB1 score (a tiny
        random term breaks ties)."""
        log_n = math.log(max(parent_visits, 1))
        best, best_score = -1, -math.inf
        for a, (v, w) in table.items():
            score = w / v + self.c * math.sqrt(log_n / v) + 1e-6 * self.rng.random()
            if score > best_score:
                best, best_score = a, score
        if best < 0:
            raise ValueError("no action to choose from")
        return int(best)

    def _rollout(self, state: State) -> np.ndarray:
        """Uniformly random decisions to the end (or to ``rollout_limit``, scored 0); the returns."""
        return random_playout(state, self.rng, self.rollout_limit)


def random_playout(state: State, rng: np.random.Generator, limit: int | None = None) -> np.ndarray:
    """Uniformly random decisions from ``state`` (modified in place) to the end, or to ``limit`` decisions
    (then 0 for every seat); the returns per seat."""
    steps = 0
    seats = state.current_seats()  # empty once the game is over
    while seats:
        if limit is not None and steps >= limit:
            return np.zeros(state.game.info.num_seats)
        state.apply_actions({s: int(rng.choice(np.flatnonzero(state.legal_mask(s)))) for s in seats}, check=False)
        steps += 1
        seats = state.current_seats()
    return state.returns().astype(np.float64)


class MCTSAgent(PythonMCTSAgent):
    """UCT with random rollouts (decoupled UCT for simultaneous games), compiled: the search of
    :class:`boardgames.envs.search.MCTS` on the game's kernels, with the arguments of :class:`PythonMCTSAgent`
    and the same choice (the most visited action; ties broken at random). A game whose states are not
    kernel arrays gets the Python search. Each move's search is seeded from the agent's generator, so
    a seeded agent plays the same moves again."""

    name = "mcts"

    def __init__(
        self, simulations: int = 200, c: float = 1.4, rollout_limit: int | None = None, seed: int | None = None
    ):
        super().__init__(simulations, c, rollout_limit, seed)
        self._searches: dict = {}

    def _search(self, game):
        """The compiled search for ``game`` (kept per game kernels and seat count), None when it has none."""
        from boardgames.envs.compiled.turns import compiled_kernels
        from boardgames.envs.search import MCTS

        kernels = compiled_kernels(game)
        if kernels is None:
            return None
        key = (kernels, game.info.num_seats)
        if key not in self._searches:
            self._searches[key] = MCTS(game, self.c, self.rollout_limit)
        return self._searches[key]

    def act(self, state: State, seat: int) -> int:
        search = self._search(state.game)
        if search is None:
            return super().act(state, seat)
        actions = np.flatnonzero(state.legal_mask(seat))
        if len(actions) == 1:
            return int(actions[0])
        counts = search.visit_counts(state, self.simulations, seed=int(self.rng.integers(2**63)))
        row = counts[seat if search.simultaneous else 0]
        self._last_search = (state.data.tobytes(), seat, row.copy())
        best = np.flatnonzero(row == row.max())
        return int(best[0] if len(best) == 1 else self.rng.choice(best))

    def explain(self, state: State, seat: int) -> dict:
        """``{action: share of the root visits}`` of ``seat``'s search in ``state`` (what the move was
        chosen from): the last :meth:`act`'s search when it was for this position and seat, else a search
        of its own, seeded apart (the agent's generator, hence its next moves, is left as it was). Empty for
        a game without the compiled search."""
        actions = np.flatnonzero(state.legal_mask(seat))
        if len(actions) == 1:
            return {int(actions[0]): 1.0}
        last = getattr(self, "_last_search", None)
        if last is not None and last[0] == state.data.tobytes() and last[1] == seat:
            row = last[2]
        else:
            search = self._search(state.game)
            if search is None or not len(actions):
                return {}
            row = search.visit_counts(state, self.simulations, seed=0)[seat if search.simultaneous else 0]
        total = float(row.sum())
        return {int(a): float(row[a]) / total for a in np.flatnonzero(row)} if total > 0 else {}
