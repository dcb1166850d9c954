"""Drawing helpers shared by every game's pictures: a square board with coordinates on its edges
(:class:`BoardCanvas`, drawn with Pillow) and the pygame window of the ``human`` render mode
(:class:`HumanWindow`). A game draws its pieces inside the cells the canvas gives it."""

from __future__ import annotations

import math
import os
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

# One palette for every game: seat colours, board and text.
SEAT_COLOURS = [(240, 236, 222), (40, 40, 46), (200, 60, 50), (50, 110, 200)]
SEAT_OUTLINES = [(90, 80, 60), (200, 200, 210), (110, 20, 15), (15, 45, 100)]
BOARD_LIGHT = (222, 196, 150)
BOARD_DARK = (186, 150, 100)
GRID = (90, 70, 45)
TEXT = (30, 30, 30)
BACKGROUND = (250, 248, 242)
HIGHLIGHT = (40, 180, 90)


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """A TrueType font of ``size`` pixels (``bold`` when asked and available), else Pillow's default."""
    names = ("DejaVuSans-Bold.ttf", "Arial Bold.ttf", "DejaVuSans.ttf") if bold else ("DejaVuSans.ttf", "Arial.ttf")
    for name in names + ("DejaVuSans-Bold.ttf",):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def ink_on(fill: tuple) -> tuple:
    """Black or white, whichever reads better on ``fill``."""
    return (20, 20, 20) if sum(fill) > 380 else (245, 245, 245)


