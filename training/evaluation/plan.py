"""What a round robin will cost, said before it starts, and an estimate of the time left that holds per pair.

``boardgames evaluate`` and ``boardgames leaderboard`` print a :class:`Plan` first: the agents, the pairs, the
games, and a rough time, from each agent's own decision time measured here on a few positions of a random game
(after one untimed call, which compiles what it needs) and the length of random games. A round robin's pairs
differ by orders of magnitude (``random`` against ``greedy`` takes seconds, ``mcts:1600`` against an AlphaZero
model can take most of an hour), so a bar that divides the games left by the rate so far starts far too low when
the slow pairs come last. :class:`Remaining` instead weighs every game by its pair's estimate and scales the
estimate of what is left by how the time spent so far compares with its estimate: an honest figure from the
first pair on, whatever the order of the pairs.

The measurement draws from the agents' generators; :func:`boardgames.training.evaluation.evaluate.play_match`
reseeds every agent before its games, so the games played are the same with or without a plan.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from boardgames.envs.core.game import Game, State

TIMED_POSITIONS = 4
"""Positions of a random game at which each agent's decision is timed."""
RANDOM_GAMES = 3
"""Random games whose mean length stands for the length of a game."""
SHOWN_PAIRS = 3
"""The slowest pairs named in the plan."""


@dataclass
class Plan:
    """A round robin's pairs (indices into ``names``), the games per pair, and the estimated seconds of one game
    of each pair (``pair_seconds[k]`` for ``pairs[k]``)."""

    names: list
    pairs: list
    games: int
    pair_seconds: list
    decisions: float
    jobs: int = 1

    @property
    def total_games(self) -> int:
        """Games in the whole round robin."""
        return self.games * len(self.pairs)

    @property
    def seconds(self) -> float:
        """The estimated wall time: the games' estimated seconds, shared by ``jobs`` processes."""
        return self.games * sum(self.pair_seconds) / max(1, min(self.jobs, len(self.pairs)))


def random_positions(game: Game, seed: int = 0) -> tuple[list[State], float]:
    """Positions spread over a random game (at most :data:`TIMED_POSITIONS`) and the mean number of decisions of
    :data:`RANDOM_GAMES` random games."""
    rng = np.random.default_rng([seed, 7703])
    lengths, positions = [], []
    for g in range(RANDOM_GAMES):
        state, states = game.new_initial_state(), []
        while state.current_seats():
            states.append(state.clone())
            state.apply_actions({s: int(rng.choice(state.legal_actions(s))) for s in state.current_seats()})
        lengths.append(len(states))
        if g == 0:
            step = max(1, len(states) // TIMED_POSITIONS)
            positions = states[::step][:TIMED_POSITIONS]
    return positions, float(np.mean(lengths))


def decision_seconds(agent, positions: list[State], batch: int = 1) -> float:
    """The agent's mean seconds for one seat's decision at ``positions`` (after one untimed call that compiles and
    loads what it needs). An agent that acts in batches is timed on ``batch`` positions (``positions`` repeated)
    in one call, as a match plays its games side by side: a search of 64 positions costs far less than 64
    searches of one."""
    batched = hasattr(agent, "act_batch")
    if batched:
        positions = (positions * batch)[: max(batch, len(positions))]
    seats = [state.current_seats()[0] for state in positions]
    if batched:
        agent.act_batch(positions[:1], seats[:1])
    else:
        agent(positions[0], seats[0])
    start = time.perf_counter()
    if batched:
        agent.act_batch(positions, seats)
    else:
        for state, seat in zip(positions, seats):
            agent(state, seat)
    return (time.perf_counter() - start) / len(positions)


def make_plan(
    game: Game, agents: list, names: list, pairs: list, games: int, jobs: int = 1, seed: int = 0, batch: int = 1
) -> Plan:
    """The :class:`Plan` of a round robin of ``agents`` (made agents, named ``names``) over ``pairs``: one game of
    a pair costs its decisions (the random games' length, every acting seat deciding) at the mean of the two
    agents' decision times (``batch``: the games a match plays side by side for agents that act in batches)."""
    positions, decisions = random_positions(game, seed)
    acting = float(np.mean([len(state.current_seats()) for state in positions]))
    needed = sorted({i for pair in pairs for i in pair})
    per_decision = {i: decision_seconds(agents[i], positions, batch) for i in needed}
    pair_seconds = [decisions * acting * (per_decision[i] + per_decision[j]) / 2 for i, j in pairs]
    return Plan(list(names), list(pairs), games, pair_seconds, decisions, jobs)


def duration(seconds: float) -> str:
    """A rough duration for people: ``under a minute``, ``about 8 min``, ``about 1 h 5 min``."""
    if seconds < 60:
        return "under a minute"
    minutes = int(round(seconds / 60))
    if minutes < 60:
        return f"about {minutes} min"
    return f"about {minutes // 60} h {minutes % 60} min" if minutes % 60 else f"about {minutes // 60} h"


def format_plan(plan: Plan) -> str:
    """The lines printed before a round robin starts: what it plays, roughly how long it takes, and which pairs
    take most of it."""
    agents = len({i for pair in plan.pairs for i in pair})
    jobs = f" in {plan.jobs} processes" if plan.jobs > 1 else ""
    lines = [
        f"plan: {agents} agents, {len(plan.pairs)} pair{'s' if len(plan.pairs) != 1 else ''} x {plan.games} games "
        f"= {plan.total_games:,} games{jobs}; rough time {duration(plan.seconds)} on this machine "
        f"(each agent's move time measured here, games of about {plan.decisions:.0f} decisions)"
    ]
    if len(plan.pairs) > 1:
        total = sum(plan.pair_seconds) or 1.0
        slow = sorted(range(len(plan.pairs)), key=lambda k: -plan.pair_seconds[k])[:SHOWN_PAIRS]
        named = ", ".join(
            f"{plan.names[plan.pairs[k][0]]} vs {plan.names[plan.pairs[k][1]]} "
            f"({100 * plan.pair_seconds[k] / total:.0f}%)"
            for k in slow
        )
        lines.append(f"  slowest pairs: {named} of the time")
    if plan.seconds > 600:
        lines.append("  fewer --games, fewer --agents or --jobs N (pairs in N processes) make it shorter")
    return "\n".join(lines)


class Remaining:
    """The time a round robin has left: every game weighted by its pair's estimated seconds, the estimate of what
    is left scaled by the time spent so far over its estimate (see the module docstring)."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.start = time.perf_counter()
        self.done = 0.0  # estimated seconds of the games played
        self.left = plan.games * sum(plan.pair_seconds)  # estimated seconds of the games to play

    def played(self, pair: int, games: int = 1) -> None:
        """``games`` more games of ``plan.pairs[pair]`` are over."""
        cost = games * self.plan.pair_seconds[pair]
        self.done += cost
        self.left = max(0.0, self.left - cost)

    def seconds(self) -> float:
        """The wall time left: the estimate of the games left, scaled by what the games played took."""
        if self.done <= 0:  # nothing played yet: the plan's own figure
            return self.left / max(1, min(self.plan.jobs, len(self.plan.pairs)))
        return self.left * (time.perf_counter() - self.start) / self.done  # processes at work: in the ratio

    def text(self) -> str:
        """``~8 min left`` for the progress bar."""
        left = self.seconds()
        return "~" + (f"{left:.0f} s" if left < 60 else duration(left).removeprefix("about ")) + " left"
