"""Small compiled helpers of the generated engines (:mod:`boardgames.envs.compiled.engines`): observations
stored as uint8 (:func:`quantize`), the list of a mask's legal actions (:func:`list_legal`) and the float
work buffer of the quantizing batch loops (:func:`fresh_buffer`)."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.extending import overload


@njit(cache=True)
def quantize(src, dst):
    """``dst`` (uint8, same number of entries as the float32 ``src``, both contiguous): each value of
    ``src`` in [0, 1] as the nearest of 0, 1/255, ..., 1 times 255 (0 and 1 exactly; outside, clipped)."""
    s = src.reshape(-1)
    d = dst.reshape(-1)
    for j in range(s.shape[0]):  # no branches: the loop is vectorized (about 0.15 ns per entry)
        v = min(max(s[j], np.float32(0.0)), np.float32(1.0))
        d[j] = np.uint8(v * np.float32(255.0) + np.float32(0.5))


@njit(cache=True)
def list_legal(mask, listed):
    """``listed[0]`` the number of legal actions of ``mask``, ``listed[1:]`` them in increasing order: what
    a game's ``legal_mask_listed`` writes as it goes, for the games without one."""
    count = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            count += 1
            listed[count] = a
    listed[0] = count


def fresh_buffer(proto):
    """A work buffer like ``proto`` (a new uninitialised float32 array of its shape), or None where
    ``proto`` is None: the loops that quantize observations build each one there first."""
    return None if proto is None else np.empty_like(proto)


@overload(fresh_buffer, inline="always")
def _fresh_buffer(proto):
    if isinstance(proto, (types.NoneType, types.Omitted)) or proto is None:
        return lambda proto: None
    return lambda proto: np.empty_like(proto)
