"""Barc duel: Sylvie Barc's 6x6 game where both players order at once; the environment is ``boardgames.envs.barc_v1``.

The modules of every game folder: ``rules`` (numba kernels and the state layout), ``observe`` (the
observation kernel), ``notation`` (positions and moves as text), ``game`` (the Game and State classes,
wired to the others), ``spec`` (planes, actions and notation as data, for the docs), ``render`` (text
and RGB pictures) and ``heuristic`` (the greedy agent's score). Beside them, ``forced`` (the
search for forced victories of the opening study).
"""

from boardgames.envs.barc.game import BarcGame, BarcState

__all__ = ["BarcGame", "BarcState"]
