"""ADIX: the rock-paper-scissors duel of cubes by Echamier Games, on a 9x9 arena, for 2 players.

| Import             | ``from envs import adix_v0``                           |
|--------------------|--------------------------------------------------------|
| Actions            | Discrete(5670), masked                                 |
| Parallel API       | No (AEC; turn-based)                                   |
| Agents             | ``player_0`` (White, moves first), ``player_1`` (Black)|
| Observation shape  | (9, 9, 43), float32 in [0, 1]                          |
| Rewards            | +1 win, -1 loss, 0 draw/truncation                     |

Each player has a captain and 9 teammates, cubes whose faces carry weapons: rock, paper, scissors
(a teammate has a blank "shelter" face opposite its rock). Only the top face is active. A turn is one
displacement (rock along the 8 directions, paper orthogonally, scissors diagonally; a teammate
slides any distance, a captain one square; no jumping; capture by rock > scissors > paper > rock,
never of a sheltered cube), one rotation (a quarter turn left or right, the top face stays) or one
tilt (the cube rolls onto an adjacent empty square, changing its top face). A sheltered cube can only
tilt; no cube may repeat the same rotation or tilt on three consecutive turns of its owner. Capturing
the enemy captain or the enemy's last teammate wins; a player with no legal action loses; 30 turns
without a displacement draw. Full rules with the rulings: ``docs/rules/adix.md``.

Arguments: ``env(max_turns=300, render_mode=None)``; ``max_turns`` truncates the game (a draw);
``render_mode`` is ``"ansi"``, ``"rgb_array"`` or ``"human"`` (pygame window).

Action space (5670 = 81 squares x 70; the ``action_mask`` marks the legal ones), **egocentric**:
``a = 70 * s + k`` where ``s`` is a square in the acting player's frame (White: the board's square,
``s = 9 * (rank - 1) + file``; Black: the board turned 180 degrees, its ``s`` is the board's
``80 - s``) and, in that frame,

* ``k = 8 * d + (n - 1)`` for ``k`` in 0..63: displacement by ``n`` = 1..8 squares in direction
  ``d`` = 0..7 (N, NE, E, SE, S, SW, W, NW; "north" is away from the player);
* ``k = 64``: rotate left (counter-clockwise seen from above); ``65``: rotate right;
* ``k = 66 + t``: tilt towards N, E, S, W (t = 0..3).

So one policy plays both colours. Moves in notation (``state.text_to_action``) are always in board
coordinates.

Observation (egocentric: Black sees the board turned 180 degrees; "up" is away from the observer),
planes over the 9x9 board:

* ``0`` own captain, ``1`` own teammate, ``2`` enemy captain, ``3`` enemy teammate;
* ``4 + 4*f + w``: the cube's face f (0 top = active weapon, 1 up, 2 right, 3 down, 4 left,
  5 bottom) shows weapon w (0 rock, 1 paper, 2 scissors, 3 shelter);
* ``28 + m``: the observer's A9 record on the square of the cube that repeated movement m
  (0 rotate left, 1 rotate right, 2..5 tilt up/right/down/left): consecutive count / 2 (1.0: a third
  is refused); ``34 + m``: the opponent's;
* ``40``: turns without a displacement / 30; ``41``: turn / turn limit; ``42``: 1 when the observer
  is to act (constant planes).

Rewards: at the end only, +1 to the winner and -1 to the loser, 0 to both on a draw or truncation.

Notation: ``reset(options={"position": "adix 4crps4/9/9/4thps4/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0"})``.
Ranks 9 to 1; a cube is ``C``/``T`` (White captain/teammate) or ``c``/``t`` (Black's) followed by
its top, north and east weapons (``r``, ``p``, ``s``, ``h`` = shelter); fields ``move=``, ``turn=``,
``quiet=``, optional ``limit=``, ``rep=`` (A9 records), ``last=``, ``over=``. Moves: ``e2-e5``
(``e2xe5`` capturing), ``e2L`` / ``e2R`` (rotations), ``e2~e3`` (tilt). See ``envs.adix.game``.

Version history: v0 (first release).
"""

from envs.adix.game import DEFAULT_MAX_TURNS, AdixGame
from envs.core.aec_env import TurnBasedAECEnv, wrap_aec

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=40)]


def make_game(max_turns: int = DEFAULT_MAX_TURNS) -> AdixGame:
    """The ADIX rules engine alone."""
    return AdixGame(max_turns=max_turns)


class raw_env(TurnBasedAECEnv):
    """ADIX as a PettingZoo AEC environment (unwrapped)."""

    metadata = {**TurnBasedAECEnv.metadata, "name": "adix_v0"}

    def __init__(self, max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
        super().__init__(make_game(max_turns), render_mode=render_mode)


def env(max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
    """ADIX as a PettingZoo AEC environment with the standard wrappers."""
    return wrap_aec(raw_env(max_turns=max_turns, render_mode=render_mode))
