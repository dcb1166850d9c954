"""Random Olix games against a brute-force recomputation of the rules, invariants, speed, and the
PettingZoo tests (api_test, seed_test, render_test) for olix_v0.

The brute force shares nothing with the engine: after every move it lists EVERY pattern of the
mover on the grid (every straight and diagonal segment, every L with every pair of arm lengths,
every rectangle), keeps those containing the new pawn, and replays the score columns literally
from ruling O5 (one marker per player and column, markers below a column's highest value removed).
"""

from __future__ import annotations

import numpy as np
import pytest
from olix_helpers import play_randomly

from boardgames.envs import olix_v0
from boardgames.envs.olix.game import OlixGame

SIZE = 11
TOP = {"O": 9, "L": 8, "I": 7, "X": 7}
LOW = {"O": 4, "L": 5, "I": 4, "X": 4}
ROWS = {"O": [4, 6, 8, 9], "L": [5, 6, 7, 8], "I": [4, 5, 6, 7], "X": [4, 5, 6, 7]}


def brute_values(grid: np.ndarray, cell: tuple, p: int, box: tuple) -> dict:
    """Largest value of each pattern type of player p containing ``cell`` (rank, file), listing all
    patterns whose cells lie in ``box`` = (r_lo, r_hi, f_lo, f_hi) (where all pawns are)."""
    r_lo, r_hi, f_lo, f_hi = box
    best = {"O": 0, "L": 0, "I": 0, "X": 0}

    def inside(r, f):
        return r_lo <= r <= r_hi and f_lo <= f <= f_hi

    def own(cells):
        return all(inside(r, f) and grid[r, f] == p for r, f in cells)

    for r in range(r_lo, r_hi + 1):
        for f in range(f_lo, f_hi + 1):
            # straight and diagonal segments starting at (r, f)
            for kind, dr, df in (("I", 0, 1), ("I", 1, 0), ("X", 1, 1), ("X", 1, -1)):
                for n in range(4, SIZE + 1):
                    cells = [(r + k * dr, f + k * df) for k in range(n)]
                    if not own(cells):
                        break
                    if cell in cells:
                        best[kind] = max(best[kind], n)
            # L with its corner at (r, f): every direction pair and every arm length >= 3
            for dh in (1, -1):
                for dv in (1, -1):
                    for a in range(3, SIZE + 1):
                        arm_h = [(r, f + k * dh) for k in range(a)]
                        if not own(arm_h):
                            break  # a longer arm holds this one
                        for b in range(3, SIZE + 1):
                            arm_v = [(r + k * dv, f) for k in range(1, b)]
                            if not own(arm_v):
                                break
                            if cell in arm_h or cell in arm_v:
                                best["L"] = max(best["L"], a + b - 1)
            # O with its lower-left corner at (r, f)
            for r1 in range(r + 1, r_hi + 1):
                for f1 in range(f + 1, f_hi + 1):
                    border = [
                        (y, x) for y in range(r, r1 + 1) for x in range(f, f1 + 1) if y in (r, r1) or x in (f, f1)
                    ]
                    if not own(border):
                        continue
                    if not (r <= cell[0] <= r1 and f <= cell[1] <= f1):
                        continue
                    interior = int(np.sum(grid[r + 1 : r1, f + 1 : f1] >= 0))
                    best["O"] = max(best["O"], len(border) + interior)
    return best


class BruteColumns:
    """The score columns kept literally as in ruling O5: each player has one marker per column,
    at a value or off the board."""

    def __init__(self):
        self.marker = [dict.fromkeys("OLIX"), dict.fromkeys("OLIX")]

    def mark(self, kind: str, value: int, p: int) -> None:
        highest = max((m[kind] for m in self.marker if m[kind] is not None), default=0)
        if value >= highest:
            self.marker[p][kind] = value
        highest = max(highest, value)
        for m in self.marker:  # markers left below the highest value are removed
            if m[kind] is not None and m[kind] < highest:
                m[kind] = None

    def as_columns(self) -> dict:
        out = {}
        for kind in "OLIX":
            values = [m[kind] for m in self.marker if m[kind] is not None]
            v = max(values, default=0)
            out[kind] = (v, tuple(p for p in range(2) if self.marker[p][kind] == v and v))
        return out

    def count_winner(self) -> int:
        rows = [
            sorted((ROWS[k].index(m[k]) + 1 for k in "OLIX" if m[k] is not None), reverse=True) for m in self.marker
        ]
        if len(rows[0]) != len(rows[1]):
            return 0 if len(rows[0]) > len(rows[1]) else 1
        for a, b in zip(rows[0], rows[1]):
            if a != b:
                return 0 if a > b else 1
        return -1


