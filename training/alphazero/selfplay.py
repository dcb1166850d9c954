"""Self-play with the compiled search: many games in lock step, one batched search per decision.

``parallel`` games run side by side; at each step one :class:`boardgames.envs.search.EvaluatorSearch` call
searches every running game's position together (its leaves go through the network in one batch per
simulation), with Dirichlet noise at the roots. Each acting seat then plays an action drawn in
proportion to its root visit counts for the first ``temperature_moves`` decisions of a game, the most
visited one afterwards. With ``rule = "regret"`` (or ``"exp3"``; games whose seats act at once) each node
learns a mixed strategy per seat (:mod:`boardgames.envs.compiled.regret`): the policy target is the seat's
*average* strategy at the root (``SearchResult.policy``) and its order is always drawn from it, the mixed
strategy the game asks for (a most visited order would be predictable: issue 47). With ``gumbel``
(turn-based games) the search is
:meth:`boardgames.envs.search.EvaluatorSearch.run_gumbel` instead: its Gumbel draws do the exploring (no
Dirichlet noise, no temperature), the move is the one it selects and the policy target its improved
policy. A finished game is replaced by a new one at once, so the batch stays full.

Every decision gives one sample per acting seat: the seat's observation, its root visit shares (the
policy target) and, once the game is over, the game's returns in that seat's frame (the value target).
A game cut at its turn limit has no result: with ``truncated_value = "zero"`` its samples' value target is
0 for every seat (a draw), with ``"search"`` each sample's own search's root value (in that seat's frame),
which keeps a long game the network or the search judged won from teaching that long games are draws.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames.envs.core.game import Game
from boardgames.envs.search import EvaluatorSearch
from boardgames.envs.search.search import SIMULTANEOUS_RULES
from boardgames.training.alphazero.evaluator import NetworkEvaluator, relative_values


@dataclass
class SearchSettings:
    """How self-play searches and picks its moves."""

    simulations: int = 64
    c: float = 1.25
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    temperature_moves: int = 12
    gumbel: bool = False  # Gumbel root selection (turn-based games): its move and improved policy
    rule: str = "puct"  # or "regret" / "exp3" (simultaneous games): average strategies as targets and moves
    gamma: float = 0.3  # the uniform exploration share of regret matching and Exp3
    max_considered: int = 16
    truncated_value: str = "zero"  # a cut game's value targets: "zero" or "search" (the module docstring)

    @classmethod
    def of(cls, settings) -> SearchSettings:
        """How self-play searches, from a run's :class:`~boardgames.training.alphazero.settings.AlphaZeroSettings`."""
        return cls(**{f: getattr(settings, f) for f in cls.__dataclass_fields__})


@dataclass
class SelfPlayBatch:
    """What :func:`self_play` returns: the samples and a summary of the games."""

    obs: np.ndarray  # (N, H, W, C) float32
    policies: np.ndarray  # (N, num_actions) float32 visit shares
    values: np.ndarray  # (N, seats) float32 returns in the observer's frame
    seats: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))  # (N,) each sample's observer
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    outcomes: dict = field(default_factory=dict)  # "seat k wins" / "draw" / "truncated" -> count
    lengths: list = field(default_factory=list)


def search_for(game: Game, evaluator, settings) -> EvaluatorSearch:
    """The evaluator search of ``settings`` (a :class:`SearchSettings` or a run's settings): PUCT with its
    ``c``, or regret matching / Exp3 with its ``gamma`` as the exploration share."""
    mixed = settings.rule in SIMULTANEOUS_RULES
    return EvaluatorSearch(game, evaluator, c=settings.gamma if mixed else settings.c, rule=settings.rule)


def _pick(counts: np.ndarray, sample: bool, rng: np.random.Generator) -> int:
    """An action from a root's visit counts: in proportion to them, or the most visited (ties random)."""
    if sample:
        return int(rng.choice(counts.shape[0], p=counts / counts.sum()))
    best = np.flatnonzero(counts == counts.max())
    return int(best[0] if len(best) == 1 else rng.choice(best))


