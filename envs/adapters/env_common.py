"""What the PettingZoo adapters (AEC and Parallel) share: the agents and spaces of a game, the start
state of a reset, rendering in the three modes, closing the window, and the two extras every
environment exposes (``game_state`` and ``state()``, the global state in ``state_space``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import Game, State


def observation_space_for(game: Game) -> spaces.Dict:
    """The Dict space ``{"observation", "action_mask"}`` every adapter uses for ``game``."""
    info = game.info
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=1.0, shape=info.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(info.num_actions,), dtype=np.int8),
        }
    )


def start_state(game: Game, options: dict | None) -> State:
    """The state a ``reset(options=...)`` asks for: ``options["position"]`` in notation, or the start."""
    position = (options or {}).get("position")  # other keys are ignored, as Gymnasium does
    return game.from_text(position) if position is not None else game.new_initial_state()


class BoardEnvCommon:
    """Mixin for an adapter with ``self.state_`` (the rules-engine state), ``self.game``,
    ``self.render_mode`` and ``self._window`` (None until a ``human`` window opens). The adapter may
    override :meth:`_render_text` and :meth:`_render_rgb` to add to the game's own pictures."""

    _factory_name = "env()"
    metadata: dict[str, Any]  # the adapter's (PettingZoo's and Gymnasium's class attribute)

    def _setup(self, game: Game, render_mode: str | None) -> None:
        """Check ``render_mode`` against the adapter's metadata, then set the game, the agents
        (``player_0 ..``, seat order), their spaces, and an empty state and window."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameOptionError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(game.info.seat_names)
        self.agents: list[str] = []
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        obs_space = observation_space_for(game)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.info.num_actions) for a in self.possible_agents}
        *cells, channels = game.info.observation_shape
        state_shape = (*cells, game.info.num_seats * channels)
        self.state_space = spaces.Box(low=0.0, high=1.0, shape=state_shape, dtype=np.float32)
        self.state_: Any = None  # the game's State, from the first reset on
        self._window: Any = None  # a HumanWindow once the human render mode shows a frame

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _render_text(self) -> str:
        return self.state_.render_text()

    def _render_rgb(self) -> np.ndarray:
        return self.state_.render_rgb()

    def render(self):
        """``ansi``: the position as text; ``rgb_array``: an (H, W, 3) uint8 picture; ``human``: that
        picture in a pygame window (returns None)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                f"render() called without a render_mode; pass render_mode=... to {self._factory_name}"
            )
            return None
        if self.render_mode == "ansi":
            return self._render_text()
        frame = self._render_rgb()
        if self.render_mode == "human":
            from boardgames.envs.core.rendering import HumanWindow

            if self._window is None:
                self._window = HumanWindow(f"{self.game.info.name}", self.metadata["render_fps"])
            self._window.show(frame)
            return None
        return frame

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None

    @property
    def game_state(self) -> State:
        """The rules-engine state behind the environment (read it; change it only via step)."""
        return self.state_

    def state(self) -> np.ndarray:
        """The global state (PettingZoo's ``state()``, for centralised critics): every seat's observation
        tensor joined along the last (channel) axis in seat order, float32, ``observation_shape`` with
        ``num_seats`` times the channels, in ``state_space``. It depends on no agent's point of view,
        unlike any one observation."""
        state = self.state_
        return np.concatenate([state.observation(seat) for seat in range(self.game.info.num_seats)], axis=-1)


def with_turn_limit(spec: EnvSpec | None, turn_limit: int):
    """``spec`` (what ``gymnasium.make`` or ``make_vec`` set on an environment) with ``max_episode_steps`` set
    to the environment's ``turn_limit`` where it has none: the ``spec`` property of :class:`SingleAgentEnv`
    and :class:`BatchedVectorEnv`. The turn limit bounds an episode's steps (a step plays at least one turn)
    and the game's own truncation enforces it, so no ``TimeLimit`` is needed (:mod:`boardgames.envs.registration`); a
    ``gymnasium.make(spec)`` from such a spec wraps one of that many steps, which ends nothing sooner."""
    if spec is None or spec.max_episode_steps is not None:
        return spec
    return dataclasses.replace(spec, max_episode_steps=int(turn_limit))
