"""The greedy agent: one-move lookahead with the game's heuristic (``game.heuristic``, from
``envs/<game>/heuristic.py``)."""

from __future__ import annotations

import math

import numpy as np

from boardgames.envs.agents.base import Agent
from boardgames.envs.core.game import Game, State


def _heuristic_of(game: Game):
    """``game``'s position score, ``heuristic(state, seat) -> float`` (higher is better for ``seat``), that
    its class names (``heuristic = staticmethod(heuristic)``); None for a game without one (the greedy agent
    then only looks for wins)."""
    return getattr(game, "heuristic", None)


class GreedyAgent(Agent):
    """One-move lookahead: an immediate win if any, else the best heuristic score (random tie-break).

    Each own action is played together with the actions of the other seats that act at the same time
    (seats acting at once): ``samples`` draws of theirs, uniform over their legal actions, drawn once per
    decision (the same draws for every own action); the action's value is its average over them. When
    no other seat acts now (turn-based games) there is one draw, with no action in it.

    Args:
        game: the game, to take its heuristic from (``game.heuristic``; else the heuristic of each
            state's game).
        seed: seeds the draws and the tie-break.
        heuristic: ``heuristic(state, seat) -> float`` instead of the game's.
    """

    samples = 4

    name = "greedy"

    def __init__(self, game: Game | None = None, seed: int | None = None, heuristic=None):
        super().__init__(seed)
        self.heuristic = heuristic
        if heuristic is None and game is not None:
            self.heuristic = _heuristic_of(game)

    def act(self, state: State, seat: int) -> int:
        best = self.choices(state, seat)
        if len(best) == 1 and state.legal_mask(seat).sum() == 1:
            return best[0]
        return int(self.rng.choice(best))

    def choices(self, state: State, seat: int) -> list:
        """The actions :meth:`act` chooses from (the best-scoring ones, ties included): the target
        distribution when a policy imitates the greedy agent (``boardgames.training.sb3.pretrain``)."""
        heuristic = self.heuristic or _heuristic_of(state.game)
        actions = np.flatnonzero(state.legal_mask(seat))
        if len(actions) == 1:
            return [int(actions[0])]
        draws = self._draw_others(state, seat)
        best, best_value = [], -math.inf
        for a in actions:
            value = 0.0
            for others in draws:
                child = state.clone()
                child.apply_actions({**others, seat: int(a)}, check=False)
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

    def _draw_others(self, state: State, seat: int) -> list:
        """``samples`` decisions ``{seat: action}`` of the other seats acting now, each seat's action
        uniform over its legal ones (drawn sample by sample, seat by seat in the order of
        ``current_seats()``); ``[{}]`` when no other seat acts now."""
        legal = {s: np.flatnonzero(state.legal_mask(s)) for s in state.current_seats() if s != seat}
        if not legal:
            return [{}]
        return [{s: int(self.rng.choice(actions)) for s, actions in legal.items()} for _ in range(self.samples)]
