"""ADIX (Echamier Games): rock-paper-scissors cubes on a 9x9 arena that slide, rotate and tilt; the
environment is ``boardgames.envs.adix_v0``.

The modules of every game folder: ``rules`` (numba kernels and the state layout), ``observe`` (the
observation kernel), ``notation`` (positions and moves as text), ``game`` (the Game and State classes,
wired to the others), ``spec`` (planes, actions and notation as data, for the docs), ``render`` (text
and RGB pictures) and ``heuristic`` (the greedy agent's score). Beside them, ``cube`` (the cube's faces and turns).
"""

from boardgames.envs.adix.game import AdixGame, AdixState

__all__ = ["AdixGame", "AdixState"]