class SelfPlayer:
    """``parallel`` self-play games kept running between calls: :meth:`play` goes on until ``games``
    games have finished, restarting every finished slot at once, so every search batch stays full; the
    games still running carry over to the next call (their later moves then come from the newer
    network, as in continuous self-play)."""

    def __init__(self, game: Game, evaluator: NetworkEvaluator, parallel: int, settings: SearchSettings):
        self.game = game
        self.evaluator = evaluator
        self.settings = settings
        self.search = search_for(game, evaluator, settings)
        self.slots = [game.new_initial_state() for _ in range(parallel)]
        # per slot: (seat, obs, policy, root value in the seat's frame) of each decision of its game so far
        self.pending: list[list] = [[] for _ in self.slots]

    def play(self, games: int, rng: np.random.Generator) -> SelfPlayBatch:
        """Play on until ``games`` games have finished; their samples (see the module docstring)."""
        s = self.settings
        info = self.game.info
        noise = (s.noise_alpha, s.noise_fraction) if s.noise_fraction > 0 else None
        gumbel = s.gumbel and info.acting_seats == 1 and s.rule == "puct"
        mixed = s.rule in SIMULTANEOUS_RULES
        started = time.perf_counter()
        out_obs, out_pol, out_val, out_seat = [], [], [], []
        batch = SelfPlayBatch(np.empty(0), np.empty(0), np.empty(0))
        while batch.games < games:
            roots = np.stack([state.data for state in self.slots])
            seed = int(rng.integers(2**63))
            result: Any  # a GumbelResult (gumbel) or a SearchResult (strategies with a simultaneous rule)
            if gumbel:
                result = self.search.run_gumbel(roots, s.simulations, seed=seed, max_considered=s.max_considered)
            else:
                result = self.search.run(roots, s.simulations, seed=seed, root_noise=noise)
            for j, state in enumerate(self.slots):
                seats = state.current_seats()
                sample = state.turn < s.temperature_moves
                obs, _ = self.evaluator.observe(state.data[None], np.zeros(len(seats), np.int64), np.array(seats))
                decision = {}
                for k, seat in enumerate(seats):
                    root = relative_values(result.values[j].astype(np.float32), seat)
                    if gumbel:
                        self.pending[j].append((seat, obs[k], result.improved[j], root))
                        decision[seat] = int(result.actions[j])
                        continue
                    if mixed:  # the average strategy: the target, and the order drawn from it
                        policy = result.strategies[j, k] / result.strategies[j, k].sum()
                        self.pending[j].append((seat, obs[k], policy, root))
                        decision[seat] = _pick(policy, True, rng)
                        continue
                    counts = result.counts[j, k]
                    self.pending[j].append((seat, obs[k], counts / counts.sum(), root))
                    decision[seat] = _pick(counts, sample, rng)
                state.apply_actions(decision, check=False)
                batch.decisions += 1
                if not state.is_terminal():
                    continue
                returns = state.returns().astype(np.float32)
                from_search = s.truncated_value == "search" and state.is_truncated()
                for seat, o, policy, root in self.pending[j]:
                    out_obs.append(o)
                    out_pol.append(policy.astype(np.float32))
                    out_val.append(root if from_search else relative_values(returns, seat))
                    out_seat.append(seat)
                batch.games += 1
                batch.lengths.append(state.turn)
                key = "truncated" if state.is_truncated() else _outcome(returns, info)
                batch.outcomes[key] = batch.outcomes.get(key, 0) + 1
                self.pending[j] = []
                self.slots[j] = self.game.new_initial_state()
        batch.obs = np.stack(out_obs)
        batch.policies = np.stack(out_pol)
        batch.values = np.stack(out_val)
        batch.seats = np.array(out_seat, dtype=np.int64)
        batch.seconds = time.perf_counter() - started
        return batch

    def save(self, file) -> None:
        """Write the games in flight (each slot's position and the samples its game has so far) to
        ``file`` (a path or a binary file object, ``.npz``), so that a resumed run plays them on
        (:meth:`load`) exactly as the interrupted one would have."""
        entries = [(j, *entry) for j, pending in enumerate(self.pending) for entry in pending]
        shape = tuple(self.game.info.observation_shape)
        policies = [np.asarray(e[3]) for e in entries]
        index = [np.flatnonzero(p) for p in policies]
        np.savez(
            file,
            states=np.stack([state.data for state in self.slots]),
            slot=np.array([e[0] for e in entries], dtype=np.int64),
            seat=np.array([e[1] for e in entries], dtype=np.int64),
            obs=np.stack([e[2] for e in entries]) if entries else np.zeros((0, *shape), np.float32),
            policy_count=np.array([len(i) for i in index], dtype=np.int64),
            policy_index=np.concatenate(index) if entries else np.zeros(0, np.int64),
            policy_value=np.concatenate([p[i] for p, i in zip(policies, index)]) if entries else np.zeros(0),
            root_value=np.stack([e[4] for e in entries]) if entries else np.zeros((0, self.game.info.num_seats)),
        )

    def load(self, file) -> None:
        """Take over the games in flight saved by :meth:`save`. When ``parallel`` changed since, the first
        ``parallel`` saved games go on (the others are dropped) or new games fill the added slots."""
        proto = self.game.new_initial_state()
        with np.load(file) as data:
            states, slot, seat, obs = data["states"], data["slot"], data["seat"], data["obs"]
            count, index, value = data["policy_count"], data["policy_index"], data["policy_value"]
            # files written before the root values were kept: 0, the value such a game's samples had then
            seats = self.game.info.num_seats
            root = data["root_value"] if "root_value" in data else np.zeros((slot.shape[0], seats), np.float32)
        if (
            states.ndim != 2
            or states.shape[1] != proto.data.shape[0]
            or obs.shape[1:] != tuple(self.game.info.observation_shape)
            or root.shape != (slot.shape[0], seats)
        ):
            raise ValueError("games in flight of another game than this run's")
        parallel = len(self.slots)
        kept = range(min(parallel, len(states)))
        self.slots = [type(proto)(self.game, states[j].astype(proto.data.dtype)) for j in kept]
        self.slots += [self.game.new_initial_state() for _ in range(parallel - len(self.slots))]
        self.pending = [[] for _ in self.slots]
        starts = np.concatenate([[0], np.cumsum(count)])
        for k in range(slot.shape[0]):
            j = int(slot[k])
            if j >= parallel:
                continue
            policy = np.zeros(self.game.info.num_actions, dtype=value.dtype)
            policy[index[starts[k] : starts[k + 1]]] = value[starts[k] : starts[k + 1]]
            self.pending[j].append((int(seat[k]), obs[k], policy, root[k].astype(np.float32)))


def self_play(
    game: Game,
    evaluator: NetworkEvaluator,
    games: int,
    parallel: int,
    settings: SearchSettings,
    rng: np.random.Generator,
) -> SelfPlayBatch:
    """At least ``games`` self-play games from the start, ``parallel`` at a time (a fresh
    :class:`SelfPlayer`; games of the last round still running are dropped)."""
    return SelfPlayer(game, evaluator, parallel, settings).play(games, rng)


def _outcome(returns: np.ndarray, info) -> str:
    winners = [s for s in range(info.num_seats) if returns[s] > 0]
    if not winners:
        return "draw"
    return "won by " + "+".join(info.seat_names[s] for s in winners)
