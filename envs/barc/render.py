"""Pictures of a Barc duel position: a text board (``ansi``) and an RGB image (``rgb_array``/``human``),
both showing the stacks, who tops each, and both players' last orders."""

from __future__ import annotations

import numpy as np

from boardgames.envs.barc import rules as R
from boardgames.envs.barc.notation import SIDE_NAMES
from boardgames.envs.core.rendering import HIGHLIGHT, SEAT_COLOURS, BoardCanvas

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


def render_canvas(state, cell_px: int = 104) -> BoardCanvas:
    """The picture of :func:`render_rgb` as the :class:`BoardCanvas` it was drawn on (which also says
    where each square lies: ``canvas.cell(square)``)."""
    canvas = BoardCanvas(R.SIZE, R.SIZE, cell_px=cell_px, side_px=300)
    draw = canvas.draw
    canvas.title(status(state))
    aligned = _winning_lines(state) if state.data[R.OVER] and not state.data[R.TRUNCATED] else []
    for a, b in aligned:  # under the stacks, which stay readable
        for sq in (a, b, (a + b) // 2):
            canvas.mark(sq, HIGHLIGHT, width=6)
        draw.line([canvas.centre(a), canvas.centre(b)], fill=HIGHLIGHT, width=9)
    # the orders under the stacks, so that no arrow hides a pawn
    for s in range(2):
        a = int(state.data[R.LAST_ORDER + s])
        if a < 0 or a == R.STAY:
            continue
        o = int(R.decode(s, a)[0])
        t = int(R.order_target(s, a))
        canvas.arrow(o, t, ORDER_COLOURS[s], offset=6 if s == 0 else -6, tail_fill=SEAT_COLOURS[s])
    for sq in range(R.CELLS):
        canvas.stack(sq, state.stack(sq), max_shown=12)
    if state.last_cancelled:
        canvas.cross(int(R.order_target(0, int(state.data[R.LAST_ORDER]))))
    # side panel
    x = canvas.panel_x
    y: float = canvas.top + canvas.margin
    orders = state.last_orders()
    for s in range(2):
        canvas.swatch(x, y, s, size=24)
        canvas.panel_text(x + 32, y + 2, f"{_who(s)}, {('light', 'dark')[s]}", bold=True)
        y += 30
        y = canvas.panel_text(x + 32, y, f"tops {state.stacks_of(s)} stacks")
        draw.line([(x, y + 10), (x + 24, y + 10)], fill=(25, 25, 25), width=10)
        draw.line([(x + 1, y + 10), (x + 23, y + 10)], fill=ORDER_COLOURS[s], width=6)
        last = "none yet" if orders[s] is None else orders[s]
        y = canvas.panel_text(x + 32, y, f"last order: {last}") + 16
    if state.last_cancelled:
        y = canvas.panel_text(x, y, f"same destination ({orders[0][-2:]}):\nnobody moved", fill=(180, 30, 30)) + 10
    y += 10
    canvas.panel_text(
        x,
        y,
        "key:\n"
        "bars: a stack's pawns, bottom to top\n"
        "badge: its height, in the colour\n"
        "  of the top pawn (its owner)\n"
        "arrows: last turn's orders" + ("\ngreen: 3 aligned" if aligned else ""),
    )
    return canvas


def render_rgb(state, cell_px: int = 104) -> np.ndarray:
    """The board as an RGB array: each stack drawn as its pawns bottom to top (one bar per pawn in its
    player's colour), with a badge in the top pawn's colour giving the height; last turn's orders as
    thick arrows (orange for South, blue for North, their tails in the mover's colour, crossed out when
    they cancelled); a line through any 3 aligned; a panel with the stack counts, the orders in
    notation and a key."""
    return render_canvas(state, cell_px).to_array()
