"""Barc duel: Sylvie Barc's simultaneous-move game on a 6x6 board, for 2 players.

| Import             | ``from envs import barc_v0``                                      |
|--------------------|-------------------------------------------------------------------|
| Actions            | Discrete(1441), masked                                            |
| Parallel API       | Yes: ``parallel_env()``; ``env()`` is its AEC form                |
| Agents             | ``player_0`` (South), ``player_1`` (North), acting at the same time|
| Observation shape  | (6, 6, 13), float32 in [0, 1]                                     |
| Rewards            | +1 win, -1 loss, 0 draw/truncation                                |

The source gives the game no title; "Barc duel" is this library's name for it. Each player has six
pawns on their own two back ranks. Every turn both players secretly give one order at the same time:
a stack they own (own pawn on top) moves in a straight line (8 directions), one square for a single
pawn and up to h squares for a stack of h pawns, over empty squares, onto an empty square or onto an
enemy stack, which it covers and captures (the covered pawns travel with it). Or they "stay". Orders
naming the same destination cancel each other; a stack aiming at a square the other stack leaves
lands on the emptied square; two stacks swapping squares both arrive. Three neighbouring squares in
a row, column or diagonal topped by one's colour win; so does the opponent being left with 2 stacks or
fewer; both at once is a draw. Full rules with the rulings: ``docs/rules/barc.md``.

Arguments: ``parallel_env(max_turns=200, render_mode=None, illegal_actions="void")`` and ``env(...)``
likewise; ``max_turns`` ends the game by truncation after that many turns; ``render_mode`` is
``"ansi"``, ``"rgb_array"`` or ``"human"`` (pygame window). ``illegal_actions="void"`` plays an order
the mask forbids as the source rules say ("a player who gives an impossible order does not move": it
counts as "stay", and the agent's info has ``"void_action": True``); ``"raise"`` raises
``IllegalActionError`` instead and leaves the game as it was. A missing or out-of-range action always
raises. ``raw_env`` is the Parallel class itself.

Action space (egocentric: written from the acting player's own side, like the observation): ``a`` in
``0..1439`` moves the stack on origin ``o`` in direction ``k`` by distance ``n`` (1..5) with
``a = 40 * o + 5 * k + (n - 1)``; ``a = 1440`` is "stay". For player_0 ``o`` is the square index
``6 * (rank - 1) + file`` (a1 = 0, f6 = 35) and ``k`` = 0 N (towards rank 6), 1 NE, 2 E, 3 SE, 4 S,
5 SW, 6 W, 7 NW; for player_1 the board is turned half a turn: ``o = 35 - square`` and ``k`` is the
absolute direction plus 4 (mod 8), so direction 0 always points away from the player. "stay" is always
legal while the game runs.

Observation (egocentric: "own" is the observing player; for player_1 the board is turned half a turn,
``obs[r, f]`` showing square ``35 - (6 * r + f)``), planes over the 6x6 board:

* ``0``: stacks the observer tops; ``1``: stacks the opponent tops;
* ``2``: stack height / 12; ``3``: the observer's pawns in the stack / 6; ``4``: the opponent's;
* ``5``, ``6``: origin and destination of the observer's last order; ``7``, ``8``: the opponent's
  (orders are revealed once both are given; the current turn's orders are never observed);
* ``9``: the observer's last order was "stay" (constant plane); ``10``: the opponent's;
* ``11``: last turn's orders named the same destination, so nobody moved (constant plane);
* ``12``: turns played / ``max_turns`` (constant plane).

Rewards: at the end only, +1 to the winner and -1 to the loser, 0 to both on a draw or truncation.

Notation: ``reset(options={"position": "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/"
"0.-.-.-.-.0/0.0.-.-.0.0 turn=0"})`` (the start). The board lists ranks 6 to 1, cells separated by
``.``, each cell ``-`` or its pawns from the bottom up (``0`` player_0, ``1`` player_1); the fields
are ``turn=``, optional ``limit=``, ``last=<order0>,<order1>`` and ``over=win:<seat>|draw|limit``.
Orders are written ``b1-d3`` (origin-destination, absolute square names) or ``stay``;
``state.text_to_action("b1-d3", seat=0)`` and ``state.action_to_text(a, seat=0)`` convert. See
``envs.barc.game`` and the rules page.

Version history: v0 (first release).
"""

from envs.barc.game import DEFAULT_MAX_TURNS, BarcGame
from envs.core.parallel_env import SimultaneousParallelEnv, wrap_parallel_as_aec

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=12)]


def make_game(max_turns: int = DEFAULT_MAX_TURNS) -> BarcGame:
    """The Barc duel rules engine alone."""
    return BarcGame(max_turns=max_turns)


class raw_env(SimultaneousParallelEnv):
    """Barc duel as a PettingZoo Parallel environment (unwrapped)."""

    metadata = {**SimultaneousParallelEnv.metadata, "name": "barc_v0"}

    def __init__(self, max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None,
                 illegal_actions: str = "void"):
        super().__init__(make_game(max_turns), render_mode=render_mode, illegal_actions=illegal_actions)


def parallel_env(max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None,
                 illegal_actions: str = "void") -> raw_env:
    """Barc duel as a PettingZoo Parallel environment (both players act at once)."""
    return raw_env(max_turns=max_turns, render_mode=render_mode, illegal_actions=illegal_actions)


def env(max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None, illegal_actions: str = "void"):
    """Barc duel as a PettingZoo AEC environment (PettingZoo's parallel_to_aec form: the orders are
    given one after the other and resolved together once both are in)."""
    return wrap_parallel_as_aec(raw_env(max_turns=max_turns, render_mode=render_mode, illegal_actions=illegal_actions))
