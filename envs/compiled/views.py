"""Arrays without an owner, for the compiled hot loops: :func:`borrowed` is ``array[i]`` without the
reference counting (:func:`borrowed_block`, ``array[i:i + 1]``), :func:`scratch` a small work array on the
stack instead of the heap.

Numba counts the references to an array's memory, and a view such as ``states[i]`` holds one: making it
adds 1 to the parent's count and dropping it subtracts 1, each an atomic instruction on a word that every
view of that parent shares. The batch loops of :mod:`boardgames.envs.vector.loops` took four or five such views per
game and step, and the game kernels they call add and drop references to their arguments again (numba
keeps those of an inlined function that takes arrays): about thirty atomic instructions per game-step, on
counters that both threads of a threaded batch write. A locked instruction waits for the core's pending
stores, and a counter the other core has just written must come back from its cache first.

``borrowed(array, i)`` is the same row as ``array[i]`` (C-contiguous, one dimension fewer, the same
memory), with no owner: numba's reference counting skips an array that has none. It borrows the parent's
memory, so it is only for a loop that holds ``array`` itself for as long as it uses the row: the batch
kernels, whose arguments live for the whole call. Plain ``array[i]`` under ``NUMBA_DISABLE_JIT``.

``scratch(size, dtype)`` is ``np.empty(size, dtype)`` in the calling function's stack frame: no
allocation (a heap allocation and its release cost about as much as a small rules function), for the work
arrays of a kernel called once per move (Olix's pattern search).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic, overload
from numba.np.arrayobj import populate_array


def _ownerless(context, builder, arrtype, data, shape, strides, itemsize):
    """The LLVM value of an array of type ``arrtype`` over ``data`` (shape and strides: lists of LLVM
    integers) with no meminfo, so that numba's reference counting skips it."""
    out = context.make_array(arrtype)(context, builder)
    populate_array(
        out,
        data=data,
        shape=cgutils.pack_array(builder, shape),
        strides=cgutils.pack_array(builder, strides),
        itemsize=itemsize,
        meminfo=None,
    )
    return out._getvalue()


def borrowed(array, i):
    """``array[i]`` (``array`` C-contiguous, at least two dimensions; ``0 <= i < len(array)``, not checked)
    as a view that does not count as a reference to ``array``'s memory (see the module docstring)."""
    return array[i]


def _row_start(context, builder, signature, args):
    """The code of an ``(array, i)`` intrinsic's common start: the array's structure, its shape and strides
    as lists, and the pointer to row ``i`` (the arithmetic of ``array[i]``)."""
    arrtype = signature.args[0]
    parent = context.make_array(arrtype)(context, builder, args[0])
    shape = cgutils.unpack_tuple(builder, parent.shape, arrtype.ndim)
    strides = cgutils.unpack_tuple(builder, parent.strides, arrtype.ndim)
    at = context.cast(builder, args[1], signature.args[1], types.intp)
    return parent, shape, strides, cgutils.pointer_add(builder, parent.data, builder.mul(at, strides[0]))


@intrinsic
def _borrowed_row(typingctx, array, i):
    """Row ``i`` of the C-contiguous ``array``: the same data pointer arithmetic as ``array[i]``, the shape
    and strides of its other dimensions, and no meminfo (numba's owner of the memory)."""
    result = types.Array(array.dtype, array.ndim - 1, "C")

    def codegen(context, builder, signature, args):
        parent, shape, strides, data = _row_start(context, builder, signature, args)
        return _ownerless(context, builder, signature.return_type, data, shape[1:], strides[1:], parent.itemsize)

    return result(array, i), codegen


@overload(borrowed, inline="always")
def _borrowed(array, i):
    if isinstance(array, types.Array) and array.layout == "C" and array.ndim >= 2 and isinstance(i, types.Integer):
        return lambda array, i: _borrowed_row(array, i)
    return lambda array, i: array[i]  # anything else: the ordinary view


def borrowed_block(array, i):
    """``array[i:i + 1]`` (``array`` C-contiguous; ``0 <= i < len(array)``, not checked): the one-row block
    of row ``i``, with the dimensions of ``array``, as a view that does not count as a reference to its
    memory (see :func:`borrowed`)."""
    return array[i : i + 1]


@intrinsic
def _borrowed_block(typingctx, array, i):
    """Rows ``i`` to ``i + 1`` of the C-contiguous ``array``: the data pointer of row ``i``, a first
    dimension of 1, the strides of ``array``, and no meminfo."""
    result = types.Array(array.dtype, array.ndim, "C")

    def codegen(context, builder, signature, args):
        parent, shape, strides, data = _row_start(context, builder, signature, args)
        one = context.get_constant(types.intp, 1)
        return _ownerless(context, builder, signature.return_type, data, [one, *shape[1:]], strides, parent.itemsize)

    return result(array, i), codegen


@overload(borrowed_block, inline="always")
def _borrowed_block_overload(array, i):
    if isinstance(array, types.Array) and array.layout == "C" and array.ndim >= 1 and isinstance(i, types.Integer):
        return lambda array, i: _borrowed_block(array, i)
    return lambda array, i: array[i : i + 1]  # anything else: the ordinary view


def scratch(size, dtype):
    """An uninitialised 1-d array of ``size`` entries of ``dtype`` (both constants where compiled: a module
    constant or a literal) on the calling function's stack instead of the heap: no allocation, no free, no
    reference counting, for the small work arrays of a rules kernel called once per move. It starts on a
    64-byte boundary (a cache line). It lives as long
    as the compiled function that made it (with ``inline="always"``, the one it is inlined into): never
    return it or keep it. ``np.empty(size, dtype)`` under ``NUMBA_DISABLE_JIT``, or where ``size`` is not a
    constant."""
    return np.empty(size, dtype)


_STACK_ARRAYS: dict = {}


def _stack_array(count: int):
    """An intrinsic ``(dtype) -> array`` of ``count`` entries reserved once in the entry block of the
    function being compiled (``alloca``), C-contiguous, with no meminfo; one per count."""
    if count not in _STACK_ARRAYS:

        @intrinsic
        def stack_array(typingctx, dtype):
            element = dtype.dtype
            result = types.Array(element, 1, "C")

            def codegen(context, builder, signature, args):
                lltype = context.get_data_type(element)
                size = context.get_abi_sizeof(lltype)
                length = context.get_constant(types.intp, count)
                itemsize = context.get_constant(types.intp, size)
                # whole cache lines (64-byte vectors), so that the array starts on one: no load of a 64-byte
                # block of it (boardgames.envs.compiled.bits.nonzero_bits) straddles two lines
                lines = cgutils.alloca_once(builder, ir.VectorType(ir.IntType(8), 64), size=-(-count * size // 64))
                data = builder.bitcast(lines, lltype.as_pointer())
                return _ownerless(context, builder, result, data, [length], [itemsize], itemsize)

            return result(dtype), codegen

        _STACK_ARRAYS[count] = stack_array
    return _STACK_ARRAYS[count]


@overload(scratch, inline="always", prefer_literal=True)
def _scratch(size, dtype):
    if isinstance(size, types.IntegerLiteral) and size.literal_value > 0 and isinstance(dtype, types.NumberClass):
        stack_array = _stack_array(size.literal_value)
        return lambda size, dtype: stack_array(dtype)
    return lambda size, dtype: np.empty(size, dtype)
