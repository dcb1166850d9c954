"""ADIX's environment spec: observation planes, action encoding and notation (the one source of the
tables in ``envs/adix_v0.py``'s docstring and ``docs/rules/adix.md``; see :mod:`boardgames.envs.core.spec`)."""

from boardgames.envs.core import spec

START = (
    "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/9/ThpsThpsThpsThpsThpsThpsThpsThpsThps/4Crps4 "
    "move=0 turn=0 quiet=0"
)
ANNEX = "adix trps3crps4/9/9/9/4thps4/9/9/Tpsr8/4Crps4 move=0 turn=0 quiet=0"
BLACK_TO_MOVE = (
    "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/4Tphs4/ThpsThpsThpsThps1ThpsThpsThpsThps/4Crps4 "
    "move=1 turn=1 quiet=1 rep=0:e3:N:1 last=e2e3"
)
SQUARE = spec.Var("s", 0, 80)
MOVEMENTS = spec.Var("m", 0, 5, ("rotate_left", "rotate_right", "tilt_up", "tilt_right", "tilt_down", "tilt_left"))

OBSERVATION = spec.Observation(
    board=(9, 9),
    channels="43",
    turned_for=(1,),
    layout=spec.text("""Egocentric: for White (player_0) cell `obs[rank - 1, file]` is the square (a1 = `obs[0, 0]`);
        for Black (player_1) the board is turned 180 degrees (`obs[r, f]` is the board's square `80 - (9*r + f)`, i9 =
        `obs[0, 0]`), so "up" is always away from the observer. The cube's faces f are top (the active weapon), up,
        right, down, left (the side faces as the observer sees them) and bottom; the weapons w are rock, paper, scissors
        and shelter."""),
    planes=(
        spec.Planes("0", "own_captain", "the observer's captain"),
        spec.Planes("1", "own_teammate", "the observer's teammates"),
        spec.Planes("2", "opp_captain", "the opponent's captain"),
        spec.Planes("3", "opp_teammate", "the opponent's teammates"),
        spec.Planes(
            "4 + 4*f + w",
            "face_{f}_{w}",
            "face f of the cube on the square shows weapon w",
            (
                spec.Var("f", 0, 5, ("top", "up", "right", "down", "left", "bottom")),
                spec.Var("w", 0, 3, ("rock", "paper", "scissors", "shelter")),
            ),
        ),
        spec.Planes(
            "28 + m",
            "own_a9_{m}",
            "the observer's A9 record: on the square of the cube that made movement m on its owner's last "
            "turns, that count / 2 (1: a third one is refused now)",
            (MOVEMENTS,),
            scale="2",
        ),
        spec.Planes("34 + m", "opp_a9_{m}", "the opponent's A9 record, likewise", (MOVEMENTS,), scale="2"),
        spec.Planes("40", "quiet", "turns without a displacement / 30 (A11)", scale="30", constant=True),
        spec.turn_plane("41"),
        spec.Planes("42", "to_act", "1 when the observer is to act (0 once the game is over)", constant=True),
    ),
)

ACTIONS = spec.ActionSpace(
    intro=spec.text("""Egocentric, like the observation: `s` is a square in the acting player's own frame. White's frame
        is the board (`s = 9*(rank - 1) + file`, a1 = 0); Black's is the board turned 180 degrees (Black's `s` is the
        board's square `80 - s`, its north the board's south, its east the board's west). So one policy plays both
        colours. Directions d are N, NE, E, SE, S, SW, W, NW in that frame ("north" is away from the player); move
        notation is always in board coordinates."""),
    kinds=(
        spec.Actions(
            "displace",
            "70*s + 8*d + (n - 1)",
            "displacement by n squares in direction d",
            (SQUARE, spec.Var("d", 0, 7, spec.COMPASS), spec.Var("n", 1, 8)),
        ),
        spec.Actions(
            "rotate_left", "70*s + 64", "rotate left (counter-clockwise seen from above, for both players)", (SQUARE,)
        ),
        spec.Actions("rotate_right", "70*s + 65", "rotate right (clockwise seen from above)", (SQUARE,)),
        spec.Actions(
            "tilt",
            "70*s + 66 + t",
            "tilt: roll onto the adjacent square in direction t",
            (SQUARE, spec.Var("t", 0, 3, ("N", "E", "S", "W"))),
        ),
    ),
)

