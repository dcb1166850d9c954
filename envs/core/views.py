"""Borrowed rows for the batch loops: :func:`borrowed` is ``array[i]`` without the reference counting.

Numba counts the references to an array's memory, and a view such as ``states[i]`` holds one: making it
adds 1 to the parent's count and dropping it subtracts 1, each an atomic instruction on a word that every
view of that parent shares. The batch loops of :mod:`envs.vector.kernels` take four or five such views per
game and step, and the game kernels they call add and drop references to their arguments again (numba
keeps those of an inlined function that takes arrays): about thirty atomic instructions per game-step, on
counters that both threads of a threaded batch write. A locked instruction waits for the core's pending
stores, and a counter the other core has just written must come back from its cache first.

``borrowed(array, i)`` is the same row as ``array[i]`` (C-contiguous, one dimension fewer, the same memory),
with no owner: numba's reference counting skips an array that has none. It borrows the parent's memory,
so it is only for a loop that holds ``array`` itself for as long as it uses the row: the batch kernels,
whose arguments live for the whole call. Plain ``array[i]`` under ``NUMBA_DISABLE_JIT``.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.core.extending import intrinsic, overload
from numba.np.arrayobj import populate_array


def borrowed(array, i):
    """``array[i]`` (``array`` C-contiguous, at least two dimensions; ``0 <= i < len(array)``, not checked)
    as a view that does not count as a reference to ``array``'s memory (see the module docstring)."""
    return array[i]


@intrinsic
def _borrowed_row(typingctx, array, i):
    """Row ``i`` of the C-contiguous ``array``: the same data pointer arithmetic as ``array[i]``, the shape
    and strides of its other dimensions, and no meminfo (numba's owner of the memory)."""
    result = types.Array(array.dtype, array.ndim - 1, "C")

    def codegen(context, builder, signature, args):
        arrtype = signature.args[0]
        parent = context.make_array(arrtype)(context, builder, args[0])
        shape = cgutils.unpack_tuple(builder, parent.shape, arrtype.ndim)
        strides = cgutils.unpack_tuple(builder, parent.strides, arrtype.ndim)
        at = context.cast(builder, args[1], signature.args[1], types.intp)
        data = cgutils.pointer_add(builder, parent.data, builder.mul(at, strides[0]))
        out = context.make_array(signature.return_type)(context, builder)
        populate_array(
            out,
            data=data,
            shape=cgutils.pack_array(builder, shape[1:]),
            strides=cgutils.pack_array(builder, strides[1:]),
            itemsize=parent.itemsize,
            meminfo=None,
        )
        return out._getvalue()

    return result(array, i), codegen


@overload(borrowed, inline="always")
def _borrowed(array, i):
    if isinstance(array, types.Array) and array.layout == "C" and array.ndim >= 2 and isinstance(i, types.Integer):
        return lambda array, i: _borrowed_row(array, i)
    return lambda array, i: array[i]  # anything else: the ordinary view
