"""Random legal actions for the batched environments, drawn in compiled code: one xorshift64*
generator per row (``rng``, uint64, seeded by :func:`seed_rng`), so a game's random play depends only on
its own seed, not on the batch it runs in; :func:`pick_legal` draws a uniformly random legal action of
a mask, :func:`sample_actions` one per row; :func:`first_illegal` checks a batch of actions. The mask
kernels of the games with large action spaces (``legal_mask_listed``: ADIX's 5,670 actions, Barc's 1,441)
also list their legal actions in increasing order as they set them; :func:`pick_listed` then draws the
same action by reading one entry of the list instead of counting the whole mask twice."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from boardgames.envs.compiled.variants import njit_variant

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
def pick_listed(listed, rng, i):
    """:func:`pick_legal` for a mask whose legal actions are listed in increasing order in ``listed``
    (``listed[0]`` their count, then the actions: a game's ``legal_mask_listed``): the same draw and the
    same action, read from the list instead of counted in the mask."""
    k = np.int64(listed[0])
    if k == 0:
        return 0
    return np.int64(listed[1 + rand_below(rng, i, k)])


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
sample_actions_threaded = njit_variant(_sample_actions, "_threaded", parallel=True)  # cached beside the serial one


@njit(cache=True)
def sample_listed(lists, rng, out):
    """:func:`sample_actions` for masks whose legal actions are listed (``legal_mask_listed``): same draws.
    Serial whatever the batch's threads: a list entry per game is cheaper than starting them."""
    for i in range(lists.shape[0]):
        out[i] = pick_listed(lists[i], rng, i)


def seed_rng(seed, n: int) -> np.ndarray:
    """``n`` independent, never-zero xorshift states from ``seed`` (None: fresh entropy)."""
    state = np.random.SeedSequence(seed).generate_state(n, dtype=np.uint64)
    state[state == 0] = 1
    return state
