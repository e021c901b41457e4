"""Compress and decompress one block as OpenZFS does, so both directions can be timed."""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable

import lz4.block
import zstandard

from storage.zfs.codecs import LZ4_HEADER, ZSTD_HEADER

Compress = Callable[[bytes], bytes]
Decompress = Callable[[bytes, int], bytes]


def header_bytes(algo: str) -> int:
    """Bytes OpenZFS puts before the compressed stream (zlib's own header is in its stream)."""
    if algo in ("lz4", "lzjb"):
        return LZ4_HEADER
    return ZSTD_HEADER if algo.startswith("zstd-") else 0


def timeable(algo: str) -> bool:
    """Whether `algo` has a library codec to time (zle has none)."""
    return algo in ("lz4", "lzjb") or algo.startswith(("gzip-", "zstd-"))


def compressor(algo: str) -> Compress:
    """The function compressing a block with `algo` (lz4, gzip-N or zstd-N)."""
    if algo in ("lz4", "lzjb"):  # lzjb measured as lz4, like storage.zfs.codecs
        return functools.partial(lz4.block.compress, store_size=False)
    if algo.startswith("gzip-"):
        return functools.partial(zlib.compress, level=int(algo[5:]))
    if algo.startswith("zstd-"):
        return _zstd_compressor(int(algo[5:])).compress
    raise ValueError(f"cannot time compression algorithm {algo!r}")


def decompressor(algo: str) -> Decompress:
    """The function restoring a block of known size from `compressor(algo)`'s output."""
    if algo in ("lz4", "lzjb"):
        return _lz4_decompress
    if algo.startswith("gzip-"):
        return _gzip_decompress
    if algo.startswith("zstd-"):
        return _zstd_decompress
    raise ValueError(f"cannot time decompression algorithm {algo!r}")


@functools.cache
def _zstd_compressor(level: int) -> zstandard.ZstdCompressor:
    """One compressor per level, without the frame fields OpenZFS leaves out."""
    return zstandard.ZstdCompressor(level=level, write_content_size=False, write_checksum=False)


@functools.cache
def _zstd_decompressor() -> zstandard.ZstdDecompressor:
    """One shared decompressor."""
    return zstandard.ZstdDecompressor()


def _lz4_decompress(payload: bytes, size: int) -> bytes:
    """lz4 block format without a stored size: the block size is known."""
    return bytes(lz4.block.decompress(payload, uncompressed_size=size))


def _gzip_decompress(payload: bytes, size: int) -> bytes:
    """A zlib stream, as OpenZFS's gzip writes it."""
    return zlib.decompress(payload, bufsize=size)


def _zstd_decompress(payload: bytes, size: int) -> bytes:
    """A zstd frame without content size: the block size bounds the output."""
    return bytes(_zstd_decompressor().decompress(payload, max_output_size=size))
