"""Bool masks packed eight actions to a byte (:func:`pack_bools`), as the batches' ``packed_masks=True``
writes them (:mod:`boardgames.envs.vector.packed` says why and reads them back), and the writers of a mask
kernel that writes either form itself (:func:`start_mask` and what follows it)."""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.core.extending import overload

from boardgames.envs.compiled.bits import load_bytes, nonzero_bits, store_bytes

_GATHER = np.uint64(0x0102040810204080)  # byte j (0 or 1) of a word times this: bit j of its top byte


def packed_width(num_actions: int) -> int:
    """Bytes of a packed mask of ``num_actions`` actions."""
    return (int(num_actions) + 7) // 8


def pack_bools(bools, out):
    """``out`` (uint8, :func:`packed_width` of ``len(bools)`` entries): the bool array ``bools`` packed,
    bit ``j`` of ``out[k]`` = ``bools[8 * k + j]``. Compiled (``bools`` C-contiguous): 64 entries at a time
    compared with 0 into the bits of a word (:func:`boardgames.envs.compiled.bits.nonzero_bits`), the rest eight at a
    time by a multiply and a shift."""
    out[:] = np.packbits(bools, bitorder="little")


@overload(pack_bools, inline="always")
def _pack_bools(bools, out):
    def by_words(bools, out):
        n = bools.shape[0]
        for k in range(n // 64):  # 64 entries at a time: one compare into a bit mask, one 8-byte store
            store_bytes(out, 8 * k, nonzero_bits(bools, 64 * k))
        full = n // 8
        for k in range(8 * (n // 64), full):  # then 8 at a time
            out[k] = np.uint8((load_bytes(bools, 8 * k) * _GATHER) >> np.uint64(56))
        if full < out.shape[0]:
            last = 0
            for j in range(n - 8 * full):
                if bools[8 * full + j]:
                    last |= 1 << j
            out[full] = np.uint8(last)

    return by_words


# ----- mask kernels that write either form ------------------------------------------------------------------
# A game's mask kernel written with the calls below takes a bool mask (NUM_ACTIONS entries) or a packed one
# (uint8, packed_width(NUM_ACTIONS) entries) and writes each directly: the bool one entry by entry or eight at
# a time (where bool_form gives it), the packed one as bits ORed into work words (or_bits), stored once at the
# end (finish_mask): no bool mask to clear and pack. Numba compiles one form per dtype, in which the other
# form's calls are no-ops, so each compiled kernel holds only its own writes. The rules module says so with
# ``WRITES_PACKED = True`` (the engine then hands it the packed rows: boardgames.envs.compiled.render).


def packed_words(num_actions: int) -> int:
    """Entries of the uint64 work words of a packed mask of ``num_actions`` actions (a constant the kernel
    makes them with: ``scratch(packed_words(...), np.uint64)``): the mask's words and one more, for the bits
    that :func:`or_bits` carries past the last one."""
    return int(num_actions) // 64 + 2


def is_packed(mask) -> bool:
    """Whether ``mask`` is a packed mask (uint8) rather than a bool one."""
    return mask.dtype == np.uint8


def start_mask(mask, words):
    """Clear what a mask kernel writes into: the bool ``mask`` itself, or the ``words`` of a packed one."""
    if is_packed(mask):
        words[:] = 0
    else:
        mask[:] = False


def bool_form(mask):
    """``mask`` where it is a bool mask, None where it is packed: what a kernel hands the code that writes
    bool entries (``if dense is not None``: numba compiles the test away)."""
    return None if is_packed(mask) else mask


def set_entry(dense, at, value):
    """``dense[at] = value`` where ``dense`` is a bool mask; nothing where it is None (:func:`bool_form`)."""
    if dense is not None:
        dense[at] = value


def or_bits(mask, words, at, bits):
    """A packed ``mask``: the uint64 ``bits`` ORed into its ``words`` from bit ``at`` on (bit ``i`` of ``bits``
    is action ``at + i``); a bool one: nothing. Two aligned word updates, no branch."""
    if is_packed(mask):
        j, off = divmod(int(at), 64)
        words[j] |= np.uint64((int(bits) << off) & 0xFFFF_FFFF_FFFF_FFFF)
        words[j + 1] |= np.uint64(int(bits) >> (64 - off))


def finish_mask(mask, words):
    """A packed ``mask``: its bytes from the ``words`` (action ``a`` is bit ``a % 64`` of word ``a // 64``, so
    bit ``a % 8`` of byte ``a // 8``); a bool one: nothing."""
    if is_packed(mask):
        mask[:] = words.astype("<u8").view(np.uint8)[: mask.shape[0]]


def _packed(mask) -> bool:
    """At compile time: whether ``mask`` is typed as a packed mask (a uint8 array)."""
    return isinstance(mask, types.Array) and mask.dtype == types.uint8


def _clear_words(mask, words):
    words[:] = 0


def _clear_mask(mask, words):
    mask[:] = False


def _or_bits(mask, words, at, bits):
    off = np.uint64(at) & np.uint64(63)
    j = np.uint64(at) >> np.uint64(6)
    value = np.uint64(bits)
    words[j] |= value << off
    words[j + np.uint64(1)] |= (value >> np.uint64(1)) >> (np.uint64(63) - off)  # off 0: nothing carried


def _finish_mask(mask, words):
    n = mask.shape[0]
    for k in range(n // 8):  # whole words, then the last bytes
        store_bytes(mask, 8 * k, words[k])
    for b in range(8 * (n // 8), n):
        mask[b] = np.uint8((words[b >> 3] >> np.uint64(8 * (b & 7))) & np.uint64(0xFF))


@overload(start_mask)
def _start_mask(mask, words):
    return _clear_words if _packed(mask) else _clear_mask


@overload(bool_form, inline="always")
def _bool_form(mask):
    return (lambda mask: None) if _packed(mask) else (lambda mask: mask)


@overload(set_entry)
def _set_entry(dense, at, value):
    if isinstance(dense, types.NoneType):
        return lambda dense, at, value: None

    def store(dense, at, value):
        dense[at] = value

    return store


@overload(or_bits)
def _or_bits_form(mask, words, at, bits):
    return _or_bits if _packed(mask) else (lambda mask, words, at, bits: None)


@overload(finish_mask)
def _finish_mask_form(mask, words):
    return _finish_mask if _packed(mask) else (lambda mask, words: None)
