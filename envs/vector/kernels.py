"""Batch kernels compiled from any game's rules module: N games as rows of one (N, STATE_SIZE) array.

:func:`batch_kernels` takes a game's ``rules`` module (the kernels listed in docs/architecture.md:
``legal_mask``, ``apply_action`` or ``apply_joint``, ``observe``, ``returns``, ``is_over`` and the
offsets ``TO_MOVE``, ``TRUNCATED``) and compiles, once per process and module, the loops over the
rows that the batched environments call: one compiled call steps every game of the batch. Nothing
here is written per game.

Random numbers come from one xorshift64* generator per row (``rng``, uint64), so a game's random
play depends only on its own seed, not on the batch it runs in.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit, prange

_MULT = np.uint64(2685821657736338717)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S33 = np.uint64(33)
_S56 = np.uint64(56)
_BYTES = np.uint64(0x0101010101010101)


@njit(cache=True)
def rand_below(rng, i, k):
    """Draw an integer in ``0..k-1`` from row ``i``'s generator (k >= 1)."""
    x = rng[i]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    rng[i] = x
    return np.int64((x * _MULT) >> _S33) % k


@njit(cache=True)
def _legal_in_word(m, b):
    """How many of the 8 mask bytes ``m[b:b+8]`` (each 0 or 1) are set: one 64-bit load and a multiply."""
    w = np.uint64(0)
    for j in range(8):
        w |= np.uint64(m[b + j]) << np.uint64(8 * j)
    return np.int64((w * _BYTES) >> _S56)


_LOW_BYTES = np.uint64(0x00FF00FF00FF00FF)
_PAIRS = np.uint64(0x0001000100010001)
_S8 = np.uint64(8)
_S48 = np.uint64(48)
_COUNT_WORDS = 128  # words summed bytewise before a horizontal sum (each byte then stays <= 128)
_SCAN_WORDS = 16  # words per block skipped at once while looking for the r-th legal action
_LARGE_MASK = 8 * _COUNT_WORDS  # masks from this many actions on take the block path


@njit(cache=True)
def _byte_sum(acc):
    """The sum of the 8 bytes of ``acc`` (each <= 255)."""
    s = (acc & _LOW_BYTES) + ((acc >> _S8) & _LOW_BYTES)
    return np.int64((s * _PAIRS) >> _S48)


