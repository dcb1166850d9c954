"""Pictures of an ADIX position: a text board (``ansi``) and an RGB image (``rgb_array``/``human``).

Both show every cube's owner and kind, its active (top) weapon in large, and its four side faces.
"""

from __future__ import annotations

import numpy as np

from boardgames.envs.adix import rules as R
from boardgames.envs.adix.notation import SEAT_NAMES, WEAPON_NAMES
from boardgames.envs.core.rendering import SEAT_COLOURS, SEAT_OUTLINES, BoardCanvas, font
from boardgames.envs.core.squares import square_name

TOP_SYMBOLS = "RPS#"  # text: the active weapon, '#' for the shelter
CAPTAIN_RING = (214, 168, 40)
WEAPON_COLOURS = [(120, 110, 100), (60, 120, 200), (200, 60, 50), (60, 150, 80)]  # rock, paper, scissors, shelter
LAST_MOVE = (60, 120, 220)


def _status(state) -> str:
    d = state.data
    head = f"ADIX, turn {state.turn}"
    if d[R.OVER]:
        reason = int(d[R.REASON])
        if reason == R.END_LIMIT:
            return head + ": turn limit reached, no winner"
        if reason == R.END_QUIET:
            return head + f": draw ({R.QUIET_DRAW} turns without a displacement)"
        w = state.winner
        why = {
            R.END_CAPTAIN: f"captures {SEAT_NAMES[1 - w]}'s captain",
            R.END_TEAM: f"captures {SEAT_NAMES[1 - w]}'s last teammate",
            R.END_STUCK: f"wins: {SEAT_NAMES[1 - w]} has no legal action",
        }[reason]
        return head + f": ADIX! {SEAT_NAMES[w]} (player_{w}) {why}"
    seat = int(d[R.TO_MOVE])
    return head + f": {SEAT_NAMES[seat]} (player_{seat}) to play, quiet turns {int(d[R.QUIET])}/{R.QUIET_DRAW}"


MOVEMENT_WORDS = {
    "L": ("rotated left", "rotate left"),
    "R": ("rotated right", "rotate right"),
    "N": ("tilted north", "tilt north"),
    "E": ("tilted east", "tilt east"),
    "S": ("tilted south", "tilt south"),
    "W": ("tilted west", "tilt west"),
}


def repeat_limit_lines(state, seat: int) -> list:
    """``seat``'s A9 record in plain words (no cube may make the same rotation or tilt on 3 of its
    owner's turns in a row), or an empty list when it has none."""
    rep = state.repetition(seat)
    if not rep:
        return []
    square, move, count = rep
    done, verb = MOVEMENT_WORDS[move]
    if count < 2:
        return [f"repeat limit: cube on {square}", f"{done} last turn;", "may do it once more, not 3 in a row"]
    return [f"repeat limit: cube on {square}", f"{done} {count} turns in a row;", f"may not {verb} next turn"]


def _info_lines(state) -> list:
    d = state.data
    lines = []
    for s in range(2):
        captains, mates = state.pieces(s)
        lost = (1 - captains) + (R.TEAMMATES - mates)
        rep = repeat_limit_lines(state, s)
        rep_text = f"; {' '.join(rep)}" if rep else ""
        lines.append(
            f"{SEAT_NAMES[s]}: captain {'on board' if captains else 'captured'}, {mates} teammates, "
            f"{lost} captured{rep_text}"
        )
    if d[R.LAST_FROM] >= 0:
        lines.append(f"last action: {square_name(d[R.LAST_FROM], R.SIZE)} -> {square_name(d[R.LAST_TO], R.SIZE)}")
    return lines


