"""Bit scans of 64-bit words for the rules kernels' bit boards: the index of the lowest or highest set bit
and the count of set bits, one instruction each when compiled (LLVM's ``cttz``, ``ctlz``, ``ctpop``), plain
Python under ``NUMBA_DISABLE_JIT``. And for the mask kernels' inner loops: word stores, eight mask entries
(:func:`store_bytes`) or a run of eight list entries (:func:`write_run`) written at once, eight or 64 mask
entries read at once (:func:`load_bytes`, :func:`nonzero_bits`), and unsigned array indices (:func:`index`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import types
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


def index(i):
    """``i``, a non-negative array index, as an unsigned one. Numba then leaves out what it adds to every
    access by a signed index, Python's wrap-around of negative indices (a test and a select per dimension):
    in the mask kernels' inner loops that is about a tenth of the time. Only for an index known to be >= 0
    (a negative one would become a huge one, and nothing checks the bounds)."""
    return np.uint64(i)


@overload(index, inline="always")
def _index(i):
    return lambda i: np.uint64(i)


# ----- word stores -------------------------------------------------------------------------------------------


def store_bytes(array, at, word):
    """Write the 8 bytes of the uint64 ``word``, lowest first, into ``array[at:at + 8]`` (bool or uint8
    entries; a bool entry gets byte 0 or 1): one unaligned 8-byte store when compiled for a contiguous array,
    for the mask kernels that decide eight neighbouring entries at once."""
    word = int(word)
    for n in range(8):
        array[at + n] = (word >> (8 * n)) & 0xFF


def write_run(array, at, first):
    """Write ``first, first + 1, ..., first + 7`` into ``array[at:at + 8]``: eight consecutive actions
    into a list of legal actions, of which the caller keeps a prefix (it advances its count by the legal
    ones only). Two unaligned 8-byte stores when compiled for a contiguous uint16 list."""
    for n in range(8):
        array[at + n] = first + n


def load_bytes(array, at):
    """The 8 bytes ``array[at:at + 8]`` (bool or uint8 entries), lowest first, as a uint64: one unaligned
    8-byte load when compiled for a contiguous array (the packing of masks, :mod:`boardgames.envs.vector.packed`)."""
    word = np.uint64(0)
    for n in range(8):
        word |= np.uint64(array[at + n]) << np.uint64(8 * n)
    return word


@intrinsic
def _load_word(typingctx, array, at):
    """The uint64 at element ``at`` of the contiguous ``array``, 8 bytes, alignment 1."""

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        source = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        value = builder.load(source)
        value.align = 1
        return value

    return types.uint64(array, types.int64), codegen


def nonzero_bits(array, at):
    """The 64 entries ``array[at:at + 64]`` (bool or uint8) as the bits of a uint64: bit ``j`` set when entry
    ``at + j`` is not 0. Compiled for a contiguous array: one 64-byte load and one compare into a bit mask
    (AVX-512 ``vptestmb``, or two ``vpmovmskb`` with AVX2), for the packing of masks."""
    word = np.uint64(0)
    for j in range(64):
        if array[at + j]:
            word |= np.uint64(1) << np.uint64(j)
    return word


@intrinsic
def _nonzero_word(typingctx, array, at):
    """The 64 bytes at element ``at`` of the contiguous ``array``, compared with 0, as the bits of a uint64."""

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        vector = ir.VectorType(ir.IntType(8), 64)
        source = builder.bitcast(builder.gep(data, [args[1]]), vector.as_pointer())
        value = builder.load(source)
        value.align = 1
        nonzero = builder.icmp_unsigned("!=", value, ir.Constant(vector, [0] * 64))
        return builder.bitcast(nonzero, ir.IntType(64))

    return types.uint64(array, types.int64), codegen


@intrinsic
def _store_word(typingctx, array, at, word):
    """Store the uint64 ``word`` at element ``at`` of the contiguous ``array``, 8 bytes, alignment 1."""

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        target = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        builder.store(args[2], target).align = 1
        return context.get_dummy_value()

    return types.void(array, types.int64, types.uint64), codegen


def _contiguous(array, dtypes) -> bool:
    return isinstance(array, types.Array) and array.layout == "C" and array.dtype in dtypes


@overload(store_bytes, inline="always")
def _store_bytes(array, at, word):
    if _contiguous(array, (types.boolean, types.uint8)):
        return lambda array, at, word: _store_word(array, np.int64(at), np.uint64(word))

    def bytewise(array, at, word):
        for n in range(8):
            array[at + n] = (np.uint64(word) >> np.uint64(8 * n)) & np.uint64(0xFF)

    return bytewise


def _word_read(read_word, plain):
    """The compiled form of a word read (``plain(array, at)``): the intrinsic ``read_word`` for a contiguous
    bool or uint8 array, ``plain`` itself, entry by entry, for any other."""

    def implementation(array, at):
        if _contiguous(array, (types.boolean, types.uint8)):
            return lambda array, at: read_word(array, np.int64(at))
        return plain

    return implementation


overload(load_bytes, inline="always")(_word_read(_load_word, load_bytes))
overload(nonzero_bits, inline="always")(_word_read(_nonzero_word, nonzero_bits))


_SPREAD = np.uint64(0x0001_0001_0001_0001)  # a uint16 value in each of four lanes
_COUNT_LOW = np.uint64(0x0003_0002_0001_0000)  # lanes 0, 1, 2, 3
_COUNT_HIGH = np.uint64(0x0007_0006_0005_0004)  # lanes 4, 5, 6, 7


@overload(write_run, inline="always")
def _write_run(array, at, first):
    if _contiguous(array, (types.uint16,)):

        def by_words(array, at, first):
            lanes = np.uint64(first) * _SPREAD
            _store_word(array, np.int64(at), lanes + _COUNT_LOW)
            _store_word(array, np.int64(at) + 4, lanes + _COUNT_HIGH)

        return by_words

    return write_run  # any other list: its plain definition, entry by entry
