"""Zip archives whose entries cost more than they weigh: the entry-size mutations of the model-file part of
the surfaces campaign (:mod:`boardgames.benchmarks.fuzz.model_files`).

An SB3 model is a zip, and so are the torch files (``alphazero.pt``, an RLlib ``policy.pt``, the ``.pth``
entries inside an SB3 zip). A loader that inflates an entry before checking its size can be made to spend
gigabytes by a file of a few megabytes: deflate turns 16 MiB of zeros into 16 KB, and a zip's header
declares an entry's size, which the file's author chooses. :func:`bomb` rewrites one archive so that:

* an entry **really inflates** to 208 MiB, 1008 MiB (just under the loaders' 1 GiB limit per entry),
  1040 MiB or 3 GiB of zeros, its size declared truthfully (a valid zip: every reader accepts it);
* an entry **declares a small size** (its own, or 1,000 bytes) while its data inflates to 208 MiB or more
  (its CRC that of the declared bytes, so a reader that stops at the declared size finds nothing wrong);
* an entry **declares a huge size** (2^31 to 4 GiB) while its data is small;
* three entries inflate to 896 MiB each (each under the limit per entry, together over the 2 GiB limit);
* the archive lists more entries than the loaders allow (10,001 or 60,000);
* an entry's CRC does not match its data (a header that lies about the content rather than the size);
* a ``.pth`` entry of an SB3 zip is itself a torch zip holding such a bomb (**nested**).

The streams are built from one deflated block of 16 MiB of zeros repeated (a full flush makes each block
stand alone), so a 3 GiB bomb costs a few milliseconds to make; its CRC is computed once and kept.
"""

from __future__ import annotations

import functools
import io
import struct
import zipfile
import zlib

BLOCK = 16 * 2**20
"""Bytes of zeros per deflated block."""
STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED
REAL_BLOCKS = (13, 63, 65, 192)
"""Sizes of the real bombs, in blocks: 208 MiB, 1008 MiB, 1040 MiB, 3 GiB."""
MAX_DECLARED = 0xFFFF0000
"""The largest size a zip header without zip64 fields declares here (just under 4 GiB)."""


@functools.cache
def _block() -> tuple[bytes, bytes]:
    """``(one block, the end of the stream)``: the raw deflate of :data:`BLOCK` zeros after a full flush, which
    decodes the same wherever it stands, and the final empty block."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(BLOCK)
    block = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    return block, packer.flush()


@functools.cache
def zeros_crc(size: int) -> int:
    """The CRC-32 of ``size`` zero bytes."""
    crc, zeros = 0, bytes(min(size, BLOCK))
    for start in range(0, size, BLOCK):
        crc = zlib.crc32(zeros[: min(BLOCK, size - start)], crc)
    return crc


def deflated_zeros(blocks: int) -> bytes:
    """A raw deflate stream that inflates to ``blocks`` x :data:`BLOCK` zeros."""
    block, end = _block()
    return block * blocks + end


def raw_zip(entries: list) -> bytes:
    """A zip archive written field by field, so that each entry's sizes and CRC are whatever it says:
    ``entries`` are ``(name, data as stored, method, crc, declared size)``."""
    out = io.BytesIO()
    central = []
    for name, body, method, crc, size in entries:
        raw_name = name.encode("utf-8", "surrogatepass")
        offset = out.tell()
        head = (method, 0, 0x21, crc, len(body), size, len(raw_name))
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, *head, 0) + raw_name + body)
        record = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, *head, 0, 0, 0, 0, 0, offset)
        central.append(record + raw_name)
    start = out.tell()
    for record in central:
        out.write(record)
    count = len(central)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, out.tell() - start, start, 0))
    return out.getvalue()


def as_is(name: str, data: bytes) -> tuple:
    """An honest entry of ``raw_zip`` (stored)."""
    return (name, data, STORED, zlib.crc32(data), len(data))


def real_bomb(name: str, blocks: int) -> tuple:
    return (name, deflated_zeros(blocks), DEFLATED, zeros_crc(blocks * BLOCK), blocks * BLOCK)


READ_LIMIT = 256 * 2**20
"""The most bytes the fuzzer itself inflates from an archive it mutates (a bomb made earlier is not read)."""


def read_zip(raw: bytes) -> list | None:
    """``[(name, data)]`` of a zip archive, or None when it is not one, cannot be read whole, or declares more
    than :data:`READ_LIMIT` bytes or 20,000 entries (a bomb: the fuzzer does not inflate it itself)."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            infos = z.infolist()
            if len(infos) > 20_000 or sum(i.file_size for i in infos) > READ_LIMIT:
                return None
            return [(i.filename, z.read(i)) for i in infos]
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError):
        return None


