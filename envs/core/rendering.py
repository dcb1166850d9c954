"""Drawing helpers shared by every game's pictures: a square board with coordinates on its edges
(:class:`BoardCanvas`, drawn with Pillow) and the pygame window of the ``human`` render mode
(:class:`HumanWindow`). A game draws its pieces inside the cells the canvas gives it."""

from __future__ import annotations

import os

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


def font(size: int) -> ImageFont.ImageFont:
    """A TrueType font of ``size`` pixels when one is available, else Pillow's default."""
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "Arial.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


class BoardCanvas:
    """An RGB image with a ``files`` x ``ranks`` board, coordinates on all four edges,
    and optional room on the right (``side_px``) and at the top (``top_px``) for panels.

    ``cell(square)`` gives the pixel box of a square (a1 bottom-left)."""

    def __init__(self, files: int, ranks: int, cell_px: int = 64, side_px: int = 0, top_px: int = 28,
                 checkered: bool = True):
        self.files, self.ranks, self.cell_px = files, ranks, cell_px
        self.margin = max(22, cell_px // 3)
        self.top = top_px
        width = 2 * self.margin + files * cell_px + side_px
        height = top_px + 2 * self.margin + ranks * cell_px
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.label_font = font(max(12, cell_px // 4))
        self.small_font = font(max(10, cell_px // 5))
        self.board_right = self.margin + files * cell_px
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

    def text(self, centre: tuple, s: str, fnt=None, fill=TEXT) -> None:
        """Draw ``s`` centred on ``centre``."""
        self.draw.text(centre, s, fill=fill, font=fnt or self.label_font, anchor="mm")

    def title(self, s: str) -> None:
        """A line of text across the top of the picture."""
        self.draw.text((self.margin, self.top // 2 + 2), s, fill=TEXT, font=self.label_font, anchor="lm")

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
        self.screen = None
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
