"""Dorix's environment spec: observation planes, action encoding and notation (the one source of the
tables in ``envs/dorix_v0.py``'s docstring and ``docs/rules/dorix.md``; see :mod:`boardgames.envs.core.spec`)."""

from boardgames.envs.core import spec

START = "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0"
COLLAPSING = "dorix -.-.-.-/-.1.-.-/1.00.1.-/-.-.-.- hands=13,12 move=0 turn=0 last=b2 collapse=b2:2:b3,c2,a2"
HANDS_EMPTY = "dorix -.-.-.-/-.-.-.-/-.-.-.-/000000000000000.-.-.111111111111111 hands=0,0 move=0 turn=30"

SEATS = spec.Var("k", 0, "n - 1")  # relative seats

OBSERVATION = spec.Observation(
    board=(4, 4),
    channels="9*n + 4",
    layout=spec.text("""Cell `obs[rank - 1, file]` is the square (a1 = `obs[0, 0]`), for every observer. Egocentric by
        *relative seat*: k = 0 is the observer, then the next seats in turn order (at 4 players the partner is always
        relative seat 2)."""),
    planes=(
        spec.Planes(
            "d*n + k",
            "depth{d}_rel{k}",
            "the pawn d levels below the top of the stack (d = 0: the top pawn) belongs to relative seat k",
            (spec.Var("d", 0, 5), SEATS),
        ),
        spec.Planes(
            "6*n + k",
            "deep_rel{k}",
            "relative seat k's pawns below the top 6 levels of the stack, / 15",
            (SEATS,),
            scale="15",
        ),
        spec.Planes(
            "7*n + k", "hand_rel{k}", "relative seat k's pawns in hand / p", (SEATS,), scale="p", constant=True
        ),
        spec.Planes(
            "8*n + k",
            "team_rel{k}",
            "relative seat k is on the observer's side (the observer itself and, at 4 players, its partner)",
            (SEATS,),
            constant=True,
        ),
        spec.Planes("9*n", "height", "stack height / 40", scale="40"),
        spec.Planes("9*n + 1", "collapsing", "the stack that is collapsing"),
        spec.Planes("9*n + 2", "collapse_targets", "the lower neighbours still to receive a pawn of the collapse"),
        spec.Planes(
            "9*n + 3", "must_choose", "the observer must choose where the next collapsing pawn falls", constant=True
        ),
    ),
)

ACTIONS = spec.ActionSpace(
    intro=spec.text("""Squares are numbered `4*(rank - 1) + file`: a1 = 0, b1 = 1, ..., d1 = 3, a2 = 4, ..., d4 = 15.
        During a collapse only the collapse choices can be legal; a choice is asked only when it can change the
        result."""),
    kinds=(
        spec.Actions("place", "a", "place a pawn from the hand on square a", (spec.Var("a", 0, 15),)),
        spec.Actions(
            "move",
            "16 + 16*f + t",
            "lift the own top pawn from square f and put it on square t (never legal when t = f)",
            (spec.Var("f", 0, 15), spec.Var("t", 0, 15)),
        ),
        spec.Actions(
            "fall",
            "272 + d",
            "during a collapse, the next pawn falls on the neighbour in direction d",
            (spec.Var("d", 0, 3, ("north", "east", "south", "west")),),
        ),
    ),
)

NOTATION = spec.Notation(
    board=spec.text("""`<board>` lists ranks 4 down to 1 separated by `/`, each rank's squares a..d separated by `.`; a
        square is `-` when empty, else the seats of its pawns from bottom to top (`011` = a pawn of seat 0 under two of
        seat 1; seat 1 controls it)."""),
    fields=(
        spec.Field(
            "hands=<h0>,<h1>,..",
            "Pawns in hand per seat, one entry per player; board pawns plus hand make p per player.",
            required=True,
        ),
        spec.move_field("The seat to act."),
        spec.turn_field("Turns played (passes included)."),
        spec.LIMIT_FIELD,
        spec.Field("last=<sq>|<sq>-<sq>", "The last placement (`b2`) or move (`a1-b2`)."),
        spec.Field(
            "collapse=<sq>:<left>:<sq>,..",
            "A collapse is under way: `collapse=b2:2:b3,c2,a2` says the stack on b2 is collapsing, 2 pawns "
            "are left to fall, and b3, c2 and a2 are the lower neighbours still to receive one.",
        ),
        spec.Field(
            "over=win:<side>|draw|limit",
            "The game is over: won by side `<side>` (the seat, or the team 0/1 at 4 players), drawn, or "
            "truncated by the turn limit.",
        ),
    ),
    positions=(
        spec.Position(START, "the start, 2 players"),
        spec.Position(
            "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=10,10,10,10 move=0 turn=0",
            "the start, 4 players",
            {"num_players": 4},
        ),
        spec.Position(
            "dorix -.-.-.-/-.1.-.-/1.0.1.-/-.-.-.- hands=14,12 move=0 turn=0", "seat 0 to play `b2`, which collapses"
        ),
        spec.Position(COLLAPSING, "after that `b2`: seat 0 chooses where the 2 top pawns of b2 fall"),
        spec.Position(
            "dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0", "`b2` here hands a1-d4 to seat 1"
        ),
        spec.Position(
            "dorix -.-.-.1/-.111.1.-/10.1.10.-/1.111.-.- hands=13,3 move=0 turn=1 last=b2 over=win:1",
            "after that `b2`: seat 1 has won",
        ),
        spec.limit_example(
            "dorix 2.-.-.-/-.-.-.-/-.1.-.-/0.-.-.- hands=11,11,11 move=0 turn=3 limit=50 last=a4",
            "3 players, ",
            {"num_players": 3},
        ),
    ),
    moves={
        "place": spec.Move("<sq>", "place a pawn from the hand", spec.MoveExample("b2", 5, START)),
        "move": spec.Move("<sq>-<sq>", "move an own top pawn (hand empty)", spec.MoveExample("a1-b2", 21, HANDS_EMPTY)),
        "fall": spec.Move(
            "><sq>",
            "during a collapse: the next pawn falls on that neighbour",
            spec.MoveExample(">c2", 273, COLLAPSING),
        ),
    },
)

SPEC = spec.GameSpec(
    "dorix",
    OBSERVATION,
    ACTIONS,
    NOTATION,
    seat_names=("player_0", "player_1", "player_2", "player_3"),
    defaults={"num_players": 2},
    symbols=(
        spec.Symbol("n", "the number of players (2, 3 or 4)", "num_players"),
        spec.Symbol("p", "the pawns per player (15, 12 or 10 with 2, 3 or 4 players)", "(0, 0, 15, 12, 10)[n]"),
    ),
)
