"""Compressed sizes of one block per ZFS algorithm, using the same libraries' formats."""

from __future__ import annotations

import functools
import re
import zlib

import lz4.block
import zstandard

from storage.zfs.errors import InvalidProperty

# What a property value means as an algorithm: `on` is lz4 since OpenZFS 2.0, `gzip` is level 6
# and `zstd` is level 3 (the zstd library's and OpenZFS's default).
_ALIASES = {"on": "lz4", "gzip": "gzip-6", "zstd": "zstd-3"}
# OpenZFS prefixes an lz4 block with its 4-byte big-endian length and a zstd block with an 8-byte
# header (length + version/level); zlib's own 2-byte header and 4-byte Adler-32 are in its stream.
LZ4_HEADER = 4
ZSTD_HEADER = 8
# ZLE writes a literal run of at most 64 bytes behind one length byte, and squeezes a run of up
# to 256 - 64 = 192 zero bytes into one byte. A run of zeros needs two in a row to end a literal.
ZLE_LITERAL_MAX = 64
ZLE_ZERO_MAX = 256 - ZLE_LITERAL_MAX
_ZERO_RUN = re.compile(rb"\x00{2,}")


def algorithm(compression: str) -> str:
    """The algorithm a `compression` property value selects: 'gzip' -> 'gzip-6', 'on' -> 'lz4'."""
    return _ALIASES.get(compression, compression)


def compressed_size(data: bytes, algo: str) -> int:
    """Bytes `data` takes once compressed with `algo` (an `algorithm()` name), headers included."""
    if algo == "off":
        return len(data)
    # LZJB in pure Python runs at ~1 MB/s, too slow for a rescan: lz4 stands in for it (LZJB
    # compresses a little worse than lz4 in practice, so this flatters lzjb slightly).
    if algo in ("lz4", "lzjb"):
        return LZ4_HEADER + len(lz4.block.compress(data, store_size=False))
    if algo.startswith("gzip-"):
        return len(zlib.compress(data, int(algo[5:])))
    if algo.startswith("zstd-"):
        return ZSTD_HEADER + len(_zstd(int(algo[5:])).compress(data))
    if algo == "zle":
        return zle_size(data)
    raise InvalidProperty(f"unknown compression algorithm {algo!r}")


@functools.cache
def _zstd(level: int) -> zstandard.ZstdCompressor:
    """One compressor per level: building one costs more than compressing a small block."""
    return zstandard.ZstdCompressor(level=level, write_content_size=False, write_checksum=False)


def zle_size(data: bytes) -> int:
    """Size of `data` in ZLE (zero-length encoding): literal runs plus one byte per zero run."""
    size = 0
    pos = 0
    for match in _ZERO_RUN.finditer(data):
        size += _literal_cost(match.start() - pos)
        size += -(-(match.end() - match.start()) // ZLE_ZERO_MAX)
        pos = match.end()
    return size + _literal_cost(len(data) - pos)


def _literal_cost(length: int) -> int:
    """Bytes of a literal stretch: the bytes themselves plus a length byte per 64."""
    return length + -(-length // ZLE_LITERAL_MAX) if length else 0
