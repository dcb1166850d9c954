"""Barc duel's environment spec: observation planes, action encoding and notation (the one source of the
tables in ``envs/barc_v1.py``'s docstring and ``docs/rules/barc.md``; see :mod:`boardgames.envs.core.spec`)."""

from boardgames.envs.core import spec

START = "barc 0.1.0.1.0.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.1.0.1.0.1 turn=0"
AFTER_ONE = "barc 0.1.0.-.0.1/-.-.-.1.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.0.-.-.-/0.1.-.1.0.1 turn=1 last=c1-c2,d6-d5"

OBSERVATION = spec.Observation(
    board=(6, 6),
    channels="13",
    turned_for=(1,),
    layout=spec.text("""Egocentric: "own" is the observing player; for player_0 (South) cell `obs[rank - 1, file]` is
        the square (a1 = `obs[0, 0]`); for player_1 (North) the board is turned half a turn (`obs[r, f]` shows square
        `35 - (6*r + f)`), so both see their own pawns at the bottom. Last turn's orders are public (both were
        revealed); the current turn's orders are never part of the state."""),
    planes=(
        spec.Planes("0", "own_top", "stacks the observer tops"),
        spec.Planes("1", "opp_top", "stacks the opponent tops"),
        spec.Planes("2", "height", "stack height / 12", scale="12"),
        spec.Planes("3", "own_pawns", "the observer's pawns in the stack / 6", scale="6"),
        spec.Planes("4", "opp_pawns", "the opponent's pawns in the stack / 6", scale="6"),
        spec.Planes("5", "own_from", "origin of the observer's last order"),
        spec.Planes("6", "own_to", "destination of the observer's last order"),
        spec.Planes("7", "opp_from", "origin of the opponent's last order"),
        spec.Planes("8", "opp_to", "destination of the opponent's last order"),
        spec.Planes("9", "own_stayed", 'the observer\'s last order was "stay"', constant=True),
        spec.Planes("10", "opp_stayed", 'the opponent\'s last order was "stay"', constant=True),
        spec.Planes("11", "cancelled", "last turn's orders named the same destination, so nobody moved", constant=True),
        spec.turn_plane("12"),
    ),
)

ACTIONS = spec.ActionSpace(
    intro=spec.text("""Egocentric, written from the acting player's own side like the observation. For player_0 (South)
        `o` is the square index `6*(rank - 1) + file` (a1 = 0, f6 = 35) and `k` the absolute direction, 0 N (towards
        rank 6), 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW; for player_1 (North) the board is turned half a turn:
        `o = 35 - square` and `k = (absolute direction + 4) mod 8`, so direction 0 always points away from the player
        and mirrored moves have the same index. "stay" is always legal while the game runs; the distance goes up to the
        stack's height."""),
    kinds=(
        spec.Actions(
            "move",
            "40*o + 5*k + (n - 1)",
            "move the stack on origin o in direction k by n squares",
            (spec.Var("o", 0, 35), spec.Var("k", 0, 7, spec.COMPASS), spec.Var("n", 1, 5)),
        ),
        spec.Actions("stay", "1440", '"stay": give no order'),
    ),
)

NOTATION = spec.Notation(
    board=spec.text("""`<board>` lists ranks 6 down to 1 separated by `/`; each rank has 6 cells separated by `.`; a
        cell is `-` when empty, else its pawns from the bottom up, `0` for South (player_0) and `1` for North
        (player_1): `01` is a South pawn covered by a North pawn (North owns it); `010` is a South stack of 3 holding a
        North pawn. Each player always has exactly 6 pawns on the board."""),
    fields=(
        spec.turn_field("Turns played (one turn = both orders resolved)."),
        spec.LIMIT_FIELD,
        spec.Field("last=<order0>,<order1>", "Last turn's orders, South's first."),
        spec.Field(
            "over=win:<seat>|draw|limit",
            "How a finished game ended; it must agree with the board (a position where someone reaches "
            "victory must say so).",
        ),
    ),
    positions=(
        spec.Position(START, "the start (the default, alternating: ruling B1 revised)"),
        spec.Position(AFTER_ONE, "after South c1-c2 and North d6-d5"),
        spec.Position(
            "barc 0.1.0.-.0.1/-.-.-.1.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.0.-.-.-/0.1.-.1.0.1 turn=2 last=stay,stay",
            'a turn later, after both said "stay"',
        ),
        spec.Position(
            "barc 0.1.0.1.-.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.10.0.1.0.1 turn=5 over=win:0",
            "South tops a1, b1 (a North pawn under a South one) and c1 in a row: it has won",
        ),
        spec.limit_example(START + " limit=50", "the start "),
        spec.Position(
            "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0",
            'the corners start (`start="corners"`, barc_v0\'s): a position is its board, whatever the start',
        ),
    ),
    moves={
        "move": spec.Move(
            "<sq>-<sq>",
            "an order: origin and destination, absolute square names whoever gives it",
            (
                spec.MoveExample("a1-a2", 0, START, seat=0),
                spec.MoveExample("f6-f5", 0, START, seat=1),
                spec.MoveExample("c1-d2", 85, START, seat=0),
                spec.MoveExample("d6-c5", 85, START, seat=1),
                spec.MoveExample("c1-b1", 110, START, seat=0),
                spec.MoveExample("d6-e6", 110, START, seat=1),
            ),
        ),
        "stay": spec.Move("stay", "give no order", spec.MoveExample("stay", 1440, START, seat=0)),
        None: spec.Move(
            "<order0> | <order1>",
            "a whole turn, South's order first (`state.text_to_actions`, `state.actions_to_text`)",
            spec.MoveExample("c1-c2 | d6-d5", {0: 80, 1: 80}, START),
        ),
    },
    moves_note=spec.text("""Without `seat`, `text_to_action` assumes the owner of the origin square. A turn in a move
        list (`boardgames.envs.tools.replay`) is written `player_0: c1-c2 | player_1: d6-d5`."""),
)

SPEC = spec.GameSpec("barc", OBSERVATION, ACTIONS, NOTATION, turn_limit=200)
