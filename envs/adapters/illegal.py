"""What every environment does with an action the rules do not allow: the ``illegal_action`` option.

Every environment of this package (PettingZoo AEC and Parallel, the Gymnasium single-agent
environment, the batched environments) takes ``illegal_action``:

* ``"lose"`` (the default; PettingZoo classic's convention, as ``connect_four_v3`` and ``chess_v6``
  through ``TerminateIllegalWrapper``): the game ends at once, the offender's side gets -1 (both
  partners in 4-player Dorix), every other seat 0, the episode is *terminated* (not truncated), the
  rules-engine state is left as it was before the move, the offender's info has
  ``"illegal_action": True`` and an :class:`IllegalActionWarning` is emitted. This default lets the
  ecosystem's checkers, which step with unmasked random actions (Gymnasium's and SB3's
  ``check_env``, RLlib's environment pre-check), run on the environments as made by
  ``gymnasium.make`` / ``pettingzoo.make``;
* ``"raise"``: :class:`~boardgames.envs.core.errors.IllegalActionError` naming the action and the position,
  with the game left as it was;
* ``"random"``: a uniformly random legal action is played instead and the info says
  ``"illegal_action": True`` (for algorithms that never see the masks);
* ``"void"`` (games whose rules say what an impossible order does, Barc duel: the player stays):
  the order is played as the rules play it, the info says ``"void_action": True``.

Whatever the mode, a value that is not an action at all (not an integer, a bool, out of
``0..num_actions-1``: :func:`boardgames.envs.core.game.action_index`) raises
:class:`~boardgames.envs.core.errors.IllegalActionError`: the modes decide what an action of the action space
that the mask forbids does, never whether garbage is accepted.
"""

from __future__ import annotations

import warnings

import numpy as np

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import GameInfo

ILLEGAL_ACTION_MODES = ("lose", "raise", "random", "void")
DEFAULT_ILLEGAL_ACTION = "lose"


class IllegalActionWarning(UserWarning):
    """Emitted when an environment ends a game because an agent played an illegal action
    (``illegal_action="lose"``)."""


def check_illegal_action_mode(mode, allowed: tuple = ("lose", "raise", "random")) -> str:
    """``mode`` if it is one of ``allowed``, else :class:`GameOptionError` naming the choices."""
    if not isinstance(mode, str) or mode not in allowed:
        raise GameOptionError(f"illegal_action must be one of {', '.join(map(repr, allowed))}, got {mode!r}")
    return mode


def loser_returns(info: GameInfo, offenders) -> np.ndarray:
    """The returns of a game lost by an illegal action: -1 for every seat on an offender's side
    (team games: the offender's partners too), 0 for the others."""
    out = np.zeros(info.num_seats, dtype=np.float32)
    losing_teams = {info.teams[s] for s in offenders}
    for seat in range(info.num_seats):
        if info.teams[seat] in losing_teams:
            out[seat] = -1.0
    return out


def warn_illegal(info: GameInfo, offenders, where: str = "") -> None:
    """The :class:`IllegalActionWarning` of a game ended by an illegal action of ``offenders``."""
    names = ", ".join(info.seat_names[s] for s in offenders)
    warnings.warn(
        f"{info.name}{where}: illegal action by {names}; the game ends with {names} losing "
        "(illegal_action='lose'). The observation's action_mask (or env.action_masks()) gives the legal "
        "actions; illegal_action='raise' makes this an error.",
        IllegalActionWarning,
        stacklevel=3,
    )


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask`` (``"random"`` mode)."""
    return int(rng.choice(np.flatnonzero(mask)))
