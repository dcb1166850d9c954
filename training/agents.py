"""Baseline agents and trained-model agents behind one interface.

An :class:`Agent` chooses an action for ``seat`` in ``state`` (``agent.act(state, seat)``, also
``agent(state, seat)``, so any agent is an opponent policy for :class:`envs.core.single_agent.SingleAgentEnv`).
Agents never modify the state they are given.

* :class:`RandomAgent`: uniform over the legal actions.
* :class:`GreedyAgent`: one-move lookahead: plays a winning move when there is one, otherwise the
  move whose resulting position scores best under the game's heuristic (:data:`HEURISTICS`; games
  without one fall back to "win if possible, never lose at once on my own move, else random").
* :class:`MCTSAgent`: UCT with random rollouts on the engine (``clone()`` + ``apply``), a configurable
  number of simulations; for simultaneous games it runs decoupled UCT (each seat keeps its own
  statistics at a node and picks its action by UCB independently).
* :class:`ModelAgent`: a saved model (MaskablePPO ``.zip`` by default) acting on the observation with
  the legal-action mask.

:func:`make_agent` builds one from a short spec: ``random``, ``greedy``, ``mcts``, ``mcts:400``
(simulations), or the path of a saved model (a ``.zip`` or a ``models/<name>/`` folder).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from envs.core.game import Game, State


class Agent:
    """Chooses an action for a seat. Subclasses implement :meth:`act`."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's random generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, seat: int) -> int:
        raise NotImplementedError

    def __call__(self, state: State, seat: int) -> int:
        return self.act(state, seat)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(Agent):
    """Uniform random legal action."""

    name = "random"

    def act(self, state: State, seat: int) -> int:
        return int(self.rng.choice(np.flatnonzero(state.legal_mask(seat))))


# ----- greedy ---------------------------------------------------------------------------------------


def _dorix_heuristic(state: State, seat: int) -> float:
    """Dorix: how close each side is to topping a long diagonal (own side minus the best other)."""
    info = state.game.info
    side = info.teams[seat]
    sides = sorted(set(info.teams))
    score = 0.0
    for diag in ((0, 5, 10, 15), (12, 9, 6, 3)):
        counts = dict.fromkeys(sides, 0)
        for sq in diag:
            stack = state.stack(sq)
            if stack:
                counts[info.teams[stack[-1]]] += 1
        score += counts[side] ** 2 - max(counts[s] for s in sides if s != side) ** 2
    # Tall own stacks are hard to take over; a small bonus for height under own control.
    for sq in range(16):
        stack = state.stack(sq)
        if stack and info.teams[stack[-1]] == side:
            score += 0.05 * len(stack)
    return score


def _olix_heuristic(state: State, seat: int) -> float:
    """Olix: score columns held (each worth its value), own minus the opponent's."""
    from envs.olix import rules as R

    d = state.data
    score = 0.0
    for t in range(4):
        value = float(d[R.COL_MAX + t])
        mine = bool(d[R.COL_HOLD + 2 * t + seat])
        theirs = bool(d[R.COL_HOLD + 2 * t + 1 - seat])
        score += (1.0 + value / 10.0) * (mine - theirs)
    return score


def _adix_heuristic(state: State, seat: int) -> float:
    """ADIX: material, teammates on the board, own minus the opponent's (captains decide the game)."""
    own_captains, own_mates = state.pieces(seat)
    opp_captains, opp_mates = state.pieces(1 - seat)
    return 5.0 * (own_captains - opp_captains) + (own_mates - opp_mates)


def _lines_of_three(size: int) -> list:
    lines = []
    for r in range(size):
        for f in range(size):
            for dr, df in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, f + k * df) for k in range(3)]
                if all(0 <= rr < size and 0 <= ff < size for rr, ff in cells):
                    lines.append(tuple(rr * size + ff for rr, ff in cells))
    return lines


_BARC_LINES = _lines_of_three(6)


def _barc_heuristic(state: State, seat: int) -> float:
    """Barc duel: stacks topped (a side left with 2 loses) and lines of three being built."""
    owners = [state.owner(sq) for sq in range(36)]
    score = 1.0 * (owners.count(seat) - owners.count(1 - seat))
    for line in _BARC_LINES:
        tops = [owners[sq] for sq in line]
        mine, theirs = tops.count(seat), tops.count(1 - seat)
        if theirs == 0:
            score += 0.1 * mine**2
        if mine == 0:
            score -= 0.1 * theirs**2
    return score


HEURISTICS: dict[str, Callable[[State, int], float]] = {
    "dorix": _dorix_heuristic,
    "olix": _olix_heuristic,
    "adix": _adix_heuristic,
    "barc": _barc_heuristic,
}
"""Per-game position scores for the greedy agent: ``heuristic(state, seat) -> float``, higher is
better for ``seat``. Games not listed use 0 (the greedy agent then only looks for wins)."""


def _after(state: State, seat: int, action: int, others: list | None = None) -> State:
    """The state after ``seat`` plays ``action`` (in a simultaneous game with the other seats' actions
    taken from the joint action ``others``)."""
    child = state.clone()
    if state.game.info.simultaneous:
        joint = list(others)
        joint[seat] = action
        child.apply_joint(joint, check=False)
    else:
        child.apply(action, check=False)
    return child


