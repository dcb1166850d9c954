"""Barc duel: Sylvie Barc's simultaneous-move game on a 6x6 board, for 2 players.

| Import            | `from boardgames.envs import barc_v1`                                      |
|-------------------|-----------------------------------------------------------------|
| Actions           | Discrete(1441), masked                                          |
| Parallel API      | Yes: `parallel_env()`; `env()` is its AEC form                  |
| Agents            | `player_0` (South), `player_1` (North), acting at the same time |
| Observation shape | (6, 6, 13), float32 in [0, 1]                                   |
| Rewards           | +1 win, -1 loss, 0 draw/truncation                              |

The source gives the game no title; "Barc duel" is this library's name for it. Each player has six
pawns; at the start (ruling B1, revised) both back ranks alternate the two colours: South on a1, c1,
e1, a6, c6, e6 and North on b1, d1, f1, b6, d6, f6. Every turn both players secretly give one order
at the same time: a stack they own (own pawn on top) moves in a straight line (8 directions), one square for a single
pawn and up to h squares for a stack of h pawns, over empty squares, onto an empty square or onto an
enemy stack, which it covers and captures (the covered pawns travel with it). Or they "stay". Orders
naming the same destination cancel each other; a stack aiming at a square the other stack leaves
lands on the emptied square; two stacks swapping squares both arrive. Three neighbouring squares in
a row, column or diagonal topped by one's colour win; so does the opponent being left with 2 stacks or
fewer; both at once is a draw. Full rules with the rulings: `docs/rules/barc.md`.

Arguments: `parallel_env(start="alternating", max_turns=200, render_mode=None, illegal_action="void",
max_cycles=None)` and `env(...)` likewise; `start` names the start position: `"alternating"` (the default, above),
`"corners"` (the first ruling's start, that of `barc_v0`: each side can force victory on turn 2, so
use it only to reproduce older results) or `"edges"` (South on a1, f1, a3, f3, b6, e6, North on the
half-turn image); `max_turns` ends the game by truncation after that many turns (`max_cycles`,
PettingZoo's name for it, is the same limit); `render_mode` is
`"ansi"`, `"rgb_array"` or `"human"` (pygame window). `illegal_action="void"` plays an order
the mask forbids as the source rules say ("a player who gives an impossible order does not move": it
counts as "stay", and the agent's info has `"void_action": True`); `"lose"` ends the game with every
offender's side losing (-1, the other 0: PettingZoo classic's convention, with a warning); `"random"`
plays a random legal order instead; `"raise"` raises `IllegalActionError` and leaves the game as it
was. A missing, malformed or out-of-range action always raises. `raw_env` is the Parallel class itself.
"""

from boardgames.envs.adapters.env_module import doc_sections, parallel_env_functions
from boardgames.envs.barc.game import DEFAULT_MAX_TURNS, DEFAULT_START, BarcGame
from boardgames.envs.barc.spec import SPEC

HISTORY = (
    "v1 (the alternating start of ruling B1, revised: from v0's start each side could force victory on "
    'turn 2, so competent play always drew); v0 (first release, the start now named `"corners"`).'
)

# the action, observation and notation sections, from envs/barc/spec.py
__doc__ = SPEC.fill_doc(__doc__ + doc_sections(reset="parallel_env().reset", history=HISTORY))

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=12), dict(start="corners"), dict(start="edges", max_turns=30)]

make_game, raw_env, parallel_env, env = parallel_env_functions(
    BarcGame, "Barc duel", __name__, illegal_action="void", start=DEFAULT_START, max_turns=DEFAULT_MAX_TURNS
)