def bomb(raw: bytes, torch_file: bool, r, nested: bool = True) -> tuple[bytes | None, str]:
    """``raw`` (a zip archive: an SB3 model or a torch file) with one of the entry-size mutations of the module
    docstring, drawn from ``r``; ``(None, why)`` when ``raw`` is no zip (an earlier mutation broke it)."""
    entries = read_zip(raw)
    if not entries:
        return None, "not a zip any more: no bomb"
    names = [n for n, _ in entries]
    i = int(r.integers(len(entries)))
    name, data = entries[i]
    honest = [as_is(n, d) for n, d in entries]
    pth = [k for k, n in enumerate(names) if n.endswith(".pth")]
    how = str(r.choice(["real", "real", "small", "huge", "sum", "many", "nested", "crc"]))
    if how == "nested" and (torch_file or not pth or not nested):
        how = "real"
    if how == "real":
        blocks = int(r.choice(REAL_BLOCKS))
        honest[i] = real_bomb(name, blocks)
        return raw_zip(honest), f"entry {name!r} inflates to {blocks * BLOCK} bytes of zeros (declared)"
    if how == "small":
        blocks = int(r.choice(REAL_BLOCKS))
        declared = len(data) if r.random() < 0.5 else 1000
        honest[i] = (name, deflated_zeros(blocks), DEFLATED, zeros_crc(declared), declared)
        return raw_zip(honest), f"entry {name!r} declares {declared} bytes but inflates to {blocks * BLOCK}"
    if how == "huge":
        declared = int(r.choice([2**31, 2**31 + 1, 3 * 2**30, MAX_DECLARED]))
        packed = zlib.compressobj(6, zlib.DEFLATED, -15)
        body = packed.compress(data) + packed.flush()
        honest[i] = (name, body, DEFLATED, zlib.crc32(data), declared)
        return raw_zip(honest), f"entry {name!r} declares {declared} bytes (holds {len(data)})"
    if how == "sum":
        prefix = name.rsplit("/", 1)[0] + "/" if torch_file and "/" in name else ""
        extra = [real_bomb(f"{prefix}extra{k}.pth" if not torch_file else f"{prefix}data/9{k}", 56) for k in range(3)]
        return raw_zip(honest + extra), f"3 entries added, each inflating to {56 * BLOCK} bytes"
    if how == "crc":
        honest[i] = (name, data, STORED, zlib.crc32(data) ^ 0x5A5A, len(data))
        return raw_zip(honest), f"entry {name!r} given a CRC that does not match its data"
    if how == "many":
        count = int(r.choice([10_001, 60_000]))
        prefix = name.rsplit("/", 1)[0] + "/" if torch_file and "/" in name else ""
        extra = [as_is(f"{prefix}e{k}", b"") for k in range(count)]
        return raw_zip(honest + extra), f"{count} empty entries added"
    k = pth[int(r.integers(len(pth)))]
    inner, what = bomb(entries[k][1], True, r, nested=False)
    if inner is None:
        return raw_zip(honest), f"entry {names[k]!r} is no zip: left as is"
    honest[k] = as_is(names[k], inner)
    return raw_zip(honest), f"entry {names[k]!r} (a torch zip): {what}"
