"""Olix: Reiner Knizia's placement game on an 11x11 grid, for 2 players.

| Import            | `from envs import olix_v0`           |
|-------------------|--------------------------------------|
| Actions           | Discrete(121), masked                |
| Parallel API      | No (AEC; turn-based)                 |
| Agents            | `player_0` (moves first), `player_1` |
| Observation shape | (11, 11, 37), float32 in [0, 1]      |
| Rewards           | +1 win, -1 loss, 0 draw/truncation   |

Players take turns placing one of their 46 pawns on an empty cell. A pawn that creates or extends a
pattern of the player's own pawns scores it on the pattern's column: O (a rectangle's border, pawns
of either colour inside adding to its value), L (two arms of 3+ at a right angle), I (a straight
orthogonal line of 4+) and X (a diagonal line of 4+). Each column keeps only its highest value, which
both players may share. A pattern worth more than the top of its column (O 10+, L 9+, I 8+, X 8+)
wins at once; otherwise, once all pawns are placed, the player holding more columns wins, ties going
to the more advanced markers. Full rules with the rulings: `docs/rules/olix.md`.

Arguments: `env(max_turns=92, render_mode=None)`; `max_turns` below 92 truncates the game (a full
game is 92 placements); `render_mode` is `"ansi"`, `"rgb_array"` or `"human"` (pygame window).

## Action space

<!-- spec:actions --><!-- /spec:actions -->

## Observation

<!-- spec:observation --><!-- /spec:observation -->

Rewards: at the end only, +1 to the winner and -1 to the loser, 0 to both on a draw or truncation.

## Notation

`reset(options={"position": text})` starts from a position.

<!-- spec:notation --><!-- /spec:notation -->

Version history: v0 (first release).
"""

from envs.core.aec_env import TurnBasedAECEnv, wrap_aec
from envs.olix.game import DEFAULT_MAX_TURNS, OlixGame
from envs.olix.spec import SPEC

__doc__ = SPEC.fill_doc(__doc__)  # the action, observation and notation sections, from envs/olix/spec.py

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=30)]


def make_game(max_turns: int = DEFAULT_MAX_TURNS) -> OlixGame:
    """The Olix rules engine alone."""
    return OlixGame(max_turns=max_turns)


class raw_env(TurnBasedAECEnv):
    """Olix as a PettingZoo AEC environment (unwrapped)."""

    metadata = {**TurnBasedAECEnv.metadata, "name": "olix_v0"}

    def __init__(self, max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
        super().__init__(make_game(max_turns), render_mode=render_mode)


def env(max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None):
    """Olix as a PettingZoo AEC environment with the standard wrappers."""
    return wrap_aec(raw_env(max_turns=max_turns, render_mode=render_mode))
