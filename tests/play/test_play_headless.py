"""``boardgames play --gui`` on a machine without a screen: it stops at once and points to ``--web``
(pygame would otherwise open an invisible window and wait for clicks forever)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.play.window import NoDisplayError, no_display_reason

ROOT = Path(__file__).resolve().parents[2]


def _headless_environment(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(extra)
    return env


@pytest.mark.parametrize(
    ("environ", "platform", "headless"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, "linux", True),
        ({"SDL_VIDEODRIVER": "offscreen"}, "darwin", True),
        ({}, "darwin", False),
        ({}, "win32", False),
    ],
)
def test_headless_environment_is_recognised(environ, platform, headless):
    assert (no_display_reason(environ, platform) is not None) == headless


@pytest.mark.parametrize("extra", [{}, {"SDL_VIDEODRIVER": "dummy"}], ids=["no-display", "dummy-driver"])
def test_gui_without_a_screen_exits_at_once_suggesting_web(extra):
    command = [sys.executable, "-m", "boardgames.play", "--game", "dorix", "--gui"]
    done = subprocess.run(
        command, cwd=ROOT, env=_headless_environment(**extra), capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0
    assert "--gui needs a screen" in done.stderr and "--web" in done.stderr
    assert "you are" not in done.stdout  # stopped before the game began


def test_window_refuses_a_headless_pygame_driver():
    pygame = pytest.importorskip("pygame")
    from boardgames.envs.registry import make_game
    from boardgames.play.window import play_window

    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        with pytest.raises(NoDisplayError, match="--web"):
            play_window(make_game("dorix"), {}, {0, 1})
    finally:
        pygame.quit()
        if saved is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = saved
