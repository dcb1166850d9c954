"""Olix: Reiner Knizia's placement game on an 11x11 grid, for 2 players.

| Import            | `from boardgames.envs import olix_v0`           |
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

Arguments: `env(max_turns=92, render_mode=None, illegal_action="lose")`; `max_turns` below 92 truncates
the game (a full game is 92 placements); `render_mode` is `"ansi"`, `"rgb_array"` or `"human"` (pygame
window). `illegal_action` says what an action the mask forbids does: `"lose"` (PettingZoo classic's
convention: the game ends, the offender gets -1, the other 0, with a warning), `"raise"`
(`IllegalActionError`, the game unchanged) or `"random"` (a random legal action is played); a value
that is no action at all always raises.
"""

from boardgames.envs.adapters.env_module import aec_env_functions, doc_sections
from boardgames.envs.olix.game import DEFAULT_MAX_TURNS, OlixGame
from boardgames.envs.olix.spec import SPEC

# the action, observation and notation sections, from envs/olix/spec.py
__doc__ = SPEC.fill_doc(__doc__ + doc_sections())

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=30)]

make_game, raw_env, env = aec_env_functions(OlixGame, "Olix", __name__, max_turns=DEFAULT_MAX_TURNS)
