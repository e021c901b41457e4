"""Cut one file into ZFS blocks and measure each: logical size, physical size, checksum."""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from storage.zfs.codecs import compressed_size
from storage.zfs.extents import data_extents
from storage.zfs.sandbox.layout import SECTOR, round_up

MIN_BLOCK = 512  # SPA_MINBLOCKSIZE: a file smaller than one record gets a block of this multiple
DIGEST_BYTES = 16  # half a SHA-256 is plenty to tell blocks apart, and halves the cache
RECORD = struct.Struct(f"<II{DIGEST_BYTES}s")


@dataclass(frozen=True)
class Block:
    """One allocated block: logical size, physical (compressed, sector-rounded) size, checksum."""

    lsize: int
    psize: int
    digest: bytes


@dataclass(frozen=True)
class Policy:
    """How a dataset cuts and compresses a file: record/volume block size and algorithm."""

    block_size: int
    algo: str  # a codecs.algorithm() name
    is_volume: bool


def physical_size(data: bytes, algo: str) -> int:
    """ZFS's psize: compressed size rounded to sectors, kept only if it saves 1/8 of the block."""
    lsize = len(data)
    if algo == "off":
        return lsize
    compressed = compressed_size(data, algo)
    if compressed > lsize - (lsize >> 3):
        return lsize
    rounded = round_up(compressed, SECTOR)
    # Rounding to whole sectors can eat the saving (a 3 KiB block never shrinks below 4 KiB).
    return lsize if rounded >= lsize else rounded


def block_layout(size: int, policy: Policy) -> tuple[int, int]:
    """(block size, block count) of a file: one small block, or whole records."""
    if size == 0:
        return policy.block_size, 0
    if not policy.is_volume and size <= policy.block_size:
        return round_up(size, MIN_BLOCK), 1
    # Past one record every block of a file is a full record: the tail block is padded with
    # zeros (which compression squeezes out, but which compression=off stores).
    return policy.block_size, -(-size // policy.block_size)


def block_indexes(fd: int, size: int, block_size: int) -> Iterator[int]:
    """Indexes of the blocks that hold any written byte, in order, each once."""
    last = -1
    for start, end in data_extents(fd, size):
        first = max(start // block_size, last + 1)
        last_here = (end - 1) // block_size
        yield from range(first, last_here + 1)
        last = max(last, last_here)


def file_blocks(path: Path, policy: Policy) -> tuple[list[Block], int]:
    """The allocated blocks of a file and the bytes read to find them."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        size = os.fstat(fd).st_size
        block_size, count = block_layout(size, policy)
        zero = bytes(block_size)
        blocks: list[Block] = []
        read = 0
        for index in block_indexes(fd, size, block_size):
            if index >= count:
                break
            data = os.pread(fd, block_size, index * block_size)
            read += len(data)
            data = data.ljust(block_size, b"\0")
            # With compression on, an all-zero block is written as a hole and takes nothing.
            if data == zero and policy.algo != "off":
                continue
            digest = hashlib.sha256(data).digest()[:DIGEST_BYTES]
            blocks.append(Block(block_size, physical_size(data, policy.algo), digest))
        return blocks, read
    finally:
        os.close(fd)


def pack(blocks: list[Block]) -> bytes:
    """Blocks -> a compact blob for the cache."""
    return b"".join(RECORD.pack(b.lsize, b.psize, b.digest) for b in blocks)


def unpack(blob: bytes) -> list[Block]:
    """The inverse of pack."""
    return [Block(lsize, psize, digest) for lsize, psize, digest in RECORD.iter_unpack(blob)]
