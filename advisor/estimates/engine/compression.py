"""Per-algorithm tallies over sampled blocks: ratio, projected space and speed, with intervals.

Each algorithm tallies its own prefix of the sample's visiting order (a uniform sample of the
input whatever its length): a slow one that used up its share of the time budget stops early
and says how many blocks its figures rest on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.estimates.engine.accounting import HOLE, Stored, is_zero, stored_size, uncompressed
from advisor.estimates.engine.codec import compressor, decompressor, header_bytes, timeable
from advisor.estimates.engine.stats import RatioSums, spread_interval
from advisor.estimates.engine.zfslz4 import lz4_size
from storage.zfs.codecs import compressed_size

MB = 1_000_000  # throughput in decimal megabytes per second, as disks and networks quote it
# OpenZFS's lz4 differs from liblz4's by 5-7% in size, and its Python parse runs at ~2 MB/s:
# it sizes at most this much of lz4's sample; the rest is liblz4's size times the ratio of the
# two measured on those blocks (a double sample: the ratio varies little from block to block).
EXACT_LZ4_BYTES = 8 << 20
UNKNOWN = -1
# The libraries here are not the kernel's (zstd 1.5 against OpenZFS's 1.4.5; liblz4 scaled by a
# measured factor): with every block measured, the VM lane still saw the advisor up to 0.22%
# off what ZFS stored (docs/benchmarks.md). The stated interval keeps this much on each side,
# relative to the ratio, besides the sampling's spread, so a full sample is not a point.
CODEC_MARGIN = 0.005


@dataclass
class Tally:
    """What one algorithm did to its sampled blocks."""

    algorithm: str
    ratio: RatioSums = field(default_factory=RatioSums)  # y = lsize, x = psize
    stored: RatioSums = field(default_factory=RatioSums)  # y = asize, x = lsize if off
    compress: RatioSums = field(default_factory=RatioSums)  # y = bytes, x = seconds
    decompress: RatioSums = field(default_factory=RatioSums)
    points: list[tuple[int, float, float]] = field(default_factory=list)  # ordinal, lsize, psize
    blocks: int = 0
    seconds: float = 0.0  # spent on this algorithm: what its share of the budget pays for
    cut: bool = False  # stopped by its share of the time budget before the end of the sample

    def add(self, data: bytes, ordinal: int, *, sector_size: int, zero_is_hole: bool) -> None:
        """Compress (and decompress) block `ordinal`, timing both, and count how ZFS stores it."""
        started = time.perf_counter()
        self._count(data, ordinal, self._measure(data, sector_size, zero_is_hole))
        self.blocks += 1
        self.seconds += time.perf_counter() - started

    def demand(self, wanted: int) -> float:
        """Seconds the whole sample of `wanted` blocks would take at this pace."""
        return self.seconds / self.blocks * wanted if self.blocks else math.inf

    def _count(self, data: bytes, ordinal: int, cost: Stored) -> None:
        """Add one block's sizes to the sums."""
        self.points.append((ordinal, cost.lsize, cost.psize))
        self.ratio.add(cost.lsize, cost.psize)
        self.stored.add(cost.asize, len(data))

    def _measure(self, data: bytes, sector_size: int, zero_is_hole: bool) -> Stored:
        """How the block is stored; timings are recorded on the way."""
        if zero_is_hole and is_zero(data):
            return HOLE  # ZFS checks for zeros before it compresses: nothing to time
        if self.algorithm == "off":
            return uncompressed(len(data), sector_size)
        if not timeable(self.algorithm):  # zle: sized by the sandbox's codec, not timed
            return stored_size(len(data), compressed_size(data, self.algorithm), sector_size)
        payload = self._timed(data)
        return stored_size(len(data), len(payload) + header_bytes(self.algorithm), sector_size)

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

    def sums(self) -> tuple[RatioSums, RatioSums]:
        """(ratio, stored) sums over the sampled blocks."""
        return self.ratio, self.stored

    def interval(self, population: int) -> tuple[float, float]:
        """95% interval of the compression ratio, from where the blocks lie in the input."""
        low, high = spread_interval(self.points, population)
        if self.algorithm == "off":  # no codec: the sizes are ZFS's own rules
            return low, high
        return with_margin(self.ratio.ratio(), low, high, CODEC_MARGIN)

    def report(self, *, blocks: int, logical: int, stored_off: int, wanted: int) -> dict[str, Any]:
        """The JSON row: ratio and interval, space on the whole input, speeds with intervals."""
        ratio, stored_sums = self.sums()
        low, high = self.interval(blocks)
        stored = round(stored_sums.ratio(empty=0.0) * logical)
        return {
            "algorithm": self.algorithm,
            "ratio": round(ratio.ratio(), 4),
            "ratio_low": outward(low, math.floor),
            "ratio_high": outward(high, math.ceil),
            "stored_bytes": stored,
            "saved_bytes": stored_off - stored,
            "blocks": self.blocks,
            "complete": self.blocks >= wanted,
            **_speed("compress", self.compress),
            **_speed("decompress", self.decompress),
        }


def with_margin(centre: float, low: float, high: float, margin: float) -> tuple[float, float]:
    """`low`-`high` around `centre` widened by a relative `margin`, the two added in quadrature
    (independent errors: the sample's and the codec's)."""
    below = math.hypot(centre - low, centre * margin)
    above = math.hypot(high - centre, centre * margin)
    return max(0.0, centre - below), centre + above


def outward(bound: float, towards: Callable[[float], int]) -> float:
    """A bound rounded to 4 decimals away from the interval's middle (`math.floor` for the low
    one): rounding never narrows the interval stated (the VM lane once saw ZFS store 1.357864
    under a low bound of 1.35786x shown as 1.3579)."""
    return towards(bound * 10_000) / 10_000


