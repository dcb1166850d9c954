"""Olix's environment spec: observation planes, action encoding and notation (the one source of the
tables in ``envs/olix_v0.py``'s docstring and ``docs/rules/olix.md``; see :mod:`boardgames.envs.core.spec`)."""

from boardgames.envs.core import spec

START = "olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0"
COLUMNS = spec.Var("t", 0, 3, ("O", "L", "I", "X"))
ROWS = spec.Var("k", 0, 3, ("row1", "row2", "row3", "row4"))

OBSERVATION = spec.Observation(
    board=(11, 11),
    channels="37",
    layout=spec.text("""Cell `obs[rank - 1, file]` is the cell (a1 = `obs[0, 0]`), for both players; egocentric: "own"
        is the observing player. Column t is the score column O, L, I or X (t = 0..3), row k + 1 its row (k = 0: the
        column's lowest value .. 3: its highest)."""),
    planes=(
        spec.Planes("0", "own_pawns", "own pawns"),
        spec.Planes("1", "opp_pawns", "the opponent's pawns"),
        spec.Planes("2", "own_left", "own pawns left to place / 46", scale="46", constant=True),
        spec.Planes("3", "opp_left", "the opponent's pawns left to place / 46", scale="46", constant=True),
        spec.Planes(
            "4 + 4*t + k", "own_marker_{t}_{k}", "own marker on row k + 1 of column t", (COLUMNS, ROWS), constant=True
        ),
        spec.Planes(
            "20 + 4*t + k",
            "opp_marker_{t}_{k}",
            "the opponent's marker on row k + 1 of column t",
            (COLUMNS, ROWS),
            constant=True,
        ),
        spec.Planes("36", "last", "the cell of the last pawn placed (by either player)"),
    ),
)

ACTIONS = spec.ActionSpace(
    intro=spec.text("""The mask marks the empty cells for the player to move while it has pawns left, nothing for the
        other player."""),
    kinds=(
        spec.Actions(
            "place",
            "11*(rank - 1) + file",
            "place a pawn on that cell (a1 = 0, b1 = 1, k1 = 10, a2 = 11, f6 = 60, k11 = 120)",
            (spec.Var("rank", 1, 11), spec.Var("file", 0, 10, tuple("abcdefghijk"))),
        ),
    ),
)

NOTATION = spec.Notation(
    board=spec.text("""`<board>` (the grid) lists ranks 11 down to 1 separated by `/`; in a rank `w` is a pawn of
        player_0 (light), `b` a pawn of player_1 (dark) and a number counts empty cells (`.` is accepted for one empty
        cell too); each rank holds 11 cells. Pawns left are 46 minus each player's pawns on the grid."""),
    fields=(
        spec.move_field("The seat to play (0 or 1)."),
        spec.turn_field("Pawns placed so far."),
        spec.LIMIT_FIELD,
        spec.Field("last=<cell>", "The cell of the last pawn placed."),
        spec.Field(
            "marks=O<v><who>,L..,I..,X..",
            "The score columns in the order O, L, I, X, each `-` (no marker) or its highest marked value "
            "followed by who holds a marker there (`w`, `b` or `wb`), e.g. `marks=O-,L6w,I5wb,X4b`; written "
            "when a column holds a marker.",
        ),
        spec.Field(
            "over=super:<seat>:<type><value>|win:<seat>|draw|limit",
            "The game is over: a super pattern (e.g. `super:0:L9`), a win on the count of columns, a draw, "
            "or truncated by the turn limit.",
        ),
    ),
    positions=(
        spec.Position(START, "the start"),
        spec.Position(
            "olix 11/11/11/11/11/11/11/11/w10/w10/www5bbb move=0 turn=8",
            "player_0 holds a1, b1, c1, a2, a3 and player_1 i1, j1, k1; `d1` makes I-4 and L-6 (the source's example)",
        ),
        spec.Position(
            "olix 11/11/11/11/11/11/11/11/w10/w10/wwww4bbb move=1 turn=9 last=d1 marks=O-,L6w,I4w,X-", "after that `d1`"
        ),
        spec.Position(
            "olix bbbbbbb4/11/11/11/11/11/11/11/11/11/wwwwwwww3 move=0 turn=15 last=h1 marks=O-,L-,I7wb,X- "
            "over=super:0:I8",
            "player_0's I-8 on rank 1 is a super pattern: it wins at once",
        ),
        spec.limit_example("olix 11/11/11/11/11/11/11/11/11/11/wwwb7 move=1 turn=4 limit=30"),
    ),
    moves={
        "place": spec.Move("<cell>", "place a pawn on that cell", spec.MoveExample("f6", 60, START)),
    },
)

SPEC = spec.GameSpec("olix", OBSERVATION, ACTIONS, NOTATION)
