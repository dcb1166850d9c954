"""Playing in a pygame window with mouse clicks (``boardgames play --gui``): where the squares
of a game's picture lie, clicks turned into legal moves (for any game, from the squares its move
notation names), and the window loop."""

from __future__ import annotations

import os
import re
import sys

import numpy as np

from boardgames.envs.core.errors import IllegalActionError, NotationError
from boardgames.envs.core.game import Game, State
from boardgames.envs.core.squares import square_name
from boardgames.envs.tools.replay import GameRecord, parse_move
from boardgames.play.ending import end_line, forfeit
from boardgames.play.moves import (
    agent_label,
    legal_move_texts,
    record_label,
    result_text,
    thinking_text,
    timed_opponent_moves,
)
from boardgames.play.sides import side_name

HEADLESS_DRIVERS = ("dummy", "offscreen")


class NoDisplayError(RuntimeError):
    """There is no screen to open a pygame window on (a headless machine, a dummy video driver)."""


def no_display_reason(environ=None, platform: str | None = None) -> str | None:
    """Why a pygame window could not be seen here, judged from the environment alone (None when it
    could): a headless video driver named in ``SDL_VIDEODRIVER``, or on Linux neither ``DISPLAY`` nor
    ``WAYLAND_DISPLAY`` set (without a screen pygame opens an invisible window and waits for clicks
    forever)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    driver = environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in HEADLESS_DRIVERS:
        return f"SDL_VIDEODRIVER={driver} draws to no screen"
    has_display = environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    if platform.startswith("linux") and not driver and not has_display:
        return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def no_display_message(reason: str) -> str:
    """What to tell a player whose ``--gui`` has no screen: why, and where to play instead."""
    return (
        f"--gui needs a screen, and {reason}.\n"
        "Play in the browser instead: run the same command with --web in place of --gui (it prints a URL; "
        "on a remote machine forward the port, e.g. ssh -L 8765:127.0.0.1:8765 <host>), "
        "or without --gui to play in the terminal."
    )


class BoardGeometry:
    """Where the squares of a picture lie: from the BoardCanvas the picture was drawn on."""

    def __init__(self, canvas):
        self.files, self.ranks = canvas.files, canvas.ranks
        self.boxes = [canvas.cell(sq) for sq in range(self.files * self.ranks)]

    def square_at(self, x: int, y: int) -> str | None:
        for sq, (x0, y0, x1, y1) in enumerate(self.boxes):
            if x0 <= x < x1 and y0 <= y < y1:
                return square_name(sq, self.files)
        return None

    def box(self, name: str) -> tuple:
        file = ord(name[0]) - ord("a")
        rank = int(name[1:]) - 1
        return self.boxes[rank * self.files + file]


def render_with_geometry(state: State):
    """The RGB picture of ``state`` and its :class:`BoardGeometry` (None when the game's picture does
    not use BoardCanvas)."""
    render_canvas = getattr(state, "render_canvas", None)
    if render_canvas is None:
        return state.render_rgb(), None
    canvas = render_canvas()
    return canvas.to_array(), BoardGeometry(canvas)


_SQUARE = re.compile(r"([a-z])(\d{1,2})(?!\d)")


def squares_in(text: str, files: int, ranks: int) -> list[str]:
    """The board squares named in a move's notation, in order (``a1-b2``, ``a1xb2`` or ``a1b2`` ->
    ``['a1', 'b2']``; ``e2L`` -> ``['e2']``; ``stay`` -> ``[]``)."""
    out = []
    for m in _SQUARE.finditer(text.lower()):
        f, r = ord(m.group(1)) - ord("a"), int(m.group(2))
        if 0 <= f < files and 1 <= r <= ranks:
            out.append(f"{m.group(1)}{r}")
    return out


class ClickSelector:
    """Turns clicked squares into a legal move of ``seat``, for any game: a move is chosen when the
    squares named in its notation are exactly the clicked ones.

    ``click(square)`` returns the action to play, or None while more input is needed (then
    ``message`` says what, and ``choices`` lists the candidate moves when several match)."""

    def __init__(self, state: State, seat: int, files: int, ranks: int):
        self.state, self.seat = state, seat
        self.texts = {int(a): t for a, t in zip(state.legal_actions(seat), legal_move_texts(state, seat))}
        self.squares = {a: squares_in(t, files, ranks) for a, t in self.texts.items()}
        self.selected: list[str] = []
        self.choices: list[int] = []
        self.message = "click a square (or type a move and press Enter)"

    def clear(self) -> None:
        self.selected, self.choices = [], []
        self.message = "selection cleared"

    def _exact(self, sel):
        return [a for a, sq in self.squares.items() if sq == sel]

    def _longer(self, sel):
        return [a for a, sq in self.squares.items() if len(sq) > len(sel) and sq[: len(sel)] == sel]

    def click(self, square: str) -> int | None:
        self.choices = []
        sel = self.selected + [square]
        if self.selected and self.selected[-1] == square and self._exact(self.selected):
            sel = list(self.selected)  # the same square twice: the move that ends there
            exact, longer = self._exact(sel), []
        else:
            exact, longer = self._exact(sel), self._longer(sel)
        if not exact and not longer and self.selected:
            sel = [square]  # start again from this square
            exact, longer = self._exact(sel), self._longer(sel)
        if not exact and not longer:
            self.selected = []
            self.message = f"no legal move uses {square}"
            return None
        self.selected = sel
        if exact and not longer:
            if len(exact) == 1:
                return exact[0]
            self.choices = exact
            self.message = "several moves: press " + ", ".join(
                f"{i + 1} for {self.texts[a]}" for i, a in enumerate(exact[:9])
            )
            return None
        if exact:
            names = " / ".join(self.texts[a] for a in exact[:4])
            self.message = f"click {square} again for {names}, or the next square"
        else:
            self.message = f"{'-'.join(sel)}: click the next square"
        return None

    def next_squares(self) -> set:
        """Squares that continue the selection into a legal move (to highlight them)."""
        n = len(self.selected)
        if not n:
            return set()
        return {sq[n] for sq in self.squares.values() if len(sq) > n and sq[:n] == self.selected}

    def pick(self, number: int) -> int | None:
        """Choose the ``number``-th (1-based) of the offered ``choices``."""
        if 1 <= number <= len(self.choices):
            return self.choices[number - 1]
        return None


def _draw_selection(draw, geometry, selector) -> None:
    """Outline the squares clicked so far and those a legal move may go on to."""
    from boardgames.envs.core.rendering import HIGHLIGHT

    for name in selector.selected:
        x0, y0, x1, y1 = geometry.box(name)
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=HIGHLIGHT, width=5)
    for name in selector.next_squares():
        x0, y0, x1, y1 = geometry.box(name)
        draw.rectangle((x0 + 8, y0 + 8, x1 - 8, y1 - 8), outline=(230, 160, 30), width=3)


def _end_text(state: State, forfeited, human_seats: set, policies: dict) -> str:
    """How the game ended (``forfeited``: an agent's illegal move, else the state's end), said to the one
    human, or in the third person when the agents play every seat."""
    viewer = next(iter(human_seats)) if len(human_seats) == 1 else None
    agents = {s: agent_label(p) for s, p in policies.items()}
    if forfeited is not None:
        return end_line(forfeited, state.game.info, viewer, agents)
    return result_text(state, viewer, agents)


def play_window(game: Game, policies: dict, human_seats: set, start: State | None = None, fps: int = 30, events=None):
    """Play in a pygame window with mouse clicks (and typed moves); returns the game record.
    ``events`` (a callable returning a list of pygame events, default ``pygame.event.get``) lets a
    script drive the window. Without ``events``, a headless video driver (no screen to show the
    window on) raises :class:`NoDisplayError` rather than waiting for clicks that cannot come. While an
    agent that searches or runs a network chooses its move, the window says so (in its status strip and
    its title), and the move's seconds follow it in ``last:``."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    from PIL import Image, ImageDraw

    from boardgames.envs.core.rendering import BACKGROUND, TEXT, font

    pygame.init()
    driver = pygame.display.get_driver() if pygame.display.get_init() else None
    if events is None and (driver is None or driver in HEADLESS_DRIVERS):
        pygame.quit()
        raise NoDisplayError(no_display_message(f"pygame's video driver is {driver or 'unavailable'}"))
    pygame.display.set_caption(f"{game.info.name}: click to play")
    record = GameRecord(start if start is not None else game.new_initial_state())
    state = record.last
    typed, note = "", ""
    selector = None
    clock = pygame.time.Clock()
    get_events = events or pygame.event.get
    strip_font = font(16)
    screen = None
    chosen: dict = {}
    caption = f"{game.info.name}: click to play"
    thinking, thinking_shown = None, False  # the agents' "... is thinking" status, and whether it was drawn
    running = True
    forfeited = None  # the end of a game an agent lost by an illegal move
    while running:
        acting = [s for s in state.current_seats() if s in human_seats and s not in chosen]
        if forfeited is not None:
            acting = []
        elif not state.is_terminal() and not acting:
            if thinking is None:
                thinking = thinking_text(state, human_seats, policies)  # "" for agents that answer at once
            if not thinking or thinking_shown:
                seconds, bad = timed_opponent_moves(state, human_seats, policies, chosen)
                took = f" ({seconds:.1f} s)" if thinking else ""
                if bad is not None:
                    forfeited = forfeit(state, bad[0], bad[1], agent_label(policies[bad[0]]))
                    continue
                note = record_label(state, chosen) + took
                state = record.play(chosen)
                chosen, selector, thinking, thinking_shown = {}, None, None, False
                pygame.display.set_caption(caption)
                continue
        frame, geometry = render_with_geometry(state)
        seat = acting[0] if acting else None
        if seat is not None and selector is None:
            files = geometry.files if geometry else 0
            ranks = geometry.ranks if geometry else 0
            selector = ClickSelector(state, seat, files, ranks)
        img = Image.fromarray(frame)
        if geometry and selector:
            _draw_selection(ImageDraw.Draw(img), geometry, selector)
        canvas = Image.new("RGB", (img.width, img.height + 66), BACKGROUND)
        canvas.paste(img, (0, 0))
        d2 = ImageDraw.Draw(canvas)
        if state.is_terminal() or forfeited is not None:
            end = _end_text(state, forfeited, human_seats, policies)
            lines = [end + "  (close the window to quit)", f"last: {note}"]
        elif thinking:  # drawn once before the agents' move, which holds the window until it is chosen
            lines = [thinking, f"last: {note}"]
            pygame.display.set_caption(f"{game.info.name}: {thinking}")
            thinking_shown = True
        else:
            who = side_name(game.info, seat) if seat is not None else ""
            lines = [f"{who}: {selector.message if selector else ''}", f"typed: {typed}_   last: {note}"]
        for i, line in enumerate(lines):
            d2.text((10, img.height + 16 + 24 * i), line, fill=TEXT, font=strip_font, anchor="lm")
        surface_array = np.asarray(canvas, dtype=np.uint8)
        h, w = surface_array.shape[:2]
        if screen is None or screen.get_size() != (w, h):
            screen = pygame.display.set_mode((w, h))
        screen.blit(pygame.surfarray.make_surface(np.transpose(surface_array, (1, 0, 2))), (0, 0))
        pygame.display.flip()
        for event in get_events():
            if event.type == pygame.QUIT:
                running = False
            elif state.is_terminal() or selector is None:
                continue
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
                selector.clear()
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and geometry:
                square = geometry.square_at(*event.pos)
                if square is not None:
                    action = selector.click(square)
                    if action is not None:
                        chosen[seat], selector = action, None
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_ESCAPE:
                    typed = ""
                    selector.clear()
                elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and typed.strip():
                    try:
                        chosen[seat] = parse_move(state, typed, seat)
                        selector, typed = None, ""
                    except (IllegalActionError, NotationError) as e:
                        if selector is not None:
                            selector.message = f"illegal: {e}"
                elif event.key == pygame.K_BACKSPACE:
                    typed = typed[:-1]
                elif event.unicode and event.unicode.isdigit() and selector.choices and not typed:
                    action = selector.pick(int(event.unicode))
                    if action is not None:
                        chosen[seat], selector = action, None
                elif event.unicode and event.unicode.isprintable():
                    typed += event.unicode
        clock.tick(fps)
    pygame.display.quit()
    return record
