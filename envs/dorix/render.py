"""Pictures of a Dorix position: a text board (``ansi``) and an RGB image (``rgb_array``/``human``)."""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.rendering import HIGHLIGHT, BoardCanvas
from boardgames.envs.core.squares import square_name
from boardgames.envs.dorix import rules as R

CELL_WIDTH = 9
MAX_SHOWN = 8  # pawns drawn per stack; higher stacks show their top pawns and the height
DIAGONAL, LAST_MOVE, COLLAPSE = (150, 110, 60), (60, 120, 220), (220, 60, 60)


def _status(state) -> str:
    d = state.data
    game = state.game
    head = f"Dorix, {game.num_players} players, turn {state.turn}"
    if d[R.OVER]:
        if d[R.TRUNCATED]:
            return head + ": turn limit reached, no winner"
        w = int(d[R.WINNER])
        if w < 0:
            return head + ": draw"
        if game.num_players == 4:
            return head + f": team {w} (player_{w} + player_{w + 2}) wins"
        return head + f": player_{w} wins"
    seat = int(d[R.TO_MOVE])
    if d[R.PHASE] == R.COLLAPSE:
        return head + f": player_{seat} chooses where the pawns of {square_name(d[R.SOURCE], 4)} fall"
    return head + f": player_{seat} to play"


def render_text(state) -> str:
    """The board as text: each square lists its pawns bottom to top by seat number."""
    d = state.data
    lines = [_status(state)]
    hands = ", ".join(f"player_{s}: {state.hand(s)}" for s in range(state.game.num_players))
    lines.append(f"hands: {hands}")
    border = "   +" + "+".join("-" * CELL_WIDTH for _ in range(R.SIZE)) + "+"
    lines.append(border)
    for r in range(R.SIZE - 1, -1, -1):
        cells = []
        for f in range(R.SIZE):
            sq = r * R.SIZE + f
            pawns = "".join(str(p) for p in state.stack(sq))
            if len(pawns) > CELL_WIDTH - 2:
                pawns = ".." + pawns[-(CELL_WIDTH - 4) :]
            mark = "*" if d[R.PHASE] == R.COLLAPSE and sq == d[R.SOURCE] else " "
            cells.append((mark + pawns).ljust(CELL_WIDTH))
        lines.append(f" {r + 1} |" + "|".join(cells) + "|")
        lines.append(border)
    lines.append("    " + "".join(chr(ord("a") + f).center(CELL_WIDTH + 1) for f in range(R.SIZE)))
    lines.append("(pawns bottom to top by seat; the last digit is the top; * marks a collapsing stack)")
    return "\n".join(lines)


def render_canvas(state, cell_px: int = 110) -> BoardCanvas:
    """The picture of :func:`render_rgb` as the :class:`BoardCanvas` it was drawn on (which also says
    where each square lies: ``canvas.cell(square)``)."""
    d = state.data
    n = state.game.num_players
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=300, checkered=False)
    canvas.title(_status(state))
    for sq in R.DIAGONALS.ravel().tolist():
        canvas.mark(int(sq), DIAGONAL, width=3, inset=3)
    if d[R.LAST_TO] >= 0:
        canvas.mark(int(d[R.LAST_TO]), LAST_MOVE)
    if d[R.PHASE] == R.COLLAPSE:
        src = int(d[R.SOURCE])
        canvas.mark(src, COLLAPSE)
        for k in range(4):
            if d[R.TARGETS + k]:
                canvas.mark(int(R.NEIGHBOURS[src, k]), HIGHLIGHT)
    for sq in range(R.SQUARES):
        canvas.stack(sq, state.stack(sq), max_shown=MAX_SHOWN)
    # side panel: seats, colours and hands, then a key
    x = canvas.panel_x
    y: float = canvas.top + canvas.margin
    y = canvas.panel_text(x, y, "pawns in hand:", bold=True) + 4
    for s in range(n):
        team = f" (team {s % 2})" if n == 4 else ""
        acting = "  < to play" if not d[R.OVER] and s == d[R.TO_MOVE] else ""
        canvas.swatch(x, y, s, size=22, square=True)
        canvas.panel_text(x + 30, y + 1, f"player_{s}{team}: {state.hand(s)}{acting}")
        y += 32
    y += 16
    key = [(DIAGONAL, "long diagonals (to control)"), (LAST_MOVE, "last move")]
    if d[R.PHASE] == R.COLLAPSE:
        key += [(COLLAPSE, "collapsing stack"), (HIGHLIGHT, "where a pawn may fall")]
    y = canvas.panel_text(x, y, "bars: a stack's pawns, bottom to top\nbadge: height, top pawn's colour") + 6
    for colour, what in key:
        canvas.draw.rectangle((x, y + 1, x + 22, y + 19), outline=colour, width=3)
        y = canvas.panel_text(x + 30, y, what)
    return canvas


def render_rgb(state, cell_px: int = 110) -> np.ndarray:
    """The board as an RGB array: each stack drawn as its pawns bottom to top (one bar per pawn in its
    seat's colour) with a badge in the top pawn's colour giving the height; the two long diagonals
    outlined, the last move and a collapse highlighted; hands and a key at the side."""
    return render_canvas(state, cell_px).to_array()
