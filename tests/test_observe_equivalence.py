"""The optimised ``observe`` kernels against frozen copies of the implementations they replaced: the same
float32 arrays bit for bit, for every seat, on positions from random play (terminal ones included) of
every game and option set. The output array is filled with garbage first, so a kernel that forgets to
write an entry fails. Runs under NUMBA_DISABLE_JIT=1 too (modest position counts)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from numba import njit
from random_rows import random_rows

from boardgames.envs.adix import observe as AO
from boardgames.envs.adix import rules as A
from boardgames.envs.barc import observe as BO
from boardgames.envs.barc import rules as B
from boardgames.envs.dorix import observe as DO
from boardgames.envs.dorix import rules as D
from boardgames.envs.olix import observe as OO
from boardgames.envs.olix import rules as O
from boardgames.envs.registry import env_module, make_game

POSITIONS = 300  # per option set


# ----- frozen reference implementations (the observe kernels before the rewrite) ------------------------


@njit
def dorix_observe_ref(data, seat, out):
    n = data[D.NUM_PLAYERS]
    out[:] = 0.0
    base = DO.OBS_DEPTH * n
    pawns = 15.0 if n == 2 else (12.0 if n == 3 else 10.0)
    for sq in range(D.SQUARES):
        r = sq // D.SIZE
        f = sq % D.SIZE
        h = data[D.HEIGHTS + sq]
        for i in range(h):
            owner = data[D.STACKS + sq * D.MAXH + i]
            k = (owner - seat + n) % n
            depth = h - 1 - i
            if depth < DO.OBS_DEPTH:
                out[r, f, depth * n + k] = 1.0
            else:  # was ``+= 1.0 / 15.0``: spelled out as compiled (float64 sum, rounded to float32), which
                # plain Python under NUMBA_DISABLE_JIT (NumPy 2: a float32 sum) would not reproduce
                out[r, f, base + k] = np.float32(np.float64(out[r, f, base + k]) + 1.0 / 15.0)
        out[r, f, base + 3 * n] = h / D.MAXH
        for k in range(n):
            other = (seat + k) % n
            out[r, f, base + n + k] = data[D.HANDS + other] / pawns
            if D.side_of(data, other) == D.side_of(data, seat):
                out[r, f, base + 2 * n + k] = 1.0
    if data[D.PHASE] == D.COLLAPSE:
        src = data[D.SOURCE]
        out[src // D.SIZE, src % D.SIZE, base + 3 * n + 1] = 1.0
        for d in range(4):
            if data[D.TARGETS + d] == 1:
                nb = D.NEIGHBOURS[src, d]
                out[nb // D.SIZE, nb % D.SIZE, base + 3 * n + 2] = 1.0
        if data[D.TO_MOVE] == seat:
            for sq in range(D.SQUARES):
                out[sq // D.SIZE, sq % D.SIZE, base + 3 * n + 3] = 1.0


@njit
def olix_observe_ref(data, seat, out):
    out[:] = 0.0
    opp = 1 - seat
    for c in range(O.CELLS):
        o = data[O.BOARD + c]
        r = c // O.SIZE
        f = c % O.SIZE
        if o == seat:
            out[r, f, OO.OBS_OWN] = 1.0
        elif o == opp:
            out[r, f, OO.OBS_OPP] = 1.0
    out[:, :, OO.OBS_OWN_LEFT] = data[O.LEFT + seat] / O.PAWNS
    out[:, :, OO.OBS_OPP_LEFT] = data[O.LEFT + opp] / O.PAWNS
    for t in range(4):
        row = O.column_row(data, t)
        if row > 0:
            if data[O.COL_HOLD + 2 * t + seat] == 1:
                out[:, :, OO.OBS_OWN_MARKS + 4 * t + row - 1] = 1.0
            if data[O.COL_HOLD + 2 * t + opp] == 1:
                out[:, :, OO.OBS_OPP_MARKS + 4 * t + row - 1] = 1.0
    last = data[O.LAST]
    if last >= 0:
        out[last // O.SIZE, last % O.SIZE, OO.OBS_LAST] = 1.0


@njit
def adix_observe_ref(data, seat, out):
    S = A.SIZE
    out[:] = 0.0
    for sq in range(A.CELLS):
        o = A.owner_of(data, sq)
        if o < 0:
            continue
        r = sq // S
        f = sq % S
        if seat == 1:
            r = S - 1 - r
            f = S - 1 - f
        kind = A.kind_of(data, sq)
        if o == seat:
            out[r, f, AO.OBS_OWN_CAPTAIN if kind == A.CAPTAIN else AO.OBS_OWN_TEAMMATE] = 1.0
        else:
            out[r, f, AO.OBS_OPP_CAPTAIN if kind == A.CAPTAIN else AO.OBS_OPP_TEAMMATE] = 1.0
        top = A.top_of(data, sq)
        north = A.north_of(data, sq)
        east = A.east_of(data, sq)
        south = A.opposite(north, kind)
        west = A.opposite(east, kind)
        if seat == 1:
            up, right, down, left = south, west, north, east
        else:
            up, right, down, left = north, east, south, west
        out[r, f, AO.OBS_FACES + top] = 1.0
        out[r, f, AO.OBS_FACES + 4 + up] = 1.0
        out[r, f, AO.OBS_FACES + 8 + right] = 1.0
        out[r, f, AO.OBS_FACES + 12 + down] = 1.0
        out[r, f, AO.OBS_FACES + 16 + left] = 1.0
        out[r, f, AO.OBS_FACES + 20 + A.opposite(top, kind)] = 1.0
    for s in range(2):
        sq = data[A.REP_SQ + s]
        m = data[A.REP_MOVE + s]
        if sq < 0 or m < 0 or data[A.REP_COUNT + s] <= 0:
            continue
        r = sq // S
        f = sq % S
        if seat == 1:
            r = S - 1 - r
            f = S - 1 - f
            if m >= A.M_TILT_N:
                m = A.M_TILT_N + (m - A.M_TILT_N + 2) % 4
        base = AO.OBS_OWN_REP if s == seat else AO.OBS_OPP_REP
        out[r, f, base + m] = min(data[A.REP_COUNT + s], 2) / 2.0
    out[:, :, AO.OBS_QUIET] = min(data[A.QUIET], A.QUIET_DRAW) / A.QUIET_DRAW
    out[:, :, AO.OBS_TURN] = min(data[A.TURN], data[A.MAX_TURNS]) / max(data[A.MAX_TURNS], 1)
    if data[A.OVER] == 0 and data[A.TO_MOVE] == seat:
        out[:, :, AO.OBS_TO_MOVE] = 1.0


@njit
def _barc_mark_order_ref(data, seat, viewer, action, out, plane_from, plane_to, plane_stayed):
    if action < 0:
        return
    if action == B.STAY:
        out[:, :, plane_stayed] = 1.0
        return
    o, d, k = B.decode(seat, action)
    t = B.target(o, d, k)
    if viewer == 1:
        o = B.CELLS - 1 - o
        t = B.CELLS - 1 - t
    out[o // B.SIZE, o % B.SIZE, plane_from] = 1.0
    out[t // B.SIZE, t % B.SIZE, plane_to] = 1.0


@njit
def barc_observe_ref(data, seat, out):
    out[:] = 0.0
    opp = 1 - seat
    for sq in range(B.CELLS):
        h = data[B.HEIGHT + sq]
        if h == 0:
            continue
        v = sq if seat == 0 else B.CELLS - 1 - sq
        r = v // B.SIZE
        f = v % B.SIZE
        owner = B.top(data, sq)
        if owner == seat:
            out[r, f, BO.OBS_OWN] = 1.0
        else:
            out[r, f, BO.OBS_OPP] = 1.0
        north = 0
        c = data[B.COLOURS + sq]
        for i in range(h):
            north += (c >> i) & 1
        mine = north if seat == 1 else h - north
        out[r, f, BO.OBS_HEIGHT] = h / B.MAX_HEIGHT
        out[r, f, BO.OBS_OWN_PAWNS] = mine / B.PAWNS
        out[r, f, BO.OBS_OPP_PAWNS] = (h - mine) / B.PAWNS
    own, other = data[B.LAST_ORDER + seat], data[B.LAST_ORDER + opp]
    _barc_mark_order_ref(data, seat, seat, own, out, BO.OBS_OWN_FROM, BO.OBS_OWN_TO, BO.OBS_OWN_STAYED)
    _barc_mark_order_ref(data, opp, seat, other, out, BO.OBS_OPP_FROM, BO.OBS_OPP_TO, BO.OBS_OPP_STAYED)
    if data[B.LAST_CANCELLED] == 1:
        out[:, :, BO.OBS_CANCELLED] = 1.0
    out[:, :, BO.OBS_TURN] = min(1.0, data[B.TURN] / max(1, data[B.MAX_TURNS]))


REFERENCES = {
    "dorix": (D, DO, dorix_observe_ref),
    "olix": (O, OO, olix_observe_ref),
    "adix": (A, AO, adix_observe_ref),
    "barc": (B, BO, barc_observe_ref),
}

CASES = [
    pytest.param(name, options, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in options.items()) if options else name)
    for name in REFERENCES
    for options in env_module(name).CONFORMANCE_OPTIONS
]


def _positions(name, options, count, seed):
    """``count`` states (rows) from random play with the frozen reference rules, restarts included; the
    terminal states too."""
    return random_rows(make_game(name, **options), REFERENCES[name][0], count, seed)


@pytest.mark.parametrize("name, options", CASES)
def test_observe_matches_frozen_reference(name, options):
    rules, encoder, reference = REFERENCES[name]
    info = make_game(name, **options).info
    shape = tuple(info.observation_shape)
    expected = np.zeros(shape, dtype=np.float32)
    got = np.zeros(shape, dtype=np.float32)
    garbage = np.random.default_rng(1).random(shape).astype(np.float32) + 7.0
    terminal = 0
    for data in _positions(name, options, POSITIONS, seed=zlib.crc32(repr((name, options)).encode())):
        terminal += rules.is_over(data)
        for seat in range(info.num_seats):
            reference(data, seat, expected)
            got[...] = garbage
            encoder.observe(data, seat, got)
            assert np.array_equal(got, expected), (name, options, seat, np.argwhere(got != expected)[:5])
    assert terminal > 0 or name == "adix"  # terminal positions seen (ADIX games run long)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_dorix_observe_deep_stacks(num_players):
    """Stacks higher than OBS_DEPTH (rare in random play): random owners on random heights up to MAXH,
    random hands, collapses on random squares."""
    game = make_game("dorix", num_players=num_players)
    shape = tuple(game.info.observation_shape)
    gen = np.random.default_rng(num_players)
    expected = np.zeros(shape, dtype=np.float32)
    got = np.zeros(shape, dtype=np.float32)
    for _ in range(POSITIONS // 3):
        data = game.new_initial_state().data.copy()
        for sq in range(D.SQUARES):
            h = int(gen.integers(0, D.MAXH + 1)) if gen.random() < 0.5 else int(gen.integers(0, 3))
            data[D.HEIGHTS + sq] = h
            data[D.STACKS + sq * D.MAXH : D.STACKS + (sq + 1) * D.MAXH] = -1
            data[D.STACKS + sq * D.MAXH : D.STACKS + sq * D.MAXH + h] = gen.integers(0, num_players, size=h)
        data[D.HANDS : D.HANDS + num_players] = gen.integers(0, 16, size=num_players)
        if gen.random() < 0.5:
            data[D.PHASE] = D.COLLAPSE
            data[D.SOURCE] = gen.integers(0, D.SQUARES)
            data[D.TARGETS : D.TARGETS + 4] = (D.NEIGHBOURS[data[D.SOURCE]] >= 0) & (gen.random(4) < 0.6)
        data[D.TO_MOVE] = gen.integers(0, num_players)
        for seat in range(num_players):
            dorix_observe_ref(data, seat, expected)
            got[...] = 7.0
            DO.observe(data, seat, got)
            assert np.array_equal(got, expected)


def test_barc_observe_ignores_colour_bits_above_the_height():
    """Random heights, colour words with garbage above the stack, random last orders."""
    info = make_game("barc").info
    shape = tuple(info.observation_shape)
    gen = np.random.default_rng(5)
    expected = np.zeros(shape, dtype=np.float32)
    got = np.zeros(shape, dtype=np.float32)
    for _ in range(POSITIONS):
        data = make_game("barc").new_initial_state().data.copy()
        data[B.HEIGHT : B.HEIGHT + B.CELLS] = gen.integers(0, B.MAX_HEIGHT + 1, size=B.CELLS) * (
            gen.random(B.CELLS) < 0.4
        )
        data[B.COLOURS : B.COLOURS + B.CELLS] = gen.integers(0, 1 << 16, size=B.CELLS)
        data[B.TURN] = gen.integers(0, 300)
        data[B.LAST_CANCELLED] = gen.integers(0, 2)
        for s in range(2):
            legal = np.zeros(info.num_actions, dtype=np.bool_)
            B.legal_mask(make_game("barc").new_initial_state().data, s, legal)
            data[B.LAST_ORDER + s] = gen.choice([-1, B.STAY, int(gen.choice(np.flatnonzero(legal)))])
        for seat in range(2):
            barc_observe_ref(data, seat, expected)
            got[...] = 7.0
            BO.observe(data, seat, got)
            assert np.array_equal(got, expected)
