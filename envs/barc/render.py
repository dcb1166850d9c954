"""Pictures of a Barc duel position: a text board (``ansi``) and an RGB image (``rgb_array``/``human``),
both showing the stacks, who tops each, and both players' last orders."""

from __future__ import annotations

import math

import numpy as np

from envs.barc import rules as R
from envs.barc.game import SIDE_NAMES
from envs.core.rendering import HIGHLIGHT, SEAT_COLOURS, SEAT_OUTLINES, TEXT, BoardCanvas

ORDER_COLOURS = [(215, 90, 30), (40, 90, 200)]  # arrows of South's and North's last orders


def _who(seat: int) -> str:
    return f"player_{seat} ({SIDE_NAMES[seat]})"


def _reasons(state, seat: int) -> str:
    why = []
    if state.aligned(seat):
        why.append("3 aligned")
    if state.stacks_of(1 - seat) <= R.OUT_LIMIT:
        why.append(f"{SIDE_NAMES[1 - seat]} tops {state.stacks_of(1 - seat)} stacks")
    return " and ".join(why)


def status(state) -> str:
    """One line: the turn and what happens now, or how the game ended."""
    head = f"Barc duel, turn {state.turn}"
    d = state.data
    if not d[R.OVER]:
        return head + ": both players give their orders"
    if d[R.TRUNCATED]:
        return head + ": turn limit reached, no winner"
    if state.winner >= 0:
        return head + f": {_who(state.winner)} wins ({_reasons(state, state.winner)})"
    return head + f": draw, both reach victory (South: {_reasons(state, 0)}; North: {_reasons(state, 1)})"


def orders_line(state) -> str:
    """``"last orders: South a2-b3, North stay"`` (with the B3 outcome when they cancelled)."""
    orders = state.last_orders()
    if orders[0] is None:
        return "last orders: none yet"
    text = f"last orders: South {orders[0]}, North {orders[1]}"
    if state.last_cancelled:
        text += f" (both aimed at {orders[0][-2:]}: nobody moved)"
    return text


def _cell(pawns: tuple) -> str:
    return "".join(str(p) for p in pawns) if pawns else "."


def render_text(state) -> str:
    """The board as text: each stack as its pawns from the bottom up (0 = South, 1 = North; the last
    digit tops the stack and owns it), then the stack counts and both players' last orders."""
    cells = {sq: _cell(state.stack(sq)) for sq in range(R.CELLS)}
    w = max(3, max(len(c) for c in cells.values()) + 1)
    files = "    " + "".join(chr(ord("a") + f).ljust(w) for f in range(R.SIZE))
    lines = [status(state), files.rstrip()]
    for r in range(R.SIZE - 1, -1, -1):
        row = "".join(cells[r * R.SIZE + f].ljust(w) for f in range(R.SIZE))
        lines.append(f" {r + 1}  {row} {r + 1}")
    lines.append(files.rstrip())
    lines.append(f"stacks topped: South (0) {state.stacks_of(0)}, North (1) {state.stacks_of(1)}")
    lines.append(orders_line(state))
    return "\n".join(lines)


