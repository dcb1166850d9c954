"""Pictures of a Dorix position: a text board (``ansi``) and an RGB image (``rgb_array``/``human``)."""

from __future__ import annotations

import numpy as np

from envs.core.rendering import HIGHLIGHT, SEAT_COLOURS, SEAT_OUTLINES, TEXT, BoardCanvas, font
from envs.core.squares import square_name
from envs.dorix import rules as R

CELL_WIDTH = 9
MAX_SHOWN = 8  # pawns drawn per stack; higher stacks show their top pawns and the height


def _status(state) -> str:
    d = state.data
    game = state.game
    head = f"Dorix, {game.num_players} players, turn {state.turn}"
    if d[R.PHASE] == R.OVER:
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


def _fitting_font(canvas: BoardCanvas, text: str, room: int, size: int):
    """The largest font of at most ``size`` pixels in which ``text`` fits ``room`` pixels."""
    fnt = font(size)
    while size > 10 and canvas.draw.textlength(text, font=fnt) > room:
        size -= 1
        fnt = font(size)
    return fnt


def _title(canvas: BoardCanvas, text: str) -> None:
    """The status line across the top, in the largest font that fits the picture's width."""
    fnt = _fitting_font(canvas, text, canvas.image.width - 2 * canvas.margin, max(12, canvas.cell_px // 4))
    canvas.draw.text((canvas.margin, canvas.top // 2 + 2), text, fill=TEXT, font=fnt, anchor="lm")


def render_rgb(state, cell_px: int = 110) -> np.ndarray:
    """The board as an RGB array: stacks drawn as discs bottom to top, the height in the corner,
    the two long diagonals outlined, the last move and a collapse highlighted, hands at the side."""
    d = state.data
    n = state.game.num_players
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=280, checkered=False)
    draw = canvas.draw
    _title(canvas, _status(state))
    for sq in R.DIAGONALS.ravel():
        x0, y0, x1, y1 = canvas.cell(int(sq))
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=(150, 110, 60), width=3)
    highlights = []
    if d[R.LAST_TO] >= 0:
        highlights.append((int(d[R.LAST_TO]), (60, 120, 220)))
    if d[R.PHASE] == R.COLLAPSE:
        src = int(d[R.SOURCE])
        highlights.append((src, (220, 60, 60)))
        highlights += [(int(R.NEIGHBOURS[src, k]), HIGHLIGHT) for k in range(4) if d[R.TARGETS + k]]
    for sq, colour in highlights:
        x0, y0, x1, y1 = canvas.cell(sq)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=colour, width=4)
    disc_h = (cell_px - 30) // MAX_SHOWN
    for sq in range(R.SQUARES):
        pawns = state.stack(sq)
        if not pawns:
            continue
        x0, y0, x1, y1 = canvas.cell(sq)
        shown = pawns[-MAX_SHOWN:]
        for i, owner in enumerate(shown):
            top_y = y1 - 10 - (i + 1) * disc_h
            draw.rounded_rectangle(
                (x0 + 14, top_y, x1 - 26, top_y + disc_h - 1),
                radius=4,
                fill=SEAT_COLOURS[owner],
                outline=SEAT_OUTLINES[owner],
            )
        canvas.text((x1 - 13, y0 + 14), str(len(pawns)), canvas.small_font)
    # side panel: seats, colours and hands
    x = canvas.board_right + canvas.margin + 10
    y = canvas.top + canvas.margin + 10
    room = canvas.image.width - x - 44
    draw.text((x, y + 6), "pawns in hand:", fill=TEXT, font=canvas.small_font, anchor="lm")
    y += 30
    lines = []
    for s in range(n):
        team = f" (team {s % 2})" if n == 4 else ""
        acting = " <" if d[R.PHASE] != R.OVER and s == d[R.TO_MOVE] else ""
        lines.append(f"player_{s}{team}: {state.hand(s)}{acting}")
    longest = max(lines, key=lambda t: canvas.draw.textlength(t, font=canvas.small_font))
    fnt = _fitting_font(canvas, longest, room, canvas.small_font.size)
    for s, line in enumerate(lines):
        draw.rounded_rectangle((x, y, x + 28, y + 20), radius=4, fill=SEAT_COLOURS[s], outline=SEAT_OUTLINES[s])
        draw.text((x + 36, y + 10), line, fill=TEXT, font=fnt, anchor="lm")
        y += 32
    return canvas.to_array()
