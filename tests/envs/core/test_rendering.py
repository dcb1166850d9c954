"""The shared picture helpers (BoardCanvas) and the plain-words lines of the pictures' side panels."""

import numpy as np

from boardgames.envs.core.rendering import SEAT_COLOURS, BoardCanvas
from boardgames.envs.registry import make_game


def _pixel_count(frame: np.ndarray, colour: tuple) -> int:
    return int(np.all(frame == np.array(colour, dtype=np.uint8), axis=-1).sum())


def test_stack_shows_every_pawn_colour_bottom_to_top_and_its_height():
    canvas = BoardCanvas(2, 1, cell_px=100)
    canvas.stack(0, [0, 1, 0, 1])
    frame = canvas.to_array()
    x0, y0, x1, y1 = canvas.cell(0)
    left = x0 + 12  # inside the bars' column
    column = frame[y0:y1, left]
    rows = [tuple(c) for c in column]
    # reading upwards the bars alternate light, dark, light, dark, each a sizeable band
    light = [i for i, c in enumerate(rows) if c == SEAT_COLOURS[0]]
    dark = [i for i, c in enumerate(rows) if c == SEAT_COLOURS[1]]
    assert len(light) >= 20 and len(dark) >= 20
    assert max(light) > max(dark)  # the bottom pawn is light
    assert min(dark) < min(light)  # the top pawn is dark
    # nothing drawn on the empty square
    assert _pixel_count(frame[:, canvas.cell(1)[0] + 3 : canvas.cell(1)[2] - 3], SEAT_COLOURS[1]) == 0


def test_arrow_and_title_stay_inside_the_picture():
    canvas = BoardCanvas(3, 3, cell_px=60, side_px=50)
    canvas.title("a very long status line " * 10)  # shrunk to fit, not cut off mid-picture
    canvas.arrow(0, 8, (215, 90, 30), offset=6, tail_fill=SEAT_COLOURS[0])
    canvas.cross(4)
    frame = canvas.to_array()
    assert _pixel_count(frame, (215, 90, 30)) > 300


def test_adix_repeat_limit_in_plain_words():
    game = make_game("adix")
    base = "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/9/ThpsThpsThpsThpsThpsThpsThpsThpsThps/4Crps4"
    state = game.from_text(base + " move=0 turn=4 quiet=4 rep=0:e1:W:2,1:e9:L:1")
    from boardgames.envs.adix.render import repeat_limit_lines

    assert repeat_limit_lines(state, 0) == [
        "repeat limit: cube on e1",
        "tilted west 2 turns in a row;",
        "may not tilt west next turn",
    ]
    assert repeat_limit_lines(state, 1)[1] == "rotated left last turn;"
    text = state.render_text()
    assert "may not tilt west next turn" in text and " x2" not in text
    assert game.from_text(base + " move=0 turn=0 quiet=0").render_rgb().shape == state.render_rgb().shape