def render_text(state) -> str:
    """The board as text, one cube per cell as four characters: ``C``/``T`` (White captain/teammate)
    or ``c``/``t`` (Black's), the active weapon in capitals (``R``, ``P``, ``S``, ``#`` = shelter),
    then the weapons facing north and east in lower case."""
    d = state.data
    lines = [_status(state)]
    files = "     " + " ".join(chr(ord("a") + f).center(4) for f in range(R.SIZE))
    lines.append(files)
    for r in range(R.SIZE - 1, -1, -1):
        cells = []
        for f in range(R.SIZE):
            sq = r * R.SIZE + f
            if R.owner_of(d, sq) < 0:
                cells.append(" .  ")
                continue
            tok = state.token(sq)
            cells.append(tok[0] + TOP_SYMBOLS[int(R.top_of(d, sq))] + tok[2:])
        lines.append(f" {r + 1}   " + " ".join(cells) + f"   {r + 1}")
    lines.append(files)
    lines.append(
        "C/T = White captain/teammate, c/t = Black's; then top weapon (R P S, # = shelter), north face, east face"
    )
    lines += _info_lines(state)
    return "\n".join(lines)


def _glyph(draw, weapon: int, box: tuple, colour: tuple) -> None:
    """The active weapon as a picture inside ``box``: rock a disc, paper a sheet, scissors an X,
    shelter a roof over a bar."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    if weapon == R.ROCK:
        draw.ellipse(box, fill=colour, outline=(40, 35, 30), width=2)
    elif weapon == R.PAPER:
        draw.rectangle((x0 + w // 8, y0, x1 - w // 8, y1), fill=(245, 248, 255), outline=colour, width=3)
        for i in range(1, 4):
            y = y0 + i * (y1 - y0) // 4
            draw.line((x0 + w // 4, y, x1 - w // 4, y), fill=colour, width=2)
    elif weapon == R.SCISSORS:
        draw.line((x0, y0, x1, y1), fill=colour, width=max(3, w // 7))
        draw.line((x0, y1, x1, y0), fill=colour, width=max(3, w // 7))
        r = w // 6
        draw.ellipse((x0 - r // 2, y1 - r * 2 + r // 2, x0 + r * 3 // 2, y1 + r // 2), outline=colour, width=3)
        draw.ellipse((x1 - r * 3 // 2, y1 - r * 2 + r // 2, x1 + r // 2, y1 + r // 2), outline=colour, width=3)
    else:  # shelter: a little house
        mid = (x0 + x1) // 2
        draw.polygon([(x0, y0 + w // 2), (mid, y0), (x1, y0 + w // 2)], fill=colour)
        draw.rectangle((x0 + w // 6, y0 + w // 2, x1 - w // 6, y1), fill=colour)


def _crown(draw, x: float, y: float, w: float, colour: tuple) -> None:
    """A small crown, ``w`` pixels wide, its top-left at (x, y): the captain's mark."""
    h = w * 0.7
    pts = [
        (x, y + h),
        (x, y + h * 0.25),
        (x + w * 0.25, y + h * 0.6),
        (x + w * 0.5, y),
        (x + w * 0.75, y + h * 0.6),
        (x + w, y + h * 0.25),
        (x + w, y + h),
    ]
    draw.polygon(pts, fill=colour, outline=(90, 60, 10))


