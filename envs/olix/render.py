"""Pictures of an Olix position: a text grid (``ansi``) and an RGB image (``rgb_array``/``human``),
both with the four score columns (O, L, I, X) and their markers beside the grid."""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.rendering import SEAT_COLOURS, SEAT_OUTLINES, TEXT, BoardCanvas, font
from boardgames.envs.core.squares import square_name
from boardgames.envs.olix import rules as R
from boardgames.envs.olix.notation import SEAT_LETTERS

COLOUR_NAMES = ("light", "dark")
LAST_RING = (220, 50, 50)
MARKED = (40, 120, 70)  # outline of the cell holding a column's markers


def _status(state) -> str:
    d = state.data
    head = f"Olix, turn {state.turn}"
    if d[R.OVER]:
        if d[R.TRUNCATED]:
            return head + ": turn limit reached, no winner"
        if state.super_pattern:
            return head + f": player_{state.winner} wins at once with the super pattern {state.super_pattern}"
        if state.winner < 0:
            return head + ": draw"
        return head + f": player_{state.winner} wins on the score columns"
    seat = state.current_seat
    return head + f": player_{seat} ({COLOUR_NAMES[seat]}) to play"


def _last_move(state) -> str:
    """``"last: f6 by player_0 (I-4, L-6)"`` or an empty string."""
    d = state.data
    last = int(d[R.LAST])
    if last < 0:
        return ""
    seat = state.owner(last)
    values = state.pattern_values(last, seat)
    made = [f"{k}-{v}" for k, v in values.items() if v]
    return f"last: {square_name(last, R.SIZE)} by player_{seat}" + (f" ({', '.join(made)})" if made else "")


def _column_cells(state, t: int) -> list:
    """Text of column t's four cells, lowest value first: the value and the markers on it."""
    v, holders = state.column(t)
    cells = []
    for k in range(4):
        value = int(R.COLUMN_VALUES[t, k])
        who = "".join(SEAT_LETTERS[s] for s in holders) if value == v else ""
        cells.append(f"{value}{who}".ljust(4))
    return cells


def render_text(state) -> str:
    """The grid as text (w = player_0, b = player_1, the last pawn in capitals), the score columns
    beside it, lowest value at the top as printed on the board."""
    d = state.data
    last = int(d[R.LAST])
    side = [
        "score columns (markers: w/b)",
        "     " + "    ".join(R.TYPE_NAMES),
    ]
    cols = [_column_cells(state, t) for t in range(4)]
    for k in range(4):
        side.append(f"row{k + 1} " + " ".join(cols[t][k] for t in range(4)))
    side.append("")
    for s in range(2):
        side.append(f"player_{s} ({SEAT_LETTERS[s]}): {state.pawns_left(s)} left, {state.columns_held(s)} columns")
    lines = [_status(state)]
    files = "     " + " ".join(chr(ord("a") + f) for f in range(R.SIZE))
    lines.append(files)
    for i, r in enumerate(range(R.SIZE - 1, -1, -1)):
        cells = []
        for f in range(R.SIZE):
            c = r * R.SIZE + f
            o = int(d[R.BOARD + c])
            ch = "." if o < 0 else SEAT_LETTERS[o]
            cells.append(ch.upper() if c == last else ch)
        row = f" {r + 1:>2}  " + " ".join(cells) + f"  {r + 1:<2}"
        if i < len(side):
            row += "   " + side[i]
        lines.append(row.rstrip())
    lines.append(files)
    extra = _last_move(state)
    if extra:
        lines.append(extra)
    return "\n".join(lines)


def render_canvas(state, cell_px: int = 52) -> BoardCanvas:
    """The picture of :func:`render_rgb` as the :class:`BoardCanvas` it was drawn on (which also says
    where each square lies: ``canvas.cell(square)``)."""
    d = state.data
    col_w, row_h = 80, 62
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=4 * col_w + 40, checkered=False)
    draw = canvas.draw
    canvas.title(_status(state))
    last = int(d[R.LAST])
    pad = cell_px // 9
    for c in range(R.CELLS):
        o = int(d[R.BOARD + c])
        if o < 0:
            continue
        x0, y0, x1, y1 = canvas.cell(c)
        draw.ellipse((x0 + pad, y0 + pad, x1 - pad, y1 - pad), fill=SEAT_COLOURS[o], outline=SEAT_OUTLINES[o], width=2)
        if c == last:
            draw.ellipse((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=LAST_RING, width=4)
    # score columns
    x = canvas.panel_x
    y: float = canvas.top + canvas.margin
    y = canvas.panel_text(x, y, "score columns", bold=True)
    header = font(24, bold=True)
    for t in range(4):
        canvas.text((x + t * col_w + col_w // 2, y + 14), R.TYPE_NAMES[t], header)
    y += 32
    value_font = font(22, bold=True)
    for t in range(4):
        v, holders = state.column(t)
        for k in range(4):
            value = int(R.COLUMN_VALUES[t, k])
            bx0, by0 = x + t * col_w + 3, y + k * row_h
            box = (bx0, by0, bx0 + col_w - 6, by0 + row_h - 4)
            held = value == v and holders
            draw.rectangle(
                box,
                fill=(240, 222, 186) if held else (226, 210, 180),
                outline=MARKED if held else (140, 115, 80),
                width=4 if held else 1,
            )
            draw.text((bx0 + 6, by0 + 4), str(value), fill=TEXT, font=value_font)
            if held:
                r = 16
                for i, s in enumerate(holders):
                    cx = bx0 + col_w - 6 - r - 5 - (len(holders) - 1 - i) * (2 * r + 3)
                    cy = by0 + row_h - 4 - r - 5
                    draw.ellipse(
                        (cx - r, cy - r, cx + r, cy + r), fill=SEAT_COLOURS[s], outline=SEAT_OUTLINES[s], width=2
                    )
    y += 4 * row_h + 18
    for s in range(2):
        canvas.swatch(x, y, s, size=24)
        acting = "  < to play" if not d[R.OVER] and s == d[R.TO_MOVE] else ""
        canvas.panel_text(x + 32, y + 2, f"player_{s} ({COLOUR_NAMES[s]}){acting}", bold=True)
        y = (
            canvas.panel_text(
                x + 32,
                y + 26,
                f"{state.pawns_left(s)} pawns left, holds {state.columns_held(s)} "
                f"column{'s' if state.columns_held(s) != 1 else ''}",
            )
            + 8
        )
    extra = _last_move(state)
    if extra:
        draw.ellipse((x + 2, y + 2, x + 22, y + 22), outline=LAST_RING, width=4)
        canvas.panel_text(x + 32, y + 2, extra.replace(" by ", "\nby "))
    return canvas


def render_rgb(state, cell_px: int = 52) -> np.ndarray:
    """The grid as an RGB array: pawns as discs, the last one ringed in red; beside it the four score
    columns (lowest value at the top), each value in large type, the cell holding the column's markers
    outlined and the markers as discs in the players' colours; then the pawns left and columns held of
    each player, and the patterns the last pawn made."""
    return render_canvas(state, cell_px).to_array()
