"""ADIX (Echamier Games): rock-paper-scissors cubes on a 9x9 arena that slide, rotate and tilt.
Rules kernels in ``rules``, the Game/State interface in ``game``, pictures in ``render``; the
environment is ``boardgames.envs.adix_v0``."""

from boardgames.envs.adix.game import AdixGame, AdixState

__all__ = ["AdixGame", "AdixState"]
