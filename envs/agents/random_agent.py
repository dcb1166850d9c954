"""The uniformly random agent."""

from __future__ import annotations

import numpy as np

from boardgames.envs.agents.base import Agent
from boardgames.envs.core.game import State


class RandomAgent(Agent):
    """Uniform random legal action (one draw of the agent's generator per decision)."""

    name = "random"

    def act(self, state: State, seat: int) -> int:
        return int(self.rng.choice(np.flatnonzero(state.legal_mask(seat))))