def replay_and_compare(moves_policy, rng, max_moves=92) -> int:
    """Play one game with ``moves_policy(state, rng) -> cell`` and compare after every move; returns
    the number of patterns scored (to make sure the games exercise the columns)."""
    game = OlixGame()
    s = game.new_initial_state()
    grid = -np.ones((SIZE, SIZE), dtype=int)
    brute = BruteColumns()
    lo_r = lo_f = SIZE
    hi_r = hi_f = -1
    scored = 0
    for _ in range(max_moves):
        if s.is_terminal():
            break
        a = moves_policy(s, rng)
        if a is None:
            break
        p = s.current_seat
        s.apply(a)
        r, f = divmod(a, SIZE)
        grid[r, f] = p
        lo_r, hi_r, lo_f, hi_f = min(lo_r, r), max(hi_r, r), min(lo_f, f), max(hi_f, f)
        values = brute_values(grid, (r, f), p, (lo_r, hi_r, lo_f, hi_f))
        assert s.pattern_values(a, p) == values, (s.to_text(), values)
        supers = [k for k in "OLIX" if values[k] > TOP[k]]
        for k in "OLIX":
            if LOW[k] <= values[k] <= TOP[k]:
                brute.mark(k, values[k], p)
                scored += 1
        assert {k: s.column(k) for k in "OLIX"} == brute.as_columns(), s.to_text()
        s.check_invariants()
        if supers:
            assert s.is_terminal() and s.winner == p and s.super_pattern == f"{supers[0]}-{values[supers[0]]}"
            break
        assert not s.is_terminal() or s.turn == 92
    if s.is_terminal() and s.super_pattern is None:
        assert s.winner == brute.count_winner()
    return scored


def region_policy(size: int, clump: float):
    """Moves inside a size x size square at a random place; with probability ``clump`` next to one of
    the mover's own pawns (so that patterns form often)."""
    offset = {}

    def policy(s, rng):
        if "r" not in offset:
            offset["r"], offset["f"] = (int(x) for x in rng.integers(0, SIZE - size + 1, size=2))
        r0, f0 = offset["r"], offset["f"]
        empty = [(r, f) for r in range(r0, r0 + size) for f in range(f0, f0 + size) if s.owner(r * SIZE + f) < 0]
        if not empty:
            return None
        me = s.current_seat
        if rng.random() < clump:
            near = [
                (r, f)
                for r, f in empty
                if any(
                    0 <= r + dr < SIZE and 0 <= f + df < SIZE and s.owner((r + dr) * SIZE + f + df) == me
                    for dr in (-1, 0, 1)
                    for df in (-1, 0, 1)
                )
            ]
            if near:
                empty = near
        r, f = empty[int(rng.integers(len(empty)))]
        return r * SIZE + f

    return policy


@pytest.mark.parametrize("seed", range(8))
def test_columns_match_brute_force_on_small_random_games(seed):
    rng = np.random.default_rng(100 + seed)
    scored = 0
    for game_index in range(20):
        size = 4 + (seed + game_index) % 4  # 4x4 .. 7x7 regions
        scored += replay_and_compare(region_policy(size, clump=0.3 + 0.1 * (game_index % 5)), rng)
    assert scored > 0


def test_columns_match_brute_force_on_full_random_games():
    rng = np.random.default_rng(7)

    def anywhere(s, r):
        return int(r.choice(s.legal_actions()))

    for _ in range(3):
        replay_and_compare(anywhere, rng)


def test_random_playouts_conserve_pawns():
    rng = np.random.default_rng(3)
    game = OlixGame()

    def check(s):
        for p in range(2):  # pawns on the grid + pawns left = 46 per player
            on_grid = sum(s.owner(c) == p for c in range(121))
            assert on_grid + s.pawns_left(p) == 46
        s.check_invariants()

    for _ in range(30):
        s = play_randomly(game.new_initial_state(), rng, check)
        s.check_invariants()
        assert game.from_text(s.to_text()) == s


# Speed is measured by `boardgames bench` (the engine row), never by a timed test.


# api_test, seed_test and render_test run for every game in tests/envs/adapters/test_conformance.py.


def test_env_reset_from_a_position_and_render_modes():
    e = olix_v0.env(render_mode="ansi")
    e.reset(options={"position": "olix 11/11/11/11/11/11/11/11/11/11/www8 move=0 turn=3"})
    state = e.unwrapped.game_state
    e.step(state.text_to_action("d1"))
    text = e.render()
    assert "row1 4    5    4w   4" in text and "player_0 (w): 42 left" in text and "I-4" in text
    e = olix_v0.env(render_mode="rgb_array")
    e.reset(seed=1)
    frame = e.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[1] > frame.shape[0]  # columns beside
