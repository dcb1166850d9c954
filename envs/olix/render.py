"""Pictures of an Olix position: a text grid (``ansi``) and an RGB image (``rgb_array``/``human``),
both with the four score columns (O, L, I, X) and their markers beside the grid."""

from __future__ import annotations

import numpy as np

from envs.core.rendering import SEAT_COLOURS, SEAT_OUTLINES, TEXT, BoardCanvas
from envs.core.squares import square_name
from envs.olix import rules as R
from envs.olix.game import SEAT_LETTERS

COLOUR_NAMES = ("light", "dark")


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
    return head + f": player_{seat} ({SEAT_LETTERS[seat]}) to play"


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


def render_rgb(state, cell_px: int = 48) -> np.ndarray:
    """The grid as an RGB array: pawns as discs, the last one ringed; beside it the four score columns
    (lowest value at the top) with the markers as small discs, and the pawns left of each player."""
    d = state.data
    col_w, row_h = 58, 46
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=4 * col_w + 40, checkered=False)
    draw = canvas.draw
    canvas.title(_status(state))
    last = int(d[R.LAST])
    pad = cell_px // 8
    for c in range(R.CELLS):
        o = int(d[R.BOARD + c])
        if o < 0:
            continue
        x0, y0, x1, y1 = canvas.cell(c)
        draw.ellipse((x0 + pad, y0 + pad, x1 - pad, y1 - pad), fill=SEAT_COLOURS[o], outline=SEAT_OUTLINES[o], width=2)
        if c == last:
            draw.ellipse((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=(220, 50, 50), width=3)
    # score columns
    x = canvas.board_right + canvas.margin + 20
    y = canvas.top + canvas.margin
    for t in range(4):
        canvas.text((x + t * col_w + col_w // 2, y + 12), R.TYPE_NAMES[t], canvas.label_font)
    y += 28
    small = canvas.small_font
    for t in range(4):
        v, holders = state.column(t)
        for k in range(4):
            value = int(R.COLUMN_VALUES[t, k])
            bx0, by0 = x + t * col_w + 3, y + k * row_h
            box = (bx0, by0, bx0 + col_w - 6, by0 + row_h - 4)
            draw.rectangle(box, fill=(232, 214, 180), outline=(120, 95, 60))
            draw.text((bx0 + 4, by0 + 3), str(value), fill=TEXT, font=small)
            if value == v:
                for i, s in enumerate(holders):
                    cx = bx0 + 14 + i * 20
                    cy = by0 + row_h - 16
                    draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=SEAT_COLOURS[s], outline=SEAT_OUTLINES[s],
                                 width=2)
    y += 4 * row_h + 16
    for s in range(2):
        draw.ellipse((x, y, x + 20, y + 20), fill=SEAT_COLOURS[s], outline=SEAT_OUTLINES[s], width=2)
        acting = " <" if not d[R.OVER] and s == d[R.TO_MOVE] else ""
        draw.text((x + 28, y + 10), f"player_{s}: {state.pawns_left(s)} left{acting}", fill=TEXT, font=small,
                  anchor="lm")
        y += 30
    extra = _last_move(state)
    if extra:
        draw.text((x, y + 6), extra.replace(" by ", "\nby "), fill=TEXT, font=small)
    return canvas.to_array()
