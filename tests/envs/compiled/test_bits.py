"""The bit-board helpers and word stores of envs/compiled/bits.py and the observation cell writer of
envs/compiled/cells.py: compiled (LLVM's cttz, ctlz, ctpop; 8-byte stores; the inlined table copy) against
their plain Python definitions, which ``NUMBA_DISABLE_JIT=1`` runs, and against answers worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from boardgames.envs.compiled.bits import bit_count, highest_bit, index, lowest_bit, store_bytes, write_run
from boardgames.envs.compiled.cells import byte_entries, write_cell


@njit
def _scans(word):
    return lowest_bit(word), highest_bit(word), bit_count(word)


def test_bit_scans_by_hand():
    # (word, lowest set bit, highest set bit, set bits), worked out by hand
    cases = [
        (0, 64, -1, 0),
        (1, 0, 0, 1),
        (0b101000, 3, 5, 2),
        (1 << 63, 63, 63, 1),
        ((1 << 63) | 1, 0, 63, 2),
        ((1 << 64) - 1, 0, 63, 64),
        ((1 << 36) - 1, 0, 35, 36),  # a full Barc board
    ]
    for word, low, high, count in cases:
        w = np.uint64(word)
        assert _scans(w) == (low, high, count), word
        assert (lowest_bit(w), highest_bit(w), bit_count(w)) == (low, high, count), word


@njit
def _stores(mask, at, word, listed, index, first):
    store_bytes(mask, at, word)
    write_run(listed, index, first)


@pytest.mark.parametrize("list_type", [np.uint16, np.int64])  # uint16: the word stores; int64: entry by entry
@pytest.mark.parametrize("compiled", [True, False])
def test_word_stores_by_hand(compiled, list_type):
    """store_bytes writes the word's bytes lowest first from ``at`` and nothing around them; write_run
    writes eight consecutive values from ``index``. The mask starts all True, so a cleared entry shows."""
    mask = np.ones(20, dtype=np.bool_)
    listed = np.full(12, 9, dtype=list_type)
    # bytes 0 and 2 set (0x01 at bit 0, 0x01 at bit 16), byte 7 set (bit 56): entries 3, 5 and 10 of the mask
    word = np.uint64((1 << 0) | (1 << 16) | (1 << 56))
    (_stores if compiled else getattr(_stores, "py_func", _stores))(mask, 3, word, listed, 2, 5663)
    expected = np.ones(20, dtype=np.bool_)
    expected[3:11] = [True, False, True, False, False, False, False, True]
    assert mask.tolist() == expected.tolist()
    assert listed.tolist() == [9, 9, 5663, 5664, 5665, 5666, 5667, 5668, 5669, 5670, 9, 9]


@njit
def _read_write(table, row, col, out, at):
    out[index(at)] = table[index(row), index(col)]
    return out[at]


@pytest.mark.parametrize("compiled", [True, False])
def test_unsigned_index_reads_and_writes_the_same_entries(compiled):
    table = np.arange(12, dtype=np.int32).reshape(3, 4)  # table[2, 3] is 11, table[1, 0] is 4
    out = np.zeros(5, dtype=np.int32)
    run = _read_write if compiled else getattr(_read_write, "py_func", _read_write)
    assert run(table, 2, 3, out, 4) == 11 and run(table, 1, 0, out, 0) == 4
    assert out.tolist() == [4, 0, 0, 0, 11]
    assert index(7) == 7 and isinstance(index(7), np.uint64)


def test_bit_scans_compiled_equal_python_on_random_words():
    gen = np.random.default_rng(0)
    for _ in range(2000):
        w = np.uint64(int(gen.integers(0, 1 << 62)) << int(gen.integers(0, 3)))
        assert _scans(w) == (lowest_bit(w), highest_bit(w), bit_count(w))


@njit
def _write(flat, at, table, table_u8, code, constants):
    write_cell(flat, at, table, table_u8, code, constants)


def test_write_cell_float_and_uint8():
    """Row ``code`` then the constants, nothing before or after the cell; the uint8 form is the float one
    times 255, rounded."""
    table = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]], dtype=np.float32)
    table_u8 = byte_entries(table)
    assert table_u8.tolist() == [[0, 255, 128], [255, 0, 64]]  # 0.5 * 255 + 0.5 = 128; 0.25 * 255 + 0.5 = 64.25
    for write in (_write, write_cell):  # compiled, then plain Python
        flat = np.full(9, 7.0, dtype=np.float32)
        write(flat, 2, table, table_u8, 1, (np.float32(0.75), np.float32(1.0)))
        assert flat.tolist() == [7, 7, 1.0, 0.0, 0.25, 0.75, 1.0, 7, 7]
        flat8 = np.full(9, 7, dtype=np.uint8)
        write(flat8, 2, table, table_u8, 0, (np.uint8(9), np.uint8(255)))
        assert flat8.tolist() == [7, 7, 0, 255, 128, 9, 255, 7, 7]
