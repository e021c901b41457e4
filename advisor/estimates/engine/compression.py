"""Per-algorithm tallies over sampled blocks: ratio, projected space and speed, with intervals."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from advisor.estimates.engine.accounting import HOLE, Stored, is_zero, stored_size, uncompressed
from advisor.estimates.engine.codec import compressor, decompressor, header_bytes, timeable
from advisor.estimates.engine.stats import RatioSums
from advisor.estimates.engine.zfslz4 import lz4_size
from storage.zfs.codecs import compressed_size

MB = 1_000_000  # throughput in decimal megabytes per second, as disks and networks quote it
# OpenZFS's lz4 differs from liblz4's by 5-7% in size, and its Python parse runs at ~2 MB/s:
# lz4's ratio comes from the first 8 MiB of the sample (spread: the visiting order is).
EXACT_LZ4_BYTES = 8 << 20


@dataclass
class Tally:
    """What one algorithm did to the sampled blocks."""

    algorithm: str
    ratio: RatioSums = field(default_factory=RatioSums)  # y = lsize, x = psize
    stored: RatioSums = field(default_factory=RatioSums)  # y = asize, x = lsize if off
    compress: RatioSums = field(default_factory=RatioSums)  # y = bytes, x = seconds
    decompress: RatioSums = field(default_factory=RatioSums)
    exact_left: int = EXACT_LZ4_BYTES  # bytes still to size with OpenZFS's own lz4 parse

    def add(self, data: bytes, *, sector_size: int, zero_is_hole: bool) -> None:
        """Compress (and decompress) one block, timing both, and count how ZFS stores it."""
        cost = self._measure(data, sector_size, zero_is_hole)
        if cost is not None:
            self.ratio.add(cost.lsize, cost.psize)
            self.stored.add(cost.asize, len(data))

    def _measure(self, data: bytes, sector_size: int, zero_is_hole: bool) -> Stored | None:
        """How the block is stored (None: not sized); timings are recorded on the way."""
        if zero_is_hole and is_zero(data):
            return HOLE  # ZFS checks for zeros before it compresses: nothing to time
        if self.algorithm == "off":
            return uncompressed(len(data), sector_size)
        if not timeable(self.algorithm):  # zle: sized by the sandbox's codec, not timed
            return stored_size(len(data), compressed_size(data, self.algorithm), sector_size)
        payload = self._timed(data)
        if self.algorithm != "lz4":
            return stored_size(len(data), len(payload) + header_bytes(self.algorithm), sector_size)
        if self.exact_left <= 0:
            return None  # lz4's ratio rests on the (spread) blocks sized exactly before
        self.exact_left -= len(data)
        return stored_size(len(data), lz4_size(data), sector_size)

    def _timed(self, data: bytes) -> bytes:
        """Compress and decompress `data` with the library, recording both speeds."""
        started = time.perf_counter()
        payload = compressor(self.algorithm)(data)
        middle = time.perf_counter()
        decompressor(self.algorithm)(payload, len(data))
        ended = time.perf_counter()
        self.compress.add(len(data), middle - started)
        self.decompress.add(len(data), ended - middle)
        return payload

    def report(self, *, blocks: int, logical: int, stored_off: int) -> dict[str, Any]:
        """The JSON row: ratio and interval, space on the whole input, speeds with intervals."""
        low, high = self.ratio.interval(blocks)
        stored = round(self.stored.ratio(empty=0.0) * logical)
        return {
            "algorithm": self.algorithm,
            "ratio": round(self.ratio.ratio(), 4),
            "ratio_low": round(low, 4),
            "ratio_high": round(high, 4),
            "stored_bytes": stored,
            "saved_bytes": stored_off - stored,
            **_speed("compress", self.compress),
            **_speed("decompress", self.decompress),
        }


def _speed(name: str, sums: RatioSums) -> dict[str, float]:
    """`name`_mb_s with its 95% interval (0.0 when nothing was timed, as for off)."""
    if sums.n == 0 or sums.x <= 0:
        return {f"{name}_mb_s": 0.0, f"{name}_mb_s_low": 0.0, f"{name}_mb_s_high": 0.0}
    low, high = sums.interval()
    return {
        f"{name}_mb_s": round(sums.ratio() / MB, 1),
        f"{name}_mb_s_low": round(low / MB, 1),
        f"{name}_mb_s_high": round(high / MB, 1),
    }


def report_all(tallies: list[Tally], *, blocks: int, logical: int) -> list[dict[str, Any]]:
    """Rows for every algorithm; space saved is measured against compression off."""
    off = next((t for t in tallies if t.algorithm == "off"), None)
    assert off is not None, "the tallies include compression off, the baseline"
    stored_off = round(off.stored.ratio(empty=0.0) * logical)
    return [t.report(blocks=blocks, logical=logical, stored_off=stored_off) for t in tallies]
