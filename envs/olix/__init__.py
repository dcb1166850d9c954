"""Olix (Reiner Knizia): place pawns on an 11x11 grid to build O, L, I and X patterns scored on four
columns; the environment is ``boardgames.envs.olix_v0``.

The modules of every game folder: ``rules`` (numba kernels and the state layout), ``observe`` (the
observation kernel), ``notation`` (positions and moves as text), ``game`` (the Game and State classes,
wired to the others), ``spec`` (planes, actions and notation as data, for the docs), ``render`` (text
and RGB pictures) and ``heuristic`` (the greedy agent's score).
"""

from boardgames.envs.olix.game import OlixGame, OlixState

__all__ = ["OlixGame", "OlixState"]
