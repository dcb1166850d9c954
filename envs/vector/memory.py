"""The batches' large arrays on huge pages: :func:`batch_zeros` is ``np.zeros`` that asks Linux to back an
array of 2 MiB or more with 2 MiB pages.

A batch of 1,024 ADIX games writes 9.4 MB of masks and observations per step. On 4 KiB pages that is about
2,300 pages, more than the core's translation cache holds (2,048 entries on this machine), so every game's
rows cost page-table walks on top of their cache misses. Linux's transparent huge pages cut that to a
handful of pages, but only for memory aligned on 2 MiB and marked with ``madvise(MADV_HUGEPAGE)`` where the
system's setting is "madvise" (numpy marks its own allocations of 4 MiB and more, unaligned, so partly).
The array is an ordinary C-contiguous numpy array over an anonymous memory map (zero-filled by the
kernel), kept alive by the array itself; elsewhere, or when the system refuses, plain ``np.zeros``. The
cost: the array's last huge page is mapped whole, at most 2 MiB of memory more per array.
"""

from __future__ import annotations

import math
import mmap

import numpy as np

HUGE_PAGE = 2 << 20  # bytes: the x86-64 huge page, and the size from which an array gets them


def batch_zeros(shape, dtype) -> np.ndarray:
    """``np.zeros(shape, dtype)``, on 2 MiB-aligned memory marked for huge pages when it is 2 MiB or more
    and the platform has ``madvise(MADV_HUGEPAGE)`` (Linux)."""
    dtype = np.dtype(dtype)
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < HUGE_PAGE or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(shape, dtype)
    length = -(-nbytes // HUGE_PAGE) * HUGE_PAGE + HUGE_PAGE  # room to start on a 2 MiB boundary
    try:
        region = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        region.madvise(mmap.MADV_HUGEPAGE)
    except (OSError, ValueError):  # no memory map, or huge pages refused: the ordinary array
        return np.zeros(shape, dtype)
    raw = np.frombuffer(region, dtype=np.uint8)  # holds the map: unmapped when the last view goes
    start = -raw.ctypes.data % HUGE_PAGE
    return raw[start : start + nbytes].view(dtype).reshape(shape)


def readonly_view(array: np.ndarray) -> np.ndarray:
    """A view of ``array``'s memory that cannot be written, not even by setting its ``writeable`` flag back:
    it is made from a read-only buffer. The batches hand their masks out this way, so that the legality
    check, which reads the batch's own array, sees only what the rules kernels wrote."""
    view = np.frombuffer(array.reshape(-1).data.toreadonly(), dtype=array.dtype)
    return view.reshape(array.shape)


def batch_tile(row: np.ndarray, count: int) -> np.ndarray:
    """``np.tile(row, (count, 1))`` into :func:`batch_zeros`' memory: the batches' states."""
    out = batch_zeros((int(count), row.shape[0]), row.dtype)
    out[...] = row
    return out