NOTATION = spec.Notation(
    board=spec.text("""`<board>` lists ranks 9 down to 1 separated by `/`; in a rank a number counts empty squares (`.`
        is one empty square too) and a cube is four letters: `C` White captain, `T` White teammate, `c` / `t` Black's,
        then the weapons on its top, north and east faces (`r` rock, `p` paper, `s` scissors, `h` shelter). `Crps` =
        White captain, rock up, paper north, scissors east; `thps` = Black teammate under shelter."""),
    fields=(
        spec.move_field("The seat to act (0 White, 1 Black)."),
        spec.turn_field("Turns played."),
        spec.Field("quiet=<n>", "Consecutive turns without a displacement (A11; 30 draws).", required=True),
        spec.LIMIT_FIELD,
        spec.Field(
            "rep=<seat>:<sq>:<movement>:<count>,..",
            "The A9 records: per seat, the square of the cube that made the seat's last movement, that "
            "movement (`L`, `R`, or the tilt direction `N`, `E`, `S`, `W`) and on how many consecutive own "
            "turns (1 or 2): `rep=0:e5:L:2` means White's cube on e5 may not rotate left now.",
        ),
        spec.Field("last=<from><to>", "The squares of the last action (`e2e5`; a rotation names its square twice)."),
        spec.Field(
            "over=win:<seat>:<how>|draw|limit",
            "The game is over: won, `<how>` being `captain` (the enemy captain captured), `team` (the enemy's "
            "last teammate captured) or `stuck` (the loser had no legal action); drawn after 30 quiet turns; "
            "or truncated by the turn limit.",
        ),
    ),
    positions=(
        spec.Position(START, "the start"),
        spec.Position(ANNEX, "the annex example: the paper teammate on a2 can take the rock on a9"),
        spec.Position(BLACK_TO_MOVE, "after White's tilt `e2~e3`"),
        spec.Position(
            "adix 4Tpsr4/thps8/9/9/9/9/9/9/4Crps4 move=1 turn=11 quiet=0 last=e8e9 over=win:0:captain",
            "White's paper has taken Black's rock captain",
        ),
        spec.limit_example("adix 4crps4/9/9/4thps4/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0 limit=40"),
    ),
    moves={
        "displace": (
            spec.Move("<sq>-<sq>", "displacement", spec.MoveExample("a2-a5", 632, ANNEX)),
            spec.Move(
                "<sq>x<sq>", "displacement that captures (either sign is read)", spec.MoveExample("a2xa9", 636, ANNEX)
            ),
        ),
        "rotate_left": spec.Move(
            "<sq>L",
            "rotate left",
            (spec.MoveExample("a2L", 694, ANNEX), spec.MoveExample("e9L", 344, BLACK_TO_MOVE, seat=1)),
        ),
        "rotate_right": spec.Move("<sq>R", "rotate right", spec.MoveExample("e1R", 345, START)),
        "tilt": spec.Move(
            "<sq>~<sq>",
            "tilt onto the adjacent square",
            (spec.MoveExample("a2~b2", 697, ANNEX), spec.MoveExample("e8~e7", 976, BLACK_TO_MOVE, seat=1)),
        ),
    },
    moves_note="Black's `e8~e7` tilts towards its own north: action `70*(80 - 67) + 66`.",
)

SPEC = spec.GameSpec("adix", OBSERVATION, ACTIONS, NOTATION, turn_limit=300)