class GreedyAgent(Agent):
    """One-move lookahead: an immediate win if any, else the best heuristic score (random tie-break).

    In a simultaneous game each own action is scored on average over ``samples`` joint actions of the
    other seats drawn uniformly once per decision (the same draws for every own action)."""

    samples = 4

    name = "greedy"

    def __init__(self, game: Game | None = None, seed: int | None = None, heuristic=None):
        super().__init__(seed)
        self.heuristic = heuristic
        if heuristic is None and game is not None:
            self.heuristic = HEURISTICS.get(game.info.name)

    def act(self, state: State, seat: int) -> int:
        best = self.choices(state, seat)
        if len(best) == 1 and state.legal_mask(seat).sum() == 1:
            return best[0]
        return int(self.rng.choice(best))

    def choices(self, state: State, seat: int) -> list:
        """The actions :meth:`act` chooses from (the best-scoring ones, ties included): the target
        distribution when a policy imitates the greedy agent (``training.pretrain``)."""
        heuristic = self.heuristic or HEURISTICS.get(state.game.info.name)
        actions = np.flatnonzero(state.legal_mask(seat))
        if len(actions) == 1:
            return [int(actions[0])]
        if state.game.info.simultaneous:
            seats = state.current_seats()
            masks = {s: np.flatnonzero(state.legal_mask(s)) for s in seats if s != seat}
            draws = [[int(self.rng.choice(masks[s])) if s in masks else 0 for s in range(state.game.info.num_seats)]
                     for _ in range(self.samples)]
        else:
            draws = [None]
        best, best_value = [], -math.inf
        for a in actions:
            value = 0.0
            for others in draws:
                child = _after(state, seat, int(a), others)
                if child.is_terminal():
                    value += 1000.0 * float(child.returns()[seat])
                else:
                    value += heuristic(child, seat) if heuristic else 0.0
            value /= len(draws)
            if value > best_value + 1e-9:
                best, best_value = [int(a)], value
            elif abs(value - best_value) <= 1e-9:
                best.append(int(a))
        return best


# ----- MCTS ----------------------------------------------------------------------------------------


class _Node:
    __slots__ = ("visits", "value", "children", "untried", "seat", "stats")

    def __init__(self, state: State, rng: np.random.Generator):
        self.visits = 0
        self.value = None  # sum of returns per seat of the playouts through this node
        self.children: dict = {}
        seats = state.current_seats()
        self.seat = seats[0] if len(seats) == 1 else -1
        if state.is_terminal():
            self.untried = []
        elif state.game.info.simultaneous:
            self.untried = None
            # decoupled UCT: per acting seat, visits and summed value of each of its actions
            self.stats = {s: (np.flatnonzero(state.legal_mask(s)), {}) for s in seats}
        else:
            self.untried = list(rng.permutation(np.flatnonzero(state.legal_mask(self.seat))))


class MCTSAgent(Agent):
    """UCT with random rollouts (decoupled UCT for simultaneous games).

    Args:
        simulations: playouts per move.
        c: exploration constant of UCB1 on values in [-1, 1].
        rollout_limit: stop a rollout after this many moves and score it 0 (None: play to the end).
    """

    name = "mcts"

    def __init__(self, simulations: int = 200, c: float = 1.4, rollout_limit: int | None = None,
                 seed: int | None = None):
        super().__init__(seed)
        self.simulations = int(simulations)
        self.c = float(c)
        self.rollout_limit = rollout_limit
        self.name = f"mcts{self.simulations}"

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
        n = state.game.info.num_seats
        if state.is_terminal():
            result = state.returns().astype(np.float64)
        elif state.game.info.simultaneous:
            joint = []
            for s in range(n):
                if s not in node.stats:
                    joint.append(0)
                    continue
                legal, table = node.stats[s]
                untried = [a for a in legal if a not in table]
                if untried:
                    joint.append(int(self.rng.choice(untried)))
                else:
                    joint.append(self._ucb(table, node.visits, lambda v: v))
            key = tuple(joint)
            child = node.children.get(key)
            state.apply_joint(joint, check=False)
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
            state.apply(action, check=False)
            child = _Node(state, self.rng)
            node.children[action] = child
            result = self._rollout(state)
            child.visits += 1
            child.value = result.copy()
        else:
            seat = node.seat
            table = {a: (ch.visits, ch.value[seat]) for a, ch in node.children.items()}
            action = self._ucb(table, node.visits, lambda v: v)
            state.apply(action, check=False)
            child = node.children[action]
            result = self._simulate(child, state)
        node.visits += 1
        node.value = result.copy() if node.value is None else node.value + result
        return result

    def _ucb(self, table: dict, parent_visits: int, _f) -> int:
        log_n = math.log(max(parent_visits, 1))
        best, best_score = None, -math.inf
        for a, (v, w) in table.items():
            score = w / v + self.c * math.sqrt(log_n / v) + 1e-6 * self.rng.random()
            if score > best_score:
                best, best_score = a, score
        return int(best)

    def _rollout(self, state: State) -> np.ndarray:
        rng = self.rng
        steps = 0
        simultaneous = state.game.info.simultaneous
        n = state.game.info.num_seats
        while not state.is_terminal():
            if self.rollout_limit is not None and steps >= self.rollout_limit:
                return np.zeros(n)
            if simultaneous:
                seats = state.current_seats()
                joint = [int(rng.choice(np.flatnonzero(state.legal_mask(s)))) if s in seats else 0 for s in range(n)]
                state.apply_joint(joint, check=False)
            else:
                state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))), check=False)
            steps += 1
        return state.returns().astype(np.float64)


