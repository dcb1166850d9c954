"""Bridges from the library's Game/State interface to other ecosystems' game APIs.

* :mod:`boardgames.envs.interop.openspiel`: every game as an OpenSpiel Python game (``import
boardgames.envs.interop.openspiel``,
  then ``pyspiel.load_game("boardgames_dorix(players=4)")``); needs the ``[openspiel]`` extra.

Nothing here is imported by ``import boardgames.envs``: each bridge is imported on its own, and only it needs its
ecosystem's package.
"""
