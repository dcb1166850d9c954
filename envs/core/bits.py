"""Bit scans of 64-bit words for the rules kernels' bit boards: the index of the lowest or highest set bit
and the count of set bits, one instruction each when compiled (LLVM's ``cttz``, ``ctlz``, ``ctpop``), plain
Python under ``NUMBA_DISABLE_JIT``."""

from __future__ import annotations

import numpy as np
from numba.core.extending import intrinsic, overload
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


def lowest_bit(word):
    """Index (0..63) of the lowest set bit of the uint64 ``word``; 64 when ``word`` is 0."""
    word = int(word)
    return 64 if word == 0 else (word & -word).bit_length() - 1


def highest_bit(word):
    """Index (0..63) of the highest set bit of the uint64 ``word``; -1 when ``word`` is 0."""
    return int(word).bit_length() - 1


@overload(lowest_bit, inline="always")
def _lowest_bit(word):
    return lambda word: np.int64(trailing_zeros(np.uint64(word)))


@overload(highest_bit, inline="always")
def _highest_bit(word):
    return lambda word: np.int64(63) - np.int64(leading_zeros(np.uint64(word)))


def bit_count(word):
    """How many bits of the uint64 ``word`` are set (LLVM's ``ctpop`` when compiled)."""
    return bin(int(word)).count("1")


@intrinsic
def _ctpop(typingctx, word):
    return word(word), lambda context, builder, signature, args: builder.ctpop(args[0])


@overload(bit_count, inline="always")
def _bit_count(word):
    return lambda word: np.int64(_ctpop(np.uint64(word)))
