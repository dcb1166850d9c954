"""The agent interface: ``agent.act(state, seat) -> action``, also ``agent(state, seat)``.

An agent is any callable ``(state, seat) -> action`` (what :func:`boardgames.envs.agents.play.play_game` and the
opponents of :class:`boardgames.envs.adapters.single_agent.SingleAgentEnv` take); :class:`Agent` adds a seeded random
generator. Agents never modify the state they are given.

Agents that can say how they chose also have ``explain(state, seat) -> {action: share}`` (the search's
visit shares, a policy's probabilities over the legal actions; shares sum to 1). It is optional, never
changes the moves the agent plays, and is what the browser page shows as the agent's thinking.
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.game import State


class Agent:
    """Chooses an action for a seat. Subclasses implement :meth:`act`."""

    name = "agent"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # agent(state, seat) is agent.act(state, seat) without a second Python call (hot in play loops)
        if "act" in cls.__dict__ and "__call__" not in cls.__dict__:
            cls.__call__ = cls.__dict__["act"]

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
