"""How ZFS accounts one block: logical, physical (compressratio's) and allocated bytes."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from storage.zfs.codecs import compressed_size

MIN_BLOCK = 512  # SPA_MINBLOCKSIZE: a file within one record is one block of this multiple
# BPE_PAYLOAD_SIZE: a block compressed to this or less is written into its block pointer
# (embedded_data, on by default) and allocates nothing; with dedup on it is not embedded.
EMBEDDED_MAX = 112


@dataclass(frozen=True)
class Stored:
    """One block as ZFS counts it: lsize (logicalreferenced), psize (compressratio), asize."""

    lsize: int
    psize: int
    asize: int


HOLE = Stored(0, 0, 0)


def round_up(value: int, unit: int) -> int:
    """`value` rounded up to a multiple of `unit`."""
    return -(-value // unit) * unit


def uncompressed(lsize: int, sector_size: int) -> Stored:
    """A block stored as is: its psize is its lsize, its allocation whole sectors."""
    return Stored(lsize, lsize, round_up(lsize, sector_size))


def stored_size(lsize: int, compressed: int, sector_size: int, *, embed: bool = True) -> Stored:
    """A block whose compressed form takes `compressed` bytes (zio_write_compress's rules)."""
    # zio_compress_data keeps the compressed form only if it saves at least 1/8 of the block.
    if compressed > lsize - (lsize >> 3):
        return uncompressed(lsize, sector_size)
    if embed and compressed <= EMBEDDED_MAX:
        return Stored(lsize, compressed, 0)
    # psize is rounded to the smallest sector, so a 4 KiB sector caps a 128 KiB record at 32x,
    # and a rounding that eats the whole saving stores the block uncompressed.
    rounded = round_up(compressed, sector_size)
    if rounded >= lsize:
        return uncompressed(lsize, sector_size)
    return Stored(lsize, rounded, rounded)


def block_stored(
    data: bytes, algo: str, sector_size: int, *, zero_is_hole: bool, embed: bool = True
) -> Stored:
    """How ZFS would store `data` (one whole block, padded) with `algo` (a codecs name)."""
    if zero_is_hole and is_zero(data):
        return HOLE
    if algo == "off":
        return uncompressed(len(data), sector_size)
    return stored_size(len(data), compressed_size(data, algo), sector_size, embed=embed)


def zero_is_hole(algo: str, kind: str) -> bool:
    """Whether an all-zero block takes no space: always with compression, and on a zvol.

    A zvol's never-written ranges read back as zeros and cannot be told from written zeros,
    so its zero blocks count as the holes they nearly always are.
    """
    return algo != "off" or kind == "zvol"


def is_zero(data: bytes | bytearray | memoryview) -> bool:
    """Whether every byte of `data` is zero (a memcmp against a cached zero block)."""
    return data == zeros(len(data))


@functools.lru_cache(maxsize=16)
def zeros(size: int) -> bytes:
    """A block of `size` zero bytes, kept: the inputs use one or two block sizes."""
    return bytes(size)