def _centre(canvas: BoardCanvas, sq: int) -> tuple:
    x0, y0, x1, y1 = canvas.cell(sq)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _arrow(canvas: BoardCanvas, a: tuple, b: tuple, colour: tuple, offset: float) -> None:
    """An arrow from ``a`` to ``b``, shifted sideways by ``offset`` pixels (so two arrows on one
    line stay apart)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy * offset, ux * offset
    start = (a[0] + px + ux * 14, a[1] + py + uy * 14)
    end = (b[0] + px - ux * 10, b[1] + py - uy * 10)
    canvas.draw.line([start, end], fill=colour, width=5)
    head = [end, (end[0] - ux * 14 + uy * 8, end[1] - uy * 14 - ux * 8), (end[0] - ux * 14 - uy * 8,
                                                                          end[1] - uy * 14 + ux * 8)]
    canvas.draw.polygon([(end[0] + ux * 6, end[1] + uy * 6), head[1], head[2]], fill=colour)


def _winning_lines(state) -> list:
    """Every line of 3 neighbouring squares topped by one player (to highlight)."""
    lines = []
    for sq in range(R.CELLS):
        s = state.owner(sq)
        if s < 0:
            continue
        for d in range(4):
            a, b = int(R.target(sq, d, 1)), int(R.target(sq, d, 2))
            if b >= 0 and state.owner(a) == s and state.owner(b) == s:
                lines.append((sq, b))
    return lines


def render_rgb(state, cell_px: int = 72) -> np.ndarray:
    """The board as an RGB array: each stack a disc in its top pawn's colour with its height written
    on it and its pawns as small dots (bottom pawn first); last turn's orders as arrows (orange for
    South, blue for North, crossed out when they cancelled); a line through any 3 aligned; a panel
    with the stack counts and the orders in notation."""
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=250)
    draw = canvas.draw
    canvas.title(status(state))
    pad = cell_px // 7
    for sq in range(R.CELLS):
        pawns = state.stack(sq)
        if not pawns:
            continue
        x0, y0, x1, y1 = canvas.cell(sq)
        top = pawns[-1]
        draw.ellipse((x0 + pad, y0 + pad, x1 - pad, y1 - pad - 8), fill=SEAT_COLOURS[top],
                     outline=SEAT_OUTLINES[top], width=3)
        if len(pawns) > 1:
            canvas.text(((x0 + x1) // 2, (y0 + y1) // 2 - 4), str(len(pawns)), canvas.label_font,
                        fill=SEAT_OUTLINES[top])
        dot = min(8, (cell_px - 8) // len(pawns))
        for i, p in enumerate(pawns if len(pawns) > 1 else ()):
            bx = x0 + 4 + i * dot
            draw.rectangle((bx, y1 - 10, bx + dot - 2, y1 - 4), fill=SEAT_COLOURS[p], outline=SEAT_OUTLINES[p])
    if state.data[R.OVER] and not state.data[R.TRUNCATED]:
        for a, b in _winning_lines(state):
            draw.line([_centre(canvas, a), _centre(canvas, b)], fill=HIGHLIGHT, width=7)
    for s in range(2):
        a = int(state.data[R.LAST_ORDER + s])
        if a < 0 or a == R.STAY:
            continue
        o = int(R.decode(s, a)[0])
        t = int(R.order_target(s, a))
        _arrow(canvas, _centre(canvas, o), _centre(canvas, t), ORDER_COLOURS[s], 4 if s == 0 else -4)
        if state.last_cancelled:
            cx, cy = _centre(canvas, t)
            draw.line([(cx - 14, cy - 14), (cx + 14, cy + 14)], fill=(200, 30, 30), width=5)
            draw.line([(cx - 14, cy + 14), (cx + 14, cy - 14)], fill=(200, 30, 30), width=5)
    # side panel
    x = canvas.board_right + canvas.margin + 16
    y = canvas.top + canvas.margin
    small = canvas.small_font
    orders = state.last_orders()
    for s in range(2):
        draw.ellipse((x, y, x + 22, y + 22), fill=SEAT_COLOURS[s], outline=SEAT_OUTLINES[s], width=2)
        draw.text((x + 30, y + 11), f"{_who(s)}", fill=TEXT, font=small, anchor="lm")
        draw.text((x + 30, y + 31), f"tops {state.stacks_of(s)} stacks", fill=TEXT, font=small, anchor="lm")
        last = "-" if orders[s] is None else orders[s]
        draw.line([(x, y + 51), (x + 22, y + 51)], fill=ORDER_COLOURS[s], width=5)
        draw.text((x + 30, y + 51), f"last order: {last}", fill=TEXT, font=small, anchor="lm")
        y += 80
    if state.last_cancelled:
        draw.text((x, y), f"same destination ({orders[0][-2:]}):\nnobody moved", fill=TEXT, font=small)
    return canvas.to_array()

