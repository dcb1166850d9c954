"""Errors raised on bad input; each message names the problem."""


class IllegalActionError(ValueError):
    """An action that is out of range, malformed or not legal in the current position."""


class NotationError(ValueError):
    """A position or move string that cannot be parsed."""


class GameOptionError(ValueError):
    """A game option (player count, turn limit, ...) that the game does not accept."""
