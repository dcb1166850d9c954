"""What the PettingZoo adapters (AEC and Parallel) share: rendering in the three modes, closing the
window, and the two extras every environment exposes (``game_state`` and ``state()``)."""

from __future__ import annotations

import numpy as np

from envs.core.game import State


class BoardEnvCommon:
    """Mixin for an adapter with ``self.state_`` (the rules-engine state), ``self.game``,
    ``self.render_mode`` and ``self._window`` (None until a ``human`` window opens). The adapter may
    override :meth:`_render_text` and :meth:`_render_rgb` to add to the game's own pictures."""

    _factory_name = "env()"

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
            from envs.core.rendering import HumanWindow

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
        """A global view of the game: seat 0's observation tensor."""
        return self.state_.observation(0)
