"""Shared machinery: the Game/State interface, errors, square names, rendering helpers and the
PettingZoo/Gymnasium adapters written once for every game."""

from envs.core.errors import GameOptionError, IllegalActionError, NotationError
from envs.core.game import Game, GameInfo, State

__all__ = ["Game", "GameInfo", "State", "IllegalActionError", "NotationError", "GameOptionError"]
