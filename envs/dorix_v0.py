"""Dorix: the 4x4 stacking game by Loic Lamy, for 2, 3 or 4 players (teams at 4).

| Import            | `from boardgames.envs import dorix_v0`                          |
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

Arguments: `env(num_players=2, max_turns=200, render_mode=None, illegal_action="lose")`; `render_mode`
is `"ansi"`, `"rgb_array"` or `"human"` (pygame window). `illegal_action` says what an action the mask
forbids does: `"lose"` (PettingZoo classic's convention: the game ends, the offender's side, both
partners at 4 players, gets -1, the others 0, with a warning), `"raise"` (`IllegalActionError`, the
game unchanged) or `"random"` (a random legal action is played); a value that is no action at all
always raises.
"""

from boardgames.envs.adapters.env_module import aec_env_functions, doc_sections
from boardgames.envs.dorix.game import DEFAULT_MAX_TURNS, DorixGame
from boardgames.envs.dorix.spec import SPEC

# the action, observation and notation sections, from envs/dorix/spec.py
__doc__ = SPEC.fill_doc(__doc__ + doc_sections(rewards=None))

CONFORMANCE_OPTIONS = [dict(num_players=2), dict(num_players=3), dict(num_players=4)]

make_game, raw_env, env = aec_env_functions(DorixGame, "Dorix", __name__, num_players=2, max_turns=DEFAULT_MAX_TURNS)
