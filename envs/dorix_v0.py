"""Dorix: the 4x4 stacking game by Loic Lamy, for 2, 3 or 4 players (teams at 4).

| Import            | `from envs import dorix_v0`                          |
|-------------------|------------------------------------------------------|
| Actions           | Discrete(276), masked                                |
| Parallel API      | No (AEC; turn-based)                                 |
| Agents            | `player_0` .. `player_{n-1}`, n = 2, 3 or 4          |
| Observation shape | (4, 4, 9*n + 4), float32 in [0, 1]                   |
| Rewards           | +1 win, -1 loss, 0 draw/truncation; teams share at 4 |

Players take turns placing a pawn of their colour on an empty square or on a stack they top; once
their hand is empty they move one of their top pawns instead. A stack that was played on collapses
onto its lower orthogonal neighbours, the mover choosing where each pawn falls. The first side to top
all four stacks of a long diagonal (a1-d4 or a4-d1) alone wins. Full rules with the rulings:
`docs/rules/dorix.md`.

Arguments: `env(num_players=2, max_turns=200, render_mode=None)`; `render_mode` is `"ansi"`,
`"rgb_array"` or `"human"` (pygame window).

## Action space

<!-- spec:actions --><!-- /spec:actions -->

## Observation

<!-- spec:observation --><!-- /spec:observation -->

## Notation

`reset(options={"position": text})` starts from a position.

<!-- spec:notation --><!-- /spec:notation -->

Version history: v0 (first release).
"""

from envs.core.aec_env import TurnBasedAECEnv, wrap_aec
from envs.dorix.game import DEFAULT_MAX_TURNS, DorixGame
from envs.dorix.spec import SPEC

__doc__ = SPEC.fill_doc(__doc__)  # the action, observation and notation sections, from envs/dorix/spec.py

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
