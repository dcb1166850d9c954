"""Helpers shared by the ADIX test files: positions in notation from a list of cubes."""

from __future__ import annotations

from boardgames.envs.adix.game import AdixGame

SIZE = 9


def sq(name: str) -> int:
    """'b3' -> 2 * 9 + 1 (a1 = 0, rank-major)."""
    return (int(name[1:]) - 1) * SIZE + ord(name[0]) - ord("a")


def notation(cubes: str, move: int = 0, turn: int = 0, quiet: int = 0, extra: str = "") -> str:
    """An ADIX position string from ``cubes``, space-separated ``<token>@<square>`` entries such as
    ``"Crps@e1 trps@a9"`` (token: C/T White captain/teammate, c/t Black's, then the top, north and
    east weapons), written with '.' for empty squares."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    for entry in cubes.split():
        token, name = entry.split("@")
        i = sq(name)
        assert grid[i // SIZE][i % SIZE] == ".", f"{name} given twice"
        grid[i // SIZE][i % SIZE] = token
    rows = "/".join("".join(grid[r]) for r in range(SIZE - 1, -1, -1))
    return f"adix {rows} move={move} turn={turn} quiet={quiet} {extra}".strip()


def position(cubes: str, move: int = 0, max_turns: int = 300, **kw):
    """The state of :func:`notation`."""
    return AdixGame(max_turns).from_text(notation(cubes, move, **kw))


def play(state, *moves: str):
    """Play the moves (notation) in order; returns the state."""
    for m in moves:
        state.apply(state.text_to_action(m))
    return state


def legal(state) -> set:
    """The legal moves of the seat to act, in notation."""
    return {state.action_to_text(int(a)) for a in state.legal_actions()}


def legal_from(state, square: str) -> set:
    """The legal moves of the cube on ``square``."""
    return {m for m in legal(state) if m.startswith(square) and not m[len(square)].isdigit()}