class BoardCanvas:
    """An RGB image with a ``files`` x ``ranks`` board, coordinates on all four edges,
    and optional room on the right (``side_px``) and at the top (``top_px``) for panels.

    ``cell(square)`` gives the pixel box of a square (a1 bottom-left). The drawing helpers every game
    shares: :meth:`title` (the status line, fitted to the width), :meth:`stack` (a stack of pawns bottom
    to top with its height), :meth:`arrow` (a move), :meth:`mark` (a square outlined),
    :meth:`panel_text` and :meth:`swatch` (the side panel). Panel text is at least
    ``PANEL_FONT_PX`` pixels high, whatever the cell size, so it stays readable on big boards."""

    PANEL_FONT_PX = 16

    def __init__(
        self, files: int, ranks: int, cell_px: int = 64, side_px: int = 0, top_px: int = 36, checkered: bool = True
    ):
        self.files, self.ranks, self.cell_px = files, ranks, cell_px
        self.margin = max(26, cell_px // 3)
        self.top = top_px
        width = 2 * self.margin + files * cell_px + side_px
        height = top_px + 2 * self.margin + ranks * cell_px
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.label_font = font(min(max(16, cell_px // 4), self.margin - 6), bold=True)
        self.board_right = self.margin + files * cell_px
        self.panel_x = self.board_right + self.margin + 12  # where a side panel starts
        for sq in range(files * ranks):
            r, f = divmod(sq, files)
            dark = (r + f) % 2 == 0
            fill = (BOARD_DARK if dark else BOARD_LIGHT) if checkered else BOARD_LIGHT
            self.draw.rectangle(self.cell(sq), fill=fill, outline=GRID)
        for f in range(files):
            x = self.margin + f * cell_px + cell_px // 2
            for y in (self.top + self.margin // 2, self.top + self.margin + ranks * cell_px + self.margin // 2):
                self.text((x, y), chr(ord("a") + f), self.label_font)
        for r in range(ranks):
            y = self.top + self.margin + (ranks - 1 - r) * cell_px + cell_px // 2
            for x in (self.margin // 2, self.board_right + self.margin // 2):
                self.text((x, y), str(r + 1), self.label_font)

    def cell(self, square: int) -> tuple:
        """Pixel box (x0, y0, x1, y1) of ``square`` (index = rank * files + file)."""
        r, f = divmod(square, self.files)
        x0 = self.margin + f * self.cell_px
        y0 = self.top + self.margin + (self.ranks - 1 - r) * self.cell_px
        return (x0, y0, x0 + self.cell_px, y0 + self.cell_px)

    def centre(self, square: int) -> tuple:
        """Pixel centre of ``square``."""
        x0, y0, x1, y1 = self.cell(square)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def text(self, centre: tuple, s: str, fnt=None, fill=TEXT) -> None:
        """Draw ``s`` centred on ``centre``."""
        self.draw.text(centre, s, fill=fill, font=fnt or self.label_font, anchor="mm")

    def fit_font(self, text: str, room: float, size: int, bold: bool = False):
        """The largest font of at most ``size`` pixels (and at least 11) in which ``text`` fits ``room``."""
        fnt = font(size, bold)
        while size > 11 and self.draw.textlength(text, font=fnt) > room:
            size -= 1
            fnt = font(size, bold)
        return fnt

    def title(self, s: str) -> None:
        """The status line across the top, as large as the picture's width allows (at most 22 pixels)."""
        room = self.image.width - 2 * self.margin
        fnt = self.fit_font(s, room, min(22, max(16, self.top - 14)), bold=True)
        self.draw.text((self.margin, self.top // 2 + 4), s, fill=TEXT, font=fnt, anchor="lm")

    def panel_text(
        self,
        x: float,
        y: float,
        s: str,
        bold: bool = False,
        fill=TEXT,
        room: float | None = None,
        size: int | None = None,
    ) -> float:
        """Lines of side-panel text from (x, y) down (top-left anchor), in the panel font (``size``
        pixels when given), each line shrunk to fit ``room`` pixels (by default up to the picture's
        right edge); returns the y below them."""
        size = size or self.PANEL_FONT_PX
        room = room if room is not None else self.image.width - x - 6
        for line in s.split("\n"):
            self.draw.text((x, y), line, fill=fill, font=self.fit_font(line, room, size, bold))
            y += round(size * 1.3)
        return y

    def swatch(self, x: float, y: float, seat: int, size: int = 22, square: bool = False) -> None:
        """A seat's colour sample (a disc, or a rounded square) with its top-left at (x, y)."""
        box = (x, y, x + size, y + size)
        if square:
            self.draw.rounded_rectangle(
                box, radius=size // 5, fill=SEAT_COLOURS[seat], outline=SEAT_OUTLINES[seat], width=2
            )
        else:
            self.draw.ellipse(box, fill=SEAT_COLOURS[seat], outline=SEAT_OUTLINES[seat], width=2)

    def mark(self, square: int, colour: tuple, width: int = 4, inset: int = 1) -> None:
        """Outline ``square`` in ``colour`` (the last move, a square to choose)."""
        x0, y0, x1, y1 = self.cell(square)
        self.draw.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=colour, width=width)

    def arrow(self, a: int, b: int, colour: tuple, offset: float = 0.0, tail_fill: tuple | None = None) -> None:
        """A thick arrow from the centre of square ``a`` to that of ``b`` with a dark edge, shifted
        sideways by ``offset`` pixels (two arrows on one line stay apart); its tail is a disc filled
        with ``tail_fill`` (e.g. the mover's colour) so the arrow says whose move it was."""
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        dx, dy = bx - ax, by - ay
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        px, py = -uy * offset, ux * offset
        w = max(6, self.cell_px // 11)
        head = 3 * w
        start = (ax + px, ay + py)
        tip = (bx + px - ux * self.cell_px * 0.3, by + py - uy * self.cell_px * 0.3)  # the target stays visible
        neck = (tip[0] - ux * head, tip[1] - uy * head)
        edge = (25, 25, 25)
        self.draw.line([start, neck], fill=edge, width=w + 4)
        self.draw.line([start, neck], fill=colour, width=w)
        wing = head * 0.6
        poly = [tip, (neck[0] + uy * wing, neck[1] - ux * wing), (neck[0] - uy * wing, neck[1] + ux * wing)]
        self.draw.polygon(poly, fill=colour, outline=edge, width=2)
        r = w + 3
        self.draw.ellipse(
            (start[0] - r, start[1] - r, start[0] + r, start[1] + r),
            fill=tail_fill or colour,
            outline=colour,
            width=max(3, w // 2),
        )

    def cross(self, square: int, colour: tuple = (200, 30, 30)) -> None:
        """A large X over ``square`` (a move that did not happen)."""
        cx, cy = self.centre(square)
        r = self.cell_px * 0.3
        w = max(5, self.cell_px // 12)
        for (x0, y0), (x1, y1) in (((cx - r, cy - r), (cx + r, cy + r)), ((cx - r, cy + r), (cx + r, cy - r))):
            self.draw.line([(x0, y0), (x1, y1)], fill=(255, 255, 255), width=w + 4)
            self.draw.line([(x0, y0), (x1, y1)], fill=colour, width=w)

    def stack(self, square: int, owners, max_shown: int = 8, badge: bool = True) -> None:
        """The pawns of ``square`` bottom to top as bars in their seats' colours (``owners``: seats,
        bottom first); a badge in the top-right corner in the top pawn's colour gives the height.
        Above ``max_shown`` pawns the lowest ones are summed up as a grey "+k" bar."""
        owners = [int(o) for o in owners]
        if not owners:
            return
        x0, y0, x1, y1 = self.cell(square)
        c = self.cell_px
        pad = max(5, c // 14)
        d = max(20, int(c * 0.27))  # badge diameter
        hidden = max(0, len(owners) - max_shown)
        shown = owners[hidden:]
        slots = len(shown) + (1 if hidden else 0)
        room = (y1 - pad) - (y0 + pad)
        bar_h = max(5, min(int(c * 0.22), room // max(slots, 1)))
        right = x1 - pad - (d + 4 if badge else 0)
        left = x0 + pad
        y = y1 - pad
        if hidden:
            self.draw.rounded_rectangle(
                (left, y - bar_h + 1, right, y), radius=2, fill=(150, 150, 150), outline=(80, 80, 80)
            )
            fnt = font(max(9, bar_h - 2))
            self.text(((left + right) / 2, y - bar_h / 2), f"+{hidden} below", fnt, fill=(255, 255, 255))
            y -= bar_h
        for o in shown:
            self.draw.rounded_rectangle(
                (left, y - bar_h + 1, right, y),
                radius=min(4, bar_h // 3),
                fill=SEAT_COLOURS[o],
                outline=SEAT_OUTLINES[o],
                width=2 if bar_h >= 8 else 1,
            )
            y -= bar_h
        if badge:
            top = shown[-1]
            bx1, by0 = x1 - pad + 2, y0 + pad - 2
            self.draw.ellipse((bx1 - d, by0, bx1, by0 + d), fill=SEAT_COLOURS[top], outline=SEAT_OUTLINES[top], width=2)
            self.text(
                (bx1 - d / 2, by0 + d / 2 + 1),
                str(len(owners)),
                font(int(d * 0.62), bold=True),
                fill=ink_on(SEAT_COLOURS[top]),
            )

    def to_array(self) -> np.ndarray:
        """The picture as a uint8 (H, W, 3) array."""
        return np.asarray(self.image, dtype=np.uint8).copy()


class HumanWindow:
    """A pygame window that shows RGB frames (the ``human`` render mode)."""

    def __init__(self, caption: str, fps: int = 2):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pygame = pygame
        pygame.init()
        pygame.display.set_caption(caption)
        self.screen: Any = None  # pygame's Surface, once the window is shown
        self.clock = pygame.time.Clock()
        self.fps = fps

    def show(self, frame: np.ndarray) -> None:
        pg = self.pygame
        h, w = frame.shape[:2]
        if self.screen is None or self.screen.get_size() != (w, h):
            self.screen = pg.display.set_mode((w, h))
        surface = pg.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        self.screen.blit(surface, (0, 0))
        pg.event.pump()
        pg.display.flip()
        if os.environ.get("SDL_VIDEODRIVER") != "dummy":  # nobody watches a headless window: don't wait
            self.clock.tick(self.fps)

    def close(self) -> None:
        self.pygame.display.quit()