# ----- trained models ------------------------------------------------------------------------------


class PolicyAgent(Agent):
    """Acts with an SB3 policy object: the most probable legal action (``deterministic``) or one drawn
    from the policy's distribution over the legal actions. Works with masked policies (MaskablePPO,
    ``predict(obs, action_masks=...)``) and with policies that do not know the masks (plain PPO...),
    whose probabilities are restricted to the legal actions here."""

    def __init__(self, policy, deterministic: bool = True, name: str = "policy", seed: int | None = None):
        super().__init__(seed)
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self.masked = "action_masks" in inspect.signature(policy.predict).parameters

    def act(self, state: State, seat: int) -> int:
        mask = state.legal_mask(seat)
        obs = state.observation(seat)
        if self.deterministic and self.masked:
            action, _ = self.policy.predict(obs, deterministic=True, action_masks=mask)
            return int(action)
        probs = self._legal_probs(obs, mask)
        if probs.sum() <= 0:
            return int(self.rng.choice(np.flatnonzero(mask)))
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def _legal_probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's action probabilities with the illegal actions set to 0 (not renormalised); a
        draw from them uses the agent's own generator, so seeded matches are reproducible."""
        import torch

        obs_t, _ = self.policy.obs_to_tensor(obs)
        with torch.no_grad():
            if self.masked:
                dist = self.policy.get_distribution(obs_t, action_masks=mask)
            else:
                dist = self.policy.get_distribution(obs_t)
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        return np.where(mask, probs, 0.0)


def model_path(spec: str | Path) -> Path:
    """The ``.zip`` of a saved model given as a file or as a ``models/<name>/`` folder."""
    p = Path(spec)
    if p.is_dir():
        zips = sorted(p.glob("*.zip"))
        if not zips:
            raise FileNotFoundError(f"no .zip model in {p}")
        return zips[0]
    if not p.exists() and p.with_suffix(".zip").exists():
        return p.with_suffix(".zip")
    if not p.exists():
        raise FileNotFoundError(f"no saved model at {p}")
    return p


def load_model(path: Path, algo: str | None = None):
    """The saved model at ``path``, loaded by the algorithm ``algo`` or, when None, by the first of
    :data:`training.algorithms.ALGORITHMS` that can load it (MaskablePPO first)."""
    from training.algorithms import ALGORITHMS, get_algorithm

    if algo is not None:
        return get_algorithm(algo).load(path)
    errors = []
    for name, algorithm in ALGORITHMS.items():
        try:
            return algorithm.load(path)
        except (ValueError, KeyError, TypeError) as e:  # saved by another algorithm
            errors.append(f"{name}: {e}")
    raise ValueError(f"no algorithm could load {path} ({'; '.join(errors)})")


class ModelAgent(PolicyAgent):
    """A saved model loaded from disk (by ``algo``, or by whichever registered algorithm saved it)."""

    def __init__(self, path: str | Path, algo: str | None = None, deterministic: bool = True,
                 name: str | None = None, seed: int | None = None):
        self.path = model_path(path)
        model = load_model(self.path, algo)
        super().__init__(model.policy, deterministic=deterministic, name=name or self.path.parent.name, seed=seed)
        self.model = model


def make_agent(spec, game: Game | None = None, seed: int | None = None) -> Agent:
    """An agent from a spec: ``random``, ``greedy``, ``mcts`` / ``mcts:<simulations>``, a model path,
    ``sample:<model path>`` (the model sampling its policy), or an Agent (returned as is)."""
    if isinstance(spec, Agent):
        return spec
    if callable(spec) and not isinstance(spec, (str, Path)):
        return spec
    text = str(spec)
    kind, _, arg = text.partition(":")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(game, seed)
    if kind == "mcts":
        return MCTSAgent(int(arg) if arg else 200, seed=seed)
    if kind == "sample" and arg:  # a saved model sampling its policy instead of taking the arg-max
        agent = make_agent(arg, game, seed)
        agent.deterministic = False
        agent.name += "-sampled"
        return agent
    if Path(text).exists() or Path(text + ".zip").exists():
        agent = ModelAgent(text, seed=seed)
        if game is not None:
            shape = tuple(agent.policy.observation_space.shape)
            if shape != tuple(game.info.observation_shape):
                raise ValueError(f"model {text} expects observations {shape}, the game gives "
                                 f"{tuple(game.info.observation_shape)} (wrong game or player count?)")
        return agent
    raise ValueError(f"unknown agent {text!r}: use random, greedy, mcts[:N], a saved model's path or sample:<path>")
