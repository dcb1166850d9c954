"""Dorix (Loic Lamy): 4x4 stacking for 2, 3 or 4 players. Rules kernels in ``rules``, the Game/State
interface in ``game``, pictures in ``render``; the environment is ``boardgames.envs.dorix_v0``."""

from boardgames.envs.dorix.game import DorixGame, DorixState

__all__ = ["DorixGame", "DorixState"]
