"""Olix (Reiner Knizia): place pawns on an 11x11 grid to build O, L, I and X patterns scored on four
columns. Rules kernels in ``rules``, the Game/State interface in ``game``, pictures in ``render``; the
environment is ``boardgames.envs.olix_v0``."""

from boardgames.envs.olix.game import OlixGame, OlixState

__all__ = ["OlixGame", "OlixState"]