@dataclass
class ExactSizing:
    """OpenZFS's own lz4 size of a prefix of lz4's blocks: its own share of the time budget."""

    blocks: int = 0
    sized: int = 0  # bytes sized
    seconds: float = 0.0
    cut: bool = False
    factor: RatioSums = field(default_factory=RatioSums)  # y = OpenZFS's size, x = liblz4's

    @property
    def wanted(self) -> bool:
        """Whether the next block should be sized exactly too."""
        return not self.cut and self.sized < EXACT_LZ4_BYTES

    def demand(self, wanted: int) -> float:
        """Seconds sizing EXACT_LZ4_BYTES (or the whole sample, if smaller) would take."""
        if not self.blocks:
            return math.inf
        blocks = min(wanted, math.ceil(EXACT_LZ4_BYTES * self.blocks / max(1, self.sized)))
        return self.seconds / self.blocks * blocks

    def size(self, data: bytes, library: int) -> int:
        """OpenZFS's lz4 size of `data`, counted against the library's."""
        started = time.perf_counter()
        exact = lz4_size(data)
        self.factor.add(exact, library)
        self.blocks += 1
        self.sized += len(data)
        self.seconds += time.perf_counter() - started
        return exact


@dataclass
class Lz4Tally(Tally):
    """lz4: timed with liblz4, sized as OpenZFS's older lz4 sizes (see EXACT_LZ4_BYTES)."""

    exact: ExactSizing = field(default_factory=ExactSizing)
    sector_size: int = 512
    # (block bytes, liblz4 size with header or UNKNOWN for a hole, OpenZFS's size or UNKNOWN)
    sizes: list[tuple[int, int, int]] = field(default_factory=list)
    ordinals: list[int] = field(default_factory=list)  # of the blocks in `sizes`

    def _count(self, data: bytes, ordinal: int, cost: Stored) -> None:
        """Sizes are summed when reported (the factor is known only then): keep the ordinal."""
        self.ordinals.append(ordinal)

    def _measure(self, data: bytes, sector_size: int, zero_is_hole: bool) -> Stored:
        """Record liblz4's size, and OpenZFS's while the exact sizing goes on."""
        self.sector_size = sector_size
        if zero_is_hole and is_zero(data):
            self.sizes.append((len(data), UNKNOWN, UNKNOWN))
            return HOLE
        library = len(self._timed(data)) + header_bytes("lz4")
        exact = UNKNOWN
        if self.exact.wanted:
            before = self.exact.seconds
            exact = self.exact.size(data, library)
            self.seconds -= self.exact.seconds - before  # the sizing has its own share
        self.sizes.append((len(data), library, exact))
        return HOLE  # not used: see _count

    def sums(self) -> tuple[RatioSums, RatioSums]:
        """Sums with OpenZFS's size where measured, else liblz4's times the measured factor."""
        ratio, stored = RatioSums(), RatioSums()
        for size, cost in self._costs():
            ratio.add(cost.lsize, cost.psize)
            stored.add(cost.asize, size)
        return ratio, stored

    def _costs(self) -> list[tuple[int, Stored]]:
        """(block bytes, how it is stored) of every sampled block, in sampling order."""
        factor = self.exact.factor.ratio()
        costs = []
        for size, library, exact in self.sizes:
            if library == UNKNOWN:
                cost = HOLE
            else:
                compressed = exact if exact != UNKNOWN else round(library * factor)
                cost = stored_size(size, compressed, self.sector_size)
            costs.append((size, cost))
        return costs

    def interval(self, population: int) -> tuple[float, float]:
        """The interval widened by the liblz4-to-OpenZFS factor's spread and the codec margin."""
        costs = self._costs()
        points: list[tuple[int, float, float]] = [
            (at, c.lsize, c.psize) for at, (_, c) in zip(self.ordinals, costs, strict=True)
        ]
        low, high = spread_interval(points, population)
        psize = sum(c.psize for _, c in costs)
        centre = sum(c.lsize for _, c in costs) / psize if psize else 1.0  # RatioSums.ratio()
        if centre <= 0:
            return low, high
        factor = 0.0
        if self.exact.blocks < self.blocks:  # a factor scales liblz4's sizes: its spread counts
            f_low, f_high = self.exact.factor.interval(self.blocks)
            factor = (f_high - f_low) / 2 / self.exact.factor.ratio()
        spread = math.hypot((high - low) / 2 / centre, factor, CODEC_MARGIN)
        return max(0.0, centre * (1 - spread)), centre * (1 + spread)

    def report(self, *, blocks: int, logical: int, stored_off: int, wanted: int) -> dict[str, Any]:
        """The row, with how many blocks were sized by OpenZFS's own lz4."""
        row = super().report(blocks=blocks, logical=logical, stored_off=stored_off, wanted=wanted)
        return {**row, "exact_blocks": self.exact.blocks}


def tally_for(algorithm: str) -> Tally:
    """The tally that sizes `algorithm` as OpenZFS does."""
    return Lz4Tally(algorithm) if algorithm == "lz4" else Tally(algorithm)


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


def report_all(
    tallies: list[Tally], *, blocks: int, logical: int, wanted: int
) -> list[dict[str, Any]]:
    """Rows for every algorithm; space saved is measured against compression off."""
    off = next((t for t in tallies if t.algorithm == "off"), None)
    assert off is not None, "the tallies include compression off, the baseline"
    stored_off = round(off.stored.ratio(empty=0.0) * logical)
    return [
        t.report(blocks=blocks, logical=logical, stored_off=stored_off, wanted=wanted)
        for t in tallies
    ]
