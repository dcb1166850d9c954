"""Dorix: the 4x4 stacking game by Loic Lamy, for 2, 3 or 4 players (teams at 4).

| Import             | ``from envs import dorix_v0``                          |
|--------------------|--------------------------------------------------------|
| Actions            | Discrete(276), masked                                  |
| Parallel API       | No (AEC; turn-based)                                   |
| Agents             | ``player_0`` .. ``player_{n-1}``, n = 2, 3 or 4          |
| Observation shape  | (4, 4, 9n + 4), float32 in [0, 1]                      |
| Rewards            | +1 win, -1 loss, 0 draw/truncation; teams share at 4   |

Players take turns placing a pawn of their colour on an empty square or on a stack they top; once
their hand is empty they move one of their top pawns instead. A stack that was played on collapses
onto its lower orthogonal neighbours, the mover choosing where each pawn falls. The first side to top
all four stacks of a long diagonal (a1-d4 or a4-d1) alone wins. Full rules with the rulings:
``docs/rules/dorix.md``.

Arguments: ``env(num_players=2, max_turns=200, render_mode=None)``; ``render_mode`` is ``"ansi"``,
``"rgb_array"`` or ``"human"`` (pygame window).

Action space (276 actions; the ``action_mask`` marks the legal ones):

* ``0..15``: place a pawn from the hand on square ``a`` (a1 = 0, b1 = 1, ..., d4 = 15);
* ``16 + 16*f + t``: move the own top pawn from square f to square t;
* ``272 + d``: during a collapse, the next pawn falls on the neighbour north/east/south/west (d = 0..3).
  A collapse step is asked only when the choice can change the result.

Observation (egocentric: relative seat k = 0 is the observer, then the next seats in turn order;
at 4 players the partner is relative seat 2), planes over the 4x4 board:

* ``d*n + k`` (d = 0..5): the pawn d levels below the top of the stack belongs to relative seat k;
* ``6n + k``: relative seat k's pawns deeper than 6 levels / 15;
* ``7n + k``: relative seat k's hand / pawns per player (constant plane);
* ``8n + k``: relative seat k is on the observer's team (constant plane);
* ``9n``: stack height / 40; ``9n+1``: the collapsing stack; ``9n+2``: its lower neighbours still to
  receive; ``9n+3``: the observer must choose where the next collapsing pawn falls.

Notation: ``reset(options={"position": "dorix -.-.-.-/-.01.-.-/-.-.-.-/0.-.-.1 hands=13,13 move=0 turn=4"})``;
see ``envs.dorix.game`` and the rules page.

Version history: v0 (first release).
"""

from envs.core.aec_env import TurnBasedAECEnv, wrap_aec
from envs.dorix.game import DEFAULT_MAX_TURNS, DorixGame

CONFORMANCE_OPTIONS = [dict(num_players=2), dict(num_players=3), dict(num_players=4)]


def make_game(num_players: int = 2, max_turns: int = DEFAULT_MAX_TURNS) -> DorixGame:
    """The Dorix rules engine alone."""
    return DorixGame(num_players=num_players, max_turns=max_turns)


class raw_env(TurnBasedAECEnv):
    """Dorix as a PettingZoo AEC environment (unwrapped)."""

    metadata = {**TurnBasedAECEnv.metadata, "name": "dorix_v0"}

    def __init__(self, num_players: int = 2, max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
        super().__init__(make_game(num_players, max_turns), render_mode=render_mode)


def env(num_players: int = 2, max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
    """Dorix as a PettingZoo AEC environment with the standard wrappers."""
    return wrap_aec(raw_env(num_players=num_players, max_turns=max_turns, render_mode=render_mode))
