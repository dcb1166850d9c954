"""Legal masks packed eight actions to a byte: the batches' ``packed_masks=True`` option.

A packed mask of ``A`` actions is ``ceil(A / 8)`` uint8 entries; action ``a`` is legal when bit ``a % 8``
of byte ``a // 8`` is set (numpy's ``np.packbits(mask, bitorder="little")``; the unused high bits of the
last byte are 0). ADIX's mask shrinks from 5,670 bytes to 709, Barc's from 1,441 per seat to 181.

Why: a batch writes every game's mask at every step, and a large batch's masks do not stay in the core's
cache. ADIX writes 5,670 bytes of mask and 3,483 of uint8 observation per game and step; past about 200
games per core the step spends its time waiting on those stores, and the throughput falls with the batch
size (docs/performance.md). Packed, the masks of 1,024 games take 0.7 MB instead of 5.8.

How: the batch loops (:mod:`boardgames.envs.vector.loops`) let the game's own mask kernel write its bool mask into
a work array on the stack (:func:`boardgames.envs.compiled.views.scratch`, which stays in the L1 cache), then pack
it into the batch's row (:func:`pack_bools`, a multiply per eight entries). Nothing is written per game.

The learner's side unpacks them where it uses them: :func:`unpack_masks` (numpy) or
:func:`unpack_masks_torch` (on the learner's device, after the eighth of the bytes crossed to it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from boardgames.envs.compiled.bits import bit_count, load_bytes, lowest_bit
from boardgames.envs.compiled.packing import pack_bools, packed_width  # noqa: F401  (read from here too)
from boardgames.envs.compiled.sampling import rand_below
from boardgames.envs.compiled.variants import njit_variant


def unpack_masks(packed: np.ndarray, num_actions: int) -> np.ndarray:
    """The bool masks of ``packed`` (any leading shape, packed masks on the last axis): shape
    ``packed.shape[:-1] + (num_actions,)``, a new array."""
    bits = np.unpackbits(packed, axis=-1, count=int(num_actions), bitorder="little")
    return bits.view(np.bool_)


def unpack_masks_torch(packed, num_actions: int):
    """:func:`unpack_masks` for a torch uint8 tensor (``torch.tensor(batch.masks)``, a copy since the batch's
    masks are read-only, moved to the learner's device first: an eighth of the bytes to copy), computed on
    its device."""
    import torch

    shifts = torch.arange(8, dtype=torch.uint8, device=packed.device)
    bits = (packed.unsqueeze(-1) >> shifts) & 1
    return bits.flatten(-2)[..., : int(num_actions)].bool()


@njit(cache=True)
def first_illegal_packed(packed, actions, num_actions):
    """:func:`boardgames.envs.compiled.sampling.first_illegal` for packed masks (2-D, one row per action): the first
    row whose action is out of ``0..num_actions-1`` or not legal, else -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= num_actions or not (packed[i, a >> 3] >> (a & 7)) & 1:
            return i
    return -1


@njit(cache=True)
def _nth_bit(word, r):
    """The index of the ``r``-th set bit (from 0, lowest first) of the uint64 ``word`` (it has more than r)."""
    for _ in range(r):
        word &= word - np.uint64(1)
    return np.int64(lowest_bit(word))


@njit(cache=True)
def pick_packed(packed, rng, i):
    """:func:`boardgames.envs.compiled.sampling.pick_legal` for a packed mask: the same draw of row ``i``'s generator
    and the same action (the r-th legal one, r uniform below their count; 0 if none is legal), counted 64
    actions at a time."""
    n = packed.shape[0]
    words = n // 8
    k = 0
    for j in range(words):
        k += bit_count(load_bytes(packed, 8 * j))
    for b in range(8 * words, n):
        k += bit_count(np.uint64(packed[b]))
    if k == 0:
        return 0
    r = rand_below(rng, i, k)
    for j in range(words):
        word = load_bytes(packed, 8 * j)
        c = bit_count(word)
        if r < c:
            return 64 * j + _nth_bit(word, r)
        r -= c
    for b in range(8 * words, n):
        word = np.uint64(packed[b])
        c = bit_count(word)
        if r < c:
            return 8 * b + _nth_bit(word, r)
        r -= c
    return 0


def _sample_packed(packed, rng, out):
    """:func:`boardgames.envs.compiled.sampling.sample_actions` for packed masks (2-D): the same draws and actions."""
    for i in prange(packed.shape[0]):
        out[i] = pick_packed(packed[i], rng, i)


sample_packed = njit(cache=True)(_sample_packed)
sample_packed_threaded = njit_variant(_sample_packed, "_threaded", parallel=True)  # cached beside the serial one
