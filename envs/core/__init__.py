"""Shared machinery: the Game/State interface, errors, square names, rendering helpers and the
PettingZoo/Gymnasium adapters written once for every game."""

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.game import Game, GameInfo, State

__all__ = ["Game", "GameInfo", "State", "IllegalActionError", "NotationError", "GameOptionError"]
