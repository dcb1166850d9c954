"""A tiny game whose two seats act at once (three turns, a few orders each), for the paths of the replays
and the player that take one order per seat: shared by tests/envs/tools/test_replay.py and tests/play/test_play.py."""

from __future__ import annotations

import numpy as np

from boardgames.envs.core.errors import IllegalActionError


class _PennyGame:
    """Matching pennies on a 3-square board: both seats pick a square at once, three rounds; seat 0
    scores when the squares match, seat 1 when they differ."""

    def __init__(self):
        from boardgames.envs.core.game import GameInfo

        self.info = GameInfo(
            name="pennies", num_seats=2, num_actions=3, observation_shape=(6,), max_turns=3, simultaneous=True
        )

    def new_initial_state(self):
        return _PennyState(self, np.array([0, 0, 0, -1, -1], dtype=np.int64))

    def from_text(self, text):
        from boardgames.envs.core.errors import NotationError

        parts = text.split()
        if len(parts) != 4 or parts[0] != "pennies":
            raise NotationError(f"bad pennies position {text!r}")
        last = [-1 if x == "-" else "abc".index(x[0]) for x in parts[3].split(",")]
        score = [int(x) for x in parts[2].split(",")]
        return _PennyState(self, np.array([int(parts[1]), *score, *last], dtype=np.int64))


def _penny_state_class():
    from boardgames.envs.core.game import State
    from boardgames.envs.core.rendering import BoardCanvas

    class PennyState(State):
        def current_seats(self):
            return () if self.data[0] >= 3 else (0, 1)

        def legal_mask(self, seat=None):
            return np.full(3, not self.is_terminal())

        def _apply_joint(self, actions):
            self.data[1 + int(actions[0] != actions[1])] += 1
            self.data[3:5] = actions
            self.data[0] += 1

        def is_terminal(self):
            return bool(self.data[0] >= 3)

        def is_truncated(self):
            return False

        def returns(self):
            if not self.is_terminal():
                return np.zeros(2, np.float32)
            d = np.sign(self.data[1] - self.data[2])
            return np.array([d, -d], np.float32)

        @property
        def turn(self):
            return int(self.data[0])

        def observation(self, seat):
            return np.zeros(6, np.float32)

        def to_text(self):
            last = ",".join("-" if a < 0 else "abc"[a] + "1" for a in self.data[3:5])
            return f"pennies {self.data[0]} {self.data[1]},{self.data[2]} {last}"

        def action_to_text(self, action, seat=None):
            return "abc"[int(action)] + "1"

        def text_to_action(self, text, seat=None):
            t = text.strip().lower()
            if t not in ("a1", "b1", "c1"):
                raise IllegalActionError(f"{text!r} is not a1, b1 or c1")
            return "abc".index(t[0])

        def check_invariants(self):
            pass

        def render_text(self):
            return self.to_text()

        def render_rgb(self):
            canvas = BoardCanvas(3, 1, cell_px=40)
            canvas.title(self.to_text())
            for seat, a in enumerate(self.data[3:5]):
                if a >= 0:
                    x0, y0, x1, y1 = canvas.cell(int(a))
                    canvas.draw.ellipse((x0 + 5 + 15 * seat, y0 + 5, x0 + 20 + 15 * seat, y0 + 20), fill=(200, 0, 0))
            return canvas.to_array()

    return PennyState


_PennyState = _penny_state_class()
