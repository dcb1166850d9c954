"""A tiny simultaneous game for the training tests: both seats pick 0..2 at once, the higher number wins
(equal numbers draw). Implements the Game/State interface without a rules kernel."""

import numpy as np

from boardgames.envs.core.game import Game, GameInfo, State


class DuelState(State):
    def current_seats(self):
        return () if self.data[0] else (0, 1)

    def legal_mask(self, seat=None):
        return np.array([not self.data[0]] * 3)

    def _apply_joint(self, actions):
        self.data[1:3] = actions
        self.data[0] = 1

    def is_terminal(self):
        return bool(self.data[0])

    def is_truncated(self):
        return False

    def returns(self):
        a, b = self.data[1:3]
        return np.array([np.sign(a - b), np.sign(b - a)], dtype=np.float32)

    @property
    def turn(self):
        return int(self.data[0])

    def observation(self, seat):
        return np.zeros((2,), dtype=np.float32)

    def to_text(self):
        return "duel"

    def action_to_text(self, action, seat=None):
        return str(action)

    def text_to_action(self, text, seat=None):
        return int(text)

    def check_invariants(self):
        pass

    def render_text(self):
        return "duel"

    def render_rgb(self):
        return np.zeros((1, 1, 3), dtype=np.uint8)


class DuelGame(Game):
    info = GameInfo(name="duel", num_seats=2, num_actions=3, observation_shape=(2,), max_turns=1, simultaneous=True)

    def new_initial_state(self):
        return DuelState(self, np.zeros(3, dtype=np.int64))

    def from_text(self, text):
        return self.new_initial_state()
