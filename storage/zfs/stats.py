"""Dataclasses for statistics: dedup tables, ARC counters and block devices."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class DdtClass:
    """One dedup table object (e.g. DDT-sha256-zap-unique), sizes as totals in bytes."""

    name: str
    entries: int
    size_on_disk: int
    size_in_core: int


@dataclass(frozen=True)
class DdtHistogramRow:
    """One bucket of the DDT histogram: blocks with this reference count (or "Total")."""

    refcnt: str  # "1", "2", "4", ... "1K", or "Total"
    blocks: int
    lsize: int
    psize: int
    dsize: int
    ref_blocks: int
    ref_lsize: int
    ref_psize: int
    ref_dsize: int


@dataclass(frozen=True)
class DedupTable:
    """Dedup table summary (totals, whatever the OpenZFS version prints) and histogram."""

    entries: int
    size_on_disk: int
    size_in_core: int
    classes: tuple[DdtClass, ...] = ()
    histogram: tuple[DdtHistogramRow, ...] = ()
    dedupratio: float | None = None  # zdb's "dedup = X" line when present


@dataclass(frozen=True)
class DedupSimulation:
    """`zdb -S`: what dedup would achieve on the pool's current data."""

    dedup: float
    compress: float
    copies: float
    ratio: float  # dedup * compress / copies
    histogram: tuple[DdtHistogramRow, ...] = ()

    @property
    def entries(self) -> int:
        """Number of unique blocks, i.e. of DDT entries dedup would create."""
        total = [row for row in self.histogram if row.refcnt == "Total"]
        return total[0].blocks if total else sum(r.blocks for r in self.histogram)


@dataclass(frozen=True)
class ArcStats:
    """Selected ARC counters from /proc/spl/kstat/zfs/arcstats; `raw` has every counter."""

    size: int
    c: int
    c_min: int
    c_max: int
    hits: int
    misses: int
    demand_data_hits: int
    demand_data_misses: int
    demand_metadata_hits: int
    demand_metadata_misses: int
    l2_hits: int
    l2_misses: int
    l2_size: int
    l2_asize: int
    raw: Mapping[str, int] = field(default_factory=dict)

    @property
    def hit_ratio(self) -> float | None:
        """Hits / (hits + misses), None before any access."""
        total = self.hits + self.misses
        return self.hits / total if total else None

    def __getitem__(self, key: str) -> int:
        """Any raw counter by its arcstats name."""
        return self.raw[key]


@dataclass(frozen=True)
class BlockDevice:
    """A disk as `lsblk` shows it, for picking pool members."""

    name: str
    path: str
    size: int
    type: str  # disk, part, loop, rom...
    model: str = ""
    serial: str = ""
    rotational: bool | None = None
    fstype: str = ""  # e.g. zfs_member when it already belongs to a pool
    mountpoint: str = ""
    children: tuple[BlockDevice, ...] = ()

    @property
    def in_use(self) -> bool:
        """True when the disk or one of its partitions holds a file system or is mounted."""
        own = bool(self.fstype or self.mountpoint)
        return own or any(child.in_use for child in self.children)
