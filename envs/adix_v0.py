"""ADIX: the rock-paper-scissors duel of cubes by Echamier Games, on a 9x9 arena, for 2 players.

| Import            | `from boardgames.envs import adix_v0`                          |
|-------------------|-----------------------------------------------------|
| Actions           | Discrete(5670), masked                              |
| Parallel API      | No (AEC; turn-based)                                |
| Agents            | `player_0` (White, moves first), `player_1` (Black) |
| Observation shape | (9, 9, 43), float32 in [0, 1]                       |
| Rewards           | +1 win, -1 loss, 0 draw/truncation                  |

Each player has a captain and 9 teammates, cubes whose faces carry weapons: rock, paper, scissors
(a teammate has a blank "shelter" face opposite its rock). Only the top face is active. A turn is one
displacement (rock along the 8 directions, paper orthogonally, scissors diagonally; a teammate
slides any distance, a captain one square; no jumping; capture by rock > scissors > paper > rock,
never of a sheltered cube), one rotation (a quarter turn left or right, the top face stays) or one
tilt (the cube rolls onto an adjacent empty square, changing its top face). A sheltered cube can only
tilt; no cube may repeat the same rotation or tilt on three consecutive turns of its owner. Capturing
the enemy captain or the enemy's last teammate wins; a player with no legal action loses; 30 turns
without a displacement draw. Full rules with the rulings: `docs/rules/adix.md`.

Arguments: `env(max_turns=300, render_mode=None, illegal_action="lose")`; `max_turns` truncates the game
(a draw); `render_mode` is `"ansi"`, `"rgb_array"` or `"human"` (pygame window). `illegal_action` says
what an action the mask forbids does: `"lose"` (PettingZoo classic's convention: the game ends, the
offender gets -1, the other 0, with a warning), `"raise"` (`IllegalActionError`, the game unchanged)
or `"random"` (a random legal action is played); a value that is no action at all always raises.
"""

from boardgames.envs.adapters.env_module import aec_env_functions, doc_sections
from boardgames.envs.adix.game import DEFAULT_MAX_TURNS, AdixGame
from boardgames.envs.adix.spec import SPEC

# the action, observation and notation sections, from envs/adix/spec.py
__doc__ = SPEC.fill_doc(__doc__ + doc_sections())

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=40)]

make_game, raw_env, env = aec_env_functions(AdixGame, "ADIX", __name__, max_turns=DEFAULT_MAX_TURNS)
