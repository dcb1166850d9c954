"""Helpers shared by the Olix test files: build positions in notation from lists of cells, play moves
(named or random)."""

from __future__ import annotations

from boardgames.envs.olix.game import OlixGame

SIZE = 11


def cell_index(name: str) -> int:
    """'b3' -> 2 * 11 + 1 (a1 = 0, rank-major)."""
    return (int(name[1:]) - 1) * SIZE + ord(name[0]) - ord("a")


def notation(
    w: str = "", b: str = "", move: int = 0, turn: int | None = None, marks: str | None = None, extra: str = ""
) -> str:
    """An Olix position string with player_0's pawns on the cells ``w`` and player_1's on ``b``
    (space-separated cell names), written with '.' for empty cells."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    count = 0
    for letter, cells in (("w", w), ("b", b)):
        for name in cells.split():
            i = cell_index(name)
            assert grid[i // SIZE][i % SIZE] == ".", f"{name} given twice"
            grid[i // SIZE][i % SIZE] = letter
            count += 1
    rows = "/".join("".join(grid[r]) for r in range(SIZE - 1, -1, -1))
    text = f"olix {rows} move={move} turn={count if turn is None else turn}"
    if marks:
        text += f" marks={marks}"
    return (text + " " + extra).strip()


def position(w: str = "", b: str = "", move: int = 0, max_turns: int = 92, **kw):
    """The state of :func:`notation`."""
    return OlixGame(max_turns).from_text(notation(w, b, move, **kw))


def play(state, *moves: str):
    """Play the moves (cell names) in order; returns the state."""
    for m in moves:
        state.apply(state.text_to_action(m))
    return state


def play_randomly(state, rng, check=None):
    """Play uniformly random legal moves (``rng``) until the game is over, calling ``check(state)``
    before each move; returns the state."""
    while not state.is_terminal():
        if check is not None:
            check(state)
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def columns(state) -> dict:
    """{"O": (value, holders), ...} for the four score columns."""
    return {t: state.column(t) for t in "OLIX"}


def only(**cols) -> dict:
    """The expected columns: the given ones, every other column empty (0, ())."""
    out = {t: (0, ()) for t in "OLIX"}
    out.update(cols)
    return out
