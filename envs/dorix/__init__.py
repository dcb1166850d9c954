"""Dorix (Loic Lamy): 4x4 stacking for 2, 3 or 4 players; the environment is ``boardgames.envs.dorix_v0``.

The modules of every game folder: ``rules`` (numba kernels and the state layout), ``observe`` (the
observation kernel), ``notation`` (positions and moves as text), ``game`` (the Game and State classes,
wired to the others), ``spec`` (planes, actions and notation as data, for the docs), ``render`` (text
and RGB pictures) and ``heuristic`` (the greedy agent's score).
"""

from boardgames.envs.dorix.game import DorixGame, DorixState

__all__ = ["DorixGame", "DorixState"]