@njit(cache=True)
def _pick_large(m, rng, i):
    """:func:`pick_legal` for a large mask (bytes ``m``): the same action and the same draw, counted by
    adding 8-byte words (bytes 0 or 1 add without carries) and skipping 16 words at a time."""
    n = m.shape[0]
    words = n // 8
    w = m[: 8 * words].view(np.uint64)
    k = 0
    blocks = words // _COUNT_WORDS
    for b in range(blocks):
        acc = np.uint64(0)
        for j in range(_COUNT_WORDS * b, _COUNT_WORDS * b + _COUNT_WORDS):
            acc += w[j]
        k += _byte_sum(acc)
    acc = np.uint64(0)
    for j in range(_COUNT_WORDS * blocks, words):
        acc += w[j]
    k += _byte_sum(acc)
    for a in range(8 * words, n):
        k += m[a]
    if k == 0:
        return 0
    r = rand_below(rng, i, k)
    start = 0
    for b in range(words // _SCAN_WORDS):
        acc = np.uint64(0)
        for j in range(_SCAN_WORDS * b, _SCAN_WORDS * b + _SCAN_WORDS):
            acc += w[j]
        c = _byte_sum(acc)
        if r < c:
            break
        r -= c
        start = _SCAN_WORDS * b + _SCAN_WORDS
    for j in range(start, words):
        c = np.int64((w[j] * _BYTES) >> _S56)
        if r < c:
            for a in range(8 * j, 8 * j + 8):
                r -= m[a]
                if r < 0:
                    return a
        r -= c
    for a in range(8 * words, n):
        r -= m[a]
        if r < 0:
            return a
    return 0


@njit(cache=True)
def pick_legal(mask, rng, i):
    """A uniformly random legal action of ``mask`` drawn with row ``i``'s generator (0 if none is legal):
    the r-th legal action for r uniform below their count. Counted 8 actions at a time (large masks:
    see :func:`_pick_large`, same result)."""
    m = mask.view(np.uint8)
    n = m.shape[0]
    if n >= _LARGE_MASK:
        return _pick_large(m, rng, i)
    words = n // 8
    k = 0
    for j in range(words):
        k += _legal_in_word(m, 8 * j)
    for a in range(8 * words, n):
        k += m[a]
    if k == 0:
        return 0
    r = rand_below(rng, i, k)
    for j in range(words):
        c = _legal_in_word(m, 8 * j)
        if r < c:
            for a in range(8 * j, 8 * j + 8):
                r -= m[a]
                if r < 0:
                    return a
        r -= c
    for a in range(8 * words, n):
        r -= m[a]
        if r < 0:
            return a
    return 0


@njit(cache=True)
def first_illegal(masks, actions):
    """The first row ``i`` whose ``actions[i]`` is not a legal action of ``masks[i]`` (out of range
    included), -1 when every action is legal: the batches check their inputs with it before playing."""
    n_actions = masks.shape[1]
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= n_actions or not masks[i, a]:
            return i
    return -1


def _sample_actions(masks, rng, out):
    """``out[i]``: a uniformly random legal action of ``masks[i]`` (generator of row i)."""
    for i in prange(masks.shape[0]):
        out[i] = pick_legal(masks[i], rng, i)


sample_actions = njit(cache=True)(_sample_actions)
sample_actions_threaded = njit(parallel=True)(_sample_actions)  # compiled on first use


def _serial_and_threaded(**functions) -> dict:
    """Each function compiled twice: as is (``prange`` runs as ``range``) and, under ``<name>_threaded``,
    with its ``prange`` loop over the games spread over every core (compiled on first use). Rows are
    independent and each row has its own generator, so both give the same results."""
    out = {}
    for name, fn in functions.items():
        out[name] = njit(fn)
        out[name + "_threaded"] = njit(parallel=True)(fn)
    return out


def seed_rng(seed, n: int) -> np.ndarray:
    """``n`` independent, never-zero xorshift states from ``seed`` (None: fresh entropy)."""
    state = np.random.SeedSequence(seed).generate_state(n, dtype=np.uint64)
    state[state == 0] = 1
    return state


# Compiled per process (a few seconds per game): numba's disk cache would key these closures by their
# name and argument types only, not by the rules module they close over, and would not see a change in it.
_CACHE: dict = {}


def batch_kernels(rules, simultaneous: bool) -> SimpleNamespace:
    """The compiled batch loops over ``rules``' kernels (cached per rules module)."""
    key = (id(rules), simultaneous)
    if key not in _CACHE:
        _CACHE[key] = (_joint_kernels if simultaneous else _turn_kernels)(rules)
    return _CACHE[key]


def _turn_kernels(rules) -> SimpleNamespace:
    legal_mask = rules.legal_mask
    apply_action = rules.apply_action
    observe = rules.observe
    returns = rules.returns
    is_over = rules.is_over
    to_move_at = rules.TO_MOVE
    truncated_at = rules.TRUNCATED

    def refresh(states, masks, obs, to_move, do_obs):
        for i in prange(states.shape[0]):
            row = states[i]
            seat = row[to_move_at]
            to_move[i] = seat
            legal_mask(row, seat, masks[i])
            if do_obs:
                observe(row, seat, obs[i])

    def step(states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs):
        """Self-play: every game plays the action of its seat to move; ended games restart."""
        for i in prange(states.shape[0]):
            row = states[i]
            apply_action(row, actions[i])
            term[i] = False
            trunc[i] = False
            rewards[i, :] = 0.0
            if is_over(row):
                returns(row, rewards[i])
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                row[:] = template
            seat = row[to_move_at]
            to_move[i] = seat
            legal_mask(row, seat, masks[i])
            if do_obs:
                observe(row, seat, obs[i])

    @njit
    def random_playouts(states, template, rng, mask, turns):
        """Self-play of uniformly random legal actions for ``turns`` steps per game, with restarts
        (the whole loop compiled: the engine's speed with nothing around it). Returns games ended."""
        ended = 0
        for i in range(states.shape[0]):
            row = states[i]
            for _ in range(turns):
                seat = row[to_move_at]
                legal_mask(row, seat, mask)
                apply_action(row, pick_legal(mask, rng, i))
                if is_over(row):
                    ended += 1
                    row[:] = template
        return ended

    @njit
    def apply_learner(states, learner, actions, opp_actions, use_random, rng, mask):
        for i in range(states.shape[0]):
            apply_action(states[i], actions[i])

    @njit
    def play_random(states, learner, rng, mask):
        """Every other seat plays uniformly random legal actions until the learner acts or the game ends."""
        for i in range(states.shape[0]):
            row = states[i]
            while not is_over(row) and row[to_move_at] != learner[i]:
                seat = row[to_move_at]
                legal_mask(row, seat, mask)
                apply_action(row, pick_legal(mask, rng, i))

    @njit
    def pending(states, learner, rows, seats):
        """The (game, seat) pairs where another seat than the learner must act now; returns their count."""
        k = 0
        for i in range(states.shape[0]):
            row = states[i]
            if not is_over(row) and row[to_move_at] != learner[i]:
                rows[k] = i
                seats[k] = row[to_move_at]
                k += 1
        return k

    @njit
    def apply_pairs(states, rows, actions):
        for k in range(rows.shape[0]):
            apply_action(states[rows[k]], actions[k])

    return SimpleNamespace(
        **_serial_and_threaded(refresh=refresh, step=step),
        random_playouts=random_playouts,
        apply_learner=apply_learner,
        play_random=play_random,
        pending=pending,
        apply_pairs=apply_pairs,
        **_common(rules),
    )


def _joint_kernels(rules) -> SimpleNamespace:
    legal_mask = rules.legal_mask
    apply_joint = rules.apply_joint
    observe = rules.observe
    returns = rules.returns
    is_over = rules.is_over
    truncated_at = rules.TRUNCATED

    def refresh(states, masks, obs, to_move, do_obs):
        for i in prange(states.shape[0]):
            row = states[i]
            for s in range(masks.shape[1]):
                legal_mask(row, s, masks[i, s])
                if do_obs:
                    observe(row, s, obs[i, s])

    def step(states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs):
        """Self-play: every game plays its joint action (one per seat); ended games restart."""
        for i in prange(states.shape[0]):
            row = states[i]
            apply_joint(row, actions[i])
            term[i] = False
            trunc[i] = False
            rewards[i, :] = 0.0
            if is_over(row):
                returns(row, rewards[i])
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                row[:] = template
            for s in range(masks.shape[1]):
                legal_mask(row, s, masks[i, s])
                if do_obs:
                    observe(row, s, obs[i, s])

    @njit
    def random_playouts(states, template, rng, mask, turns):
        ended = 0
        seats = rng.shape[0] // states.shape[0]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            row = states[i]
            for _ in range(turns):
                for s in range(seats):
                    legal_mask(row, s, mask)
                    joint[s] = pick_legal(mask, rng, i * seats + s)
                apply_joint(row, joint)
                if is_over(row):
                    ended += 1
                    row[:] = template
        return ended

    @njit
    def apply_learner(states, learner, actions, opp_actions, use_random, rng, mask):
        """The learner's action joined with the other seats' (drawn here when ``use_random``)."""
        seats = opp_actions.shape[1]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            row = states[i]
            for s in range(seats):
                joint[s] = opp_actions[i, s]
                if use_random and s != learner[i]:
                    legal_mask(row, s, mask)
                    joint[s] = pick_legal(mask, rng, i)
            joint[learner[i]] = actions[i]
            apply_joint(row, joint)

    @njit
    def play_random(states, learner, rng, mask):
        pass  # every seat acts at every turn: nobody plays between the learner's turns

    @njit
    def pending(states, learner, rows, seats):
        return 0

    @njit
    def apply_pairs(states, rows, actions):
        pass

    return SimpleNamespace(
        **_serial_and_threaded(refresh=refresh, step=step),
        random_playouts=random_playouts,
        apply_learner=apply_learner,
        play_random=play_random,
        pending=pending,
        apply_pairs=apply_pairs,
        **_common(rules),
    )


def _common(rules) -> dict:
    legal_mask = rules.legal_mask
    observe = rules.observe
    returns = rules.returns
    is_over = rules.is_over
    truncated_at = rules.TRUNCATED

    @njit
    def observe_pairs(states, rows, seats, masks, obs):
        """Mask and observation of seat ``seats[k]`` in game ``rows[k]``, into row k of masks and obs."""
        for k in range(rows.shape[0]):
            row = states[rows[k]]
            legal_mask(row, seats[k], masks[k])
            observe(row, seats[k], obs[k])

    @njit
    def observe_learner(states, learner, masks, obs):
        for i in range(states.shape[0]):
            legal_mask(states[i], learner[i], masks[i])
            observe(states[i], learner[i], obs[i])

    @njit
    def finish(states, learner, template, rng, fixed_seat, num_seats, ret, rewards, term, trunc, final_obs, restarted):
        """For every ended game: the learner's reward, terminated/truncated, its final observation; then
        the game restarts with a new learner seat (``fixed_seat`` or a random one). Returns the count."""
        n = 0
        for i in range(states.shape[0]):
            row = states[i]
            rewards[i] = 0.0
            term[i] = False
            trunc[i] = False
            restarted[i] = False
            if is_over(row):
                returns(row, ret)
                rewards[i] = ret[learner[i]]
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                observe(row, learner[i], final_obs[i])
                row[:] = template
                learner[i] = fixed_seat if fixed_seat >= 0 else rand_below(rng, i, num_seats)
                restarted[i] = True
                n += 1
        return n

    @njit
    def restart(states, which, learner, template, rng, fixed_seat, num_seats):
        for i in range(states.shape[0]):
            if which[i]:
                states[i, :] = template
                learner[i] = fixed_seat if fixed_seat >= 0 else rand_below(rng, i, num_seats)

    return dict(observe_pairs=observe_pairs, observe_learner=observe_learner, finish=finish, restart=restart)