def render_canvas(state, cell_px: int = 80) -> BoardCanvas:
    """The picture of :func:`render_rgb` as the :class:`BoardCanvas` it was drawn on (which also says
    where each square lies: ``canvas.cell(square)``)."""
    d = state.data
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=360)
    draw = canvas.draw
    canvas.title(_status(state))
    edge_font = font(max(11, cell_px // 5), bold=True)
    for sq in (int(d[R.LAST_FROM]), int(d[R.LAST_TO])):
        if sq >= 0:
            canvas.mark(sq, LAST_MOVE)
    for sq in range(R.CELLS):
        seat, kind, top, north, east = (int(v) for v in R.cube_fields(d, sq))
        if seat < 0:
            continue
        south, west = int(R.opposite(north, kind)), int(R.opposite(east, kind))
        x0, y0, x1, y1 = canvas.cell(sq)
        pad = cell_px // 14
        box = (x0 + pad, y0 + pad, x1 - pad, y1 - pad)
        ring = max(5, cell_px // 12) if kind == R.CAPTAIN else 2
        if kind == R.CAPTAIN:
            draw.rounded_rectangle(box, radius=cell_px // 8, fill=CAPTAIN_RING, outline=(120, 85, 10), width=2)
            inner = (box[0] + ring, box[1] + ring, box[2] - ring, box[3] - ring)
            draw.rounded_rectangle(inner, radius=cell_px // 10, fill=SEAT_COLOURS[seat], outline=SEAT_OUTLINES[seat])
        else:
            draw.rounded_rectangle(
                box, radius=cell_px // 8, fill=SEAT_COLOURS[seat], outline=SEAT_OUTLINES[seat], width=2
            )
        g = int(cell_px * 0.4)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        _glyph(draw, top, (cx - g // 2, cy - g // 2, cx + g // 2, cy + g // 2), WEAPON_COLOURS[top])
        if kind == R.CAPTAIN:
            _crown(draw, x0 + pad + ring - 2, y0 + pad + ring - 2, int(cell_px * 0.26), CAPTAIN_RING)
        letter = (235, 235, 235) if seat == 1 else (70, 60, 50)
        e = pad + ring + max(11, cell_px // 5) // 2 + 2  # half the edge font's size
        for weapon, pos in ((north, (cx, y0 + e)), (south, (cx, y1 - e)), (east, (x1 - e, cy)), (west, (x0 + e, cy))):
            draw.text(pos, R.WEAPON_LETTERS[weapon], fill=letter, font=edge_font, anchor="mm")
    # side panel
    x = canvas.panel_x
    y: float = canvas.top + canvas.margin
    for s in range(2):
        captains, mates = state.pieces(s)
        lost = (1 - captains) + (R.TEAMMATES - mates)
        canvas.swatch(x, y, s, size=24, square=True)
        acting = "  < to play" if not d[R.OVER] and s == d[R.TO_MOVE] else ""
        canvas.panel_text(x + 32, y + 2, f"{SEAT_NAMES[s]} (player_{s}){acting}", bold=True)
        y += 28
        y = canvas.panel_text(
            x + 32, y, f"captain: {'on board' if captains else 'captured'}\nteammates: {mates}, captured: {lost}"
        )
        rep = repeat_limit_lines(state, s)
        if rep:
            y = canvas.panel_text(x + 32, y, "\n".join(rep), fill=(150, 40, 30))
        y += 12
    y = canvas.panel_text(x, y, f"quiet turns (no displacement): {int(d[R.QUIET])} of {R.QUIET_DRAW}") + 10
    y = canvas.panel_text(x, y, "weapon on top (the active one):", bold=True) + 2
    for w in range(4):
        _glyph(draw, w, (x + 2, y, x + 24, y + 22), WEAPON_COLOURS[w])
        name = f"{WEAPON_NAMES[w]} ({R.WEAPON_LETTERS[w]})"
        if w == R.SHELTER:
            name += ": cannot be taken"
        canvas.panel_text(x + 34, y + 2, name)
        y += 28
    _crown(draw, x + 2, y + 4, 22, CAPTAIN_RING)
    y = canvas.panel_text(x + 34, y + 2, "crown, gold frame: captain") + 2
    y = canvas.panel_text(x, y, "edge letters: the side faces")
    draw.rectangle((x, y + 3, x + 22, y + 21), outline=LAST_MOVE, width=3)
    canvas.panel_text(x + 34, y + 2, "last action")
    return canvas


def render_rgb(state, cell_px: int = 80) -> np.ndarray:
    """The board as an RGB array: each cube a square of its owner's colour (a captain in a thick gold
    frame with a crown), its active weapon drawn large in the middle (a green house for the shelter),
    the letters of its north, east, south and west faces on its edges; the last action outlined; at
    the side the pieces, the repeat limit (A9) in words and a key."""
    return render_canvas(state, cell_px).to_array()
