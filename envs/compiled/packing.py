"""Bool masks packed eight actions to a byte (:func:`pack_bools`), as the batches' ``packed_masks=True``
writes them (:mod:`boardgames.envs.vector.packed` says why and reads them back)."""

from __future__ import annotations

import numpy as np
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
