"""The notation helpers every game's parser uses (envs/core/squares.py), on hand-written inputs."""

import pytest

from boardgames.envs.core.errors import NotationError
from boardgames.envs.core.squares import BoardSquares, split_position

FIELDS = ("move", "turn", "limit")


def test_board_squares_names_and_indices():
    sq = BoardSquares(9)
    assert sq.name(0) == "a1" and sq.name(8) == "i1" and sq.name(9) == "a2" and sq.name(80) == "i9"
    assert sq.parse("e5") == 4 * 9 + 4 and sq.parse(" B3 ") == 2 * 9 + 1
    assert sq.index("a2") == 9 and sq.index(9) == 9
    with pytest.raises(NotationError, match="off the board"):
        sq.parse("j1")
    with pytest.raises(NotationError, match="not a square name"):
        sq.parse("11")
    tall = BoardSquares(4, 6)
    assert tall.parse("d6") == 23
    with pytest.raises(NotationError, match=r"a1\.\.d6"):
        tall.parse("e1")


def test_split_position_reads_board_and_fields():
    board, fields = split_position("Game x/y move=1 turn=7", "a Game", "board", FIELDS, ("move", "turn"))
    assert board == "x/y"
    assert fields == {"move": "1", "turn": "7"}


@pytest.mark.parametrize(
    "text, message",
    [
        (42, "a Game position is a string, got int"),
        ("other x/y move=1 turn=0", "starts with 'game <board>'"),
        ("game", "starts with 'game <board>'"),
        ("game x/y move=1 turn=0 colour=red", r"unknown field 'colour=red' \(fields: move= turn= limit=\)"),
        ("game x/y move=1 turn=0 limit", "unknown field 'limit'"),
        ("game x/y move=1 move=0 turn=0", "field move= given twice"),
        ("game x/y move=1", "lacks its turn= field"),
    ],
)
def test_split_position_names_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        split_position(text, "a Game", "board", FIELDS, ("move", "turn"))


def test_ranks_are_read_top_rank_first():
    sq = BoardSquares(3)
    assert sq.ranks("abc/def/ghi") == [(2, "abc"), (1, "def"), (0, "ghi")]
    with pytest.raises(NotationError, match=r"the grid needs 3 ranks separated by '/', got 2"):
        sq.ranks("abc/def", "grid")


def test_stack_board_cells_and_writing():
    sq = BoardSquares(3)
    # rank 3: a3 empty, b3 = seat 1 on seat 0, c3 empty; rank 2 empty; rank 1: a1 = seat 2, c1 = 0, 0
    board = "-.01.-/-.-.-/2.-.00"
    assert sq.stack_cells(board) == [(7, "01"), (0, "2"), (2, "00")]
    stacks = {7: (0, 1), 0: (2,), 2: [0, 0]}
    assert sq.write_stacks(lambda s: stacks.get(s, ())) == board
    with pytest.raises(NotationError, match=r"rank 2 needs 3 squares separated by '\.', got 2"):
        sq.stack_cells("-.-.-/-.-/-.-.-")
