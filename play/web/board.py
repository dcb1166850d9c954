"""What the browser page and the notebook replay show of a position, for any game, from the shared
State interface and the game's own picture: the picture drawn by ``envs/<game>/render.py`` (a PNG), the
pixel box of every square on it (the geometry of its :class:`~boardgames.envs.core.rendering.BoardCanvas`, which
the page overlays with clickable SVG squares), and a seat's legal moves in notation with the squares
each names (what a click sequence is matched against, as in the pygame window).

Nothing here imports the web framework: the notebook replay uses it without the ``[web]`` extra.
"""

from __future__ import annotations

import base64
import io

from PIL import Image

from boardgames.envs.core.game import State
from boardgames.envs.core.squares import square_name
from boardgames.play.ending import Ending, end_line, ending_of, headline, outcome_for
from boardgames.play.window import squares_in


def png_data_url(image: Image.Image, scale: float = 1.0, small: bool = False) -> str:
    """``image`` as a ``data:image/png;base64,...`` URL, scaled by ``scale``: compressed fast (the page
    is served on this machine), or ``small`` (256 colours, best compression: pictures kept in a notebook)."""
    if scale != 1.0:
        image = image.resize(
            (max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.LANCZOS
        )
    buffer = io.BytesIO()
    if small:
        image.convert("RGB").quantize(256).save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def board_view(state: State, scale: float = 1.0, small: bool = False) -> dict:
    """The picture of ``state`` and where its squares lie: ``{"png", "width", "height", "files",
    "ranks", "squares": {name: [x0, y0, x1, y1]}}`` in the picture's pixels (``scale`` applied).
    A game whose picture has no board canvas gives its RGB picture and no squares; ``small``: see
    :func:`png_data_url`."""
    render_canvas = getattr(state, "render_canvas", None)
    if render_canvas is None:
        image = Image.fromarray(state.render_rgb())
        return {
            "png": png_data_url(image, scale, small),
            "width": round(image.width * scale),
            "height": round(image.height * scale),
            "files": 0,
            "ranks": 0,
            "squares": {},
        }
    canvas = render_canvas()
    squares = {
        square_name(sq, canvas.files): [round(v * scale) for v in canvas.cell(sq)]
        for sq in range(canvas.files * canvas.ranks)
    }
    image = canvas.image
    return {
        "png": png_data_url(image, scale, small),
        "width": round(image.width * scale),
        "height": round(image.height * scale),
        "files": canvas.files,
        "ranks": canvas.ranks,
        "squares": squares,
    }


def legal_moves(state: State, seat: int, files: int, ranks: int) -> list[dict]:
    """``seat``'s legal moves in ``state``: ``[{"action", "text", "squares"}]`` in action order, where
    ``squares`` are the board squares the move's notation names, in order (clicked in that order)."""
    out = []
    for action in state.legal_actions(seat):
        text = state.action_to_text(int(action), seat)
        out.append({"action": int(action), "text": text, "squares": squares_in(text, files, ranks)})
    return out


def outcome(
    state: State, seat: int | None = None, agents: dict | None = None, ending: Ending | None = None
) -> dict | None:
    """The end of the game as the page shows it (None while it goes on): the sentence with the rule that
    ended it (``text``: said to the player at ``seat``, or without one in the third person, the
    ``agents`` beside their sides), its ``headline`` and ``reason``, the ``kind`` of end, the player's
    ``outcome`` (won, lost, draw; None without a seat), the returns per seat and whether the turn limit
    ended it. ``ending``: an end the state does not hold (an agent's illegal move), else the state's."""
    forfeited = ending is not None
    ending = ending or ending_of(state)
    if ending is None:
        return None
    info = state.game.info
    returns = ending.returns(info.num_seats) if forfeited else [float(r) for r in state.returns()]
    return {
        "text": end_line(ending, info, seat, agents),
        "headline": headline(ending, info, seat, agents),
        "reason": ending.reason,
        "kind": ending.kind,
        "outcome": None if seat is None else outcome_for(ending, seat),
        "returns": returns,
        "truncated": ending.kind == "turn limit",
    }
