"""The ZFS engine interface: a Protocol and the frozen dataclasses it returns."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from storage.zfs.layout import DATA_VDEV_TYPES, MIN_DISKS, PoolLayout
from storage.zfs.snapshots import DiffEntry, Snapshot
from storage.zfs.stats import (
    ArcStats,
    BlockDevice,
    DdtClass,
    DdtHistogramRow,
    DedupSimulation,
    DedupTable,
)

__all__ = [
    "DATA_VDEV_TYPES",
    "MIN_DISKS",
    "ArcStats",
    "BlockDevice",
    "Dataset",
    "DdtClass",
    "DdtHistogramRow",
    "DedupSimulation",
    "DedupTable",
    "DiffEntry",
    "ImportablePool",
    "Pool",
    "PoolLayout",
    "PoolStatus",
    "PropertyValue",
    "ScrubStatus",
    "Snapshot",
    "Vdev",
    "Version",
    "ZfsEngine",
]

# "... with 0 errors on Sun Nov 22 07:41:52 2026", "in progress since Sun Nov 22 07:41:52 2026"
_SCAN_DATE = re.compile(r"\b(?:on|since) (\w{3} \w{3} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4})")
_SCAN_DURATION = re.compile(r"\bin (?:(\d+) days? )?(\d+):(\d{2}):(\d{2})\b")
COMPRESSION_CHOICES = (
    "off",
    "lz4",
    "gzip",
    *(f"gzip-{n}" for n in range(1, 10)),
    "zstd",
    *(f"zstd-{n}" for n in range(1, 20)),
    "zle",
    "lzjb",
)
DEDUP_CHOICES = ("off", "on", "verify", "sha256", "sha256,verify")
COMMENT_PROPERTY = "nasui:comment"


@dataclass(frozen=True)
class Version:
    """OpenZFS versions of the userland tools and of the loaded kernel module."""

    userland: str
    kernel: str

    @property
    def totals_in_ddt_stats(self) -> bool:
        """True when DDT sizes are printed as totals (OpenZFS 2.3+), not per-entry averages."""
        return _version_tuple(self.kernel or self.userland) >= (2, 3)


@dataclass(frozen=True)
class Pool:
    """One imported pool, as `zpool list` shows it (sizes in bytes)."""

    name: str
    size: int
    allocated: int
    free: int
    fragmentation: int | None  # percent; None when unknown ("-")
    capacity: int  # percent used
    dedupratio: float
    health: str
    ashift: int | None  # the pool property; None when 0 (each vdev chose its own at creation)
    guid: str = ""
    altroot: str = ""

    @property
    def sector_size(self) -> int | None:
        """The allocation unit, 2^ashift bytes (None when ashift is not set)."""
        return 1 << self.ashift if self.ashift else None


@dataclass(frozen=True)
class Vdev:
    """A node of a pool's vdev tree: a pool root, mirror/raidz group, or a leaf disk."""

    name: str
    type: str  # root, mirror, raidz1, raidz2, raidz3, draid, spare, replacing, disk, file
    state: str
    read_errors: int = 0
    write_errors: int = 0
    cksum_errors: int = 0
    children: tuple[Vdev, ...] = ()
    note: str = ""  # trailing text such as "(resilvering)" or "was /dev/sdb"

    @property
    def leaves(self) -> tuple[Vdev, ...]:
        """Every leaf device under this node, left to right."""
        if not self.children:
            return (self,)
        return tuple(leaf for child in self.children for leaf in child.leaves)


@dataclass(frozen=True)
class ScrubStatus:
    """The pool's last or current scan (scrub or resilver)."""

    state: str  # none, scanning, finished, canceled
    function: str = ""  # scrub or resilver
    percent_done: float | None = None
    errors: int = 0
    repaired: int = 0
    scanned: int = 0
    issued: int = 0
    total: int = 0
    text: str = ""  # the raw "scan:" lines, for display

    @property
    def when(self) -> str:
        """When the scan ended (or, while scanning, began), as zpool status prints it."""
        found = _SCAN_DATE.search(self.text)
        return found.group(1) if found else ""

    @property
    def when_local(self) -> datetime | None:
        """`when` as a naive datetime in the machine's local time (zpool prints local time)."""
        if not self.when:
            return None
        return datetime.strptime(" ".join(self.when.split()), "%a %b %d %H:%M:%S %Y")

    @property
    def duration(self) -> int | None:
        """How long a finished scan took, in seconds ("in 1 days 02:03:04")."""
        found = _SCAN_DURATION.search(self.text)
        if not found or self.state != "finished":
            return None
        days, hours, minutes, seconds = (int(g or 0) for g in found.groups())
        return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


@dataclass(frozen=True)
class PoolStatus:
    """`zpool status` of one pool: health, vdev tree by class, scan state and errors."""

    name: str
    state: str
    vdevs: tuple[Vdev, ...]  # top-level data vdevs
    logs: tuple[Vdev, ...] = ()
    cache: tuple[Vdev, ...] = ()
    spares: tuple[Vdev, ...] = ()
    special: tuple[Vdev, ...] = ()
    dedup: tuple[Vdev, ...] = ()
    scan: ScrubStatus = field(default_factory=lambda: ScrubStatus(state="none"))
    status: str = ""
    action: str = ""
    errors: str = ""
    root: Vdev | None = None


@dataclass(frozen=True)
class ImportablePool:
    """A pool that `zpool import` found on the disks and could import."""

    name: str
    guid: str
    state: str
    status: str = ""
    action: str = ""
    vdevs: tuple[Vdev, ...] = ()


@dataclass(frozen=True)
class Dataset:
    """A file system or zvol with the properties the panel shows (sizes in bytes)."""

    name: str
    type: str  # filesystem or volume
    used: int
    available: int
    referenced: int
    logicalused: int
    compressratio: float
    compression: str
    dedup: str
    # The used breakdown: used = usedbydataset + usedbychildren + usedbysnapshots
    # + usedbyrefreservation, as OpenZFS keeps it.
    logicalreferenced: int
    usedbydataset: int
    usedbychildren: int
    usedbysnapshots: int
    usedbyrefreservation: int
    # Unix time the figures were read at. They lag writes until the pool's transaction group
    # syncs (about 5 s on OpenZFS; the sandbox's until its next rescan): see ZfsEngine.settle.
    figures_read_at: float
    recordsize: int | None = None  # file systems only
    volblocksize: int | None = None  # volumes only
    volsize: int | None = None  # volumes only
    quota: int | None = None  # None: no quota
    refquota: int | None = None
    reservation: int | None = None
    refreservation: int | None = None
    atime: bool | None = None  # None for volumes
    mountpoint: str | None = None
    readonly: bool = False
    sync: str = "standard"
    comment: str = ""  # the nasui:comment user property

    @property
    def pool(self) -> str:
        """The pool this dataset lives in."""
        return self.name.split("/", 1)[0]

    @property
    def is_volume(self) -> bool:
        """True for a zvol."""
        return self.type == "volume"

    @property
    def sparse(self) -> bool | None:
        """A zvol without a refreservation is sparse (thin); None for file systems."""
        if not self.is_volume:
            return None
        return not self.refreservation


@dataclass(frozen=True)
class PropertyValue:
    """One property as `zfs get` reports it: value and where it comes from."""

    value: str
    source: str  # local, default, inherited from X, temporary, received, -


@runtime_checkable
class ZfsEngine(Protocol):
    """What the storage UI needs from ZFS; `cli` implements it with zpool/zfs/zdb."""

    def version(self) -> Version:
        """OpenZFS userland and kernel versions."""
        ...

    def list_pools(self) -> list[Pool]:
        """All imported pools."""
        ...

    def get_pool(self, name: str) -> Pool:
        """One imported pool (PoolNotFound if absent)."""
        ...

    def pool_status(self, name: str) -> PoolStatus:
        """Health, vdev tree, scan state and errors of one pool."""
        ...

    def create_pool(
        self,
        name: str,
        layout: PoolLayout,
        *,
        force: bool = False,
        pool_properties: Mapping[str, str] | None = None,
        fs_properties: Mapping[str, str] | None = None,
        mountpoint: str | None = None,
    ) -> None:
        """Create a pool with the panel defaults (ashift=12, lz4, atime=off)."""
        ...

    def destroy_pool(self, name: str, *, force: bool = False) -> None:
        """Destroy a pool and everything on it."""
        ...

    def export_pool(self, name: str, *, force: bool = False) -> None:
        """Export a pool so another system (or a later import) can take it."""
        ...

    def importable_pools(self, search_dirs: Sequence[str] = ()) -> list[ImportablePool]:
        """Pools found on the disks that are not imported."""
        ...

    def import_pool(
        self,
        name_or_guid: str,
        *,
        new_name: str | None = None,
        force: bool = False,
        search_dirs: Sequence[str] = (),
    ) -> None:
        """Import a pool by name or numeric guid."""
        ...

    def scrub_start(self, pool: str) -> None:
        """Start a scrub."""
        ...

    def scrub_stop(self, pool: str) -> bool:
        """Cancel a running scrub; False when none was running."""
        ...

    def scrub_status(self, pool: str) -> ScrubStatus:
        """The pool's current or last scan."""
        ...

    def offline_disk(self, pool: str, disk: str, *, temporary: bool = False) -> None:
        """Take a disk offline (NoValidReplicas when it holds the last copy of some data)."""
        ...

    def online_disk(self, pool: str, disk: str) -> None:
        """Bring an offline disk back; it resilvers what it missed."""
        ...

    def replace_disk(self, pool: str, old: str, new: str) -> None:
        """Start resilvering `new` in place of `old` (DeviceTooSmall if it is smaller)."""
        ...

    def attach_disk(self, pool: str, existing: str, new: str) -> None:
        """Mirror a single disk or widen a mirror with `new` (NotAttachable for raidz)."""
        ...

    def detach_disk(self, pool: str, disk: str) -> None:
        """Take a side off a mirror or a replacement (NotDetachable for the last copy)."""
        ...

    def add_vdev(self, pool: str, vdev_type: str, disks: Sequence[str]) -> None:
        """Grow the pool by one data vdev (ReplicationMismatch unless like the others)."""
        ...

    def add_aux(self, pool: str, kind: str, disks: Sequence[str], *, mirror: bool = False) -> None:
        """Add hot spares, log or cache disks (kind: spare, log, cache)."""
        ...

    def remove_aux(self, pool: str, disk: str) -> None:
        """Remove a hot spare, cache or log device (or a mirrored log by its vdev name)."""
        ...

    def list_datasets(self, root: str) -> list[Dataset]:
        """A pool's (or dataset's) file systems and zvols, recursively, in one command."""
        ...

    def list_all_datasets(self) -> list[Dataset]:
        """Every imported pool's file systems and zvols, in one command."""
        ...

    def get_dataset(self, name: str) -> Dataset:
        """One dataset or zvol (DatasetNotFound if absent)."""
        ...

    def get_properties(self, name: str, properties: Sequence[str] = ()) -> dict[str, PropertyValue]:
        """Properties of one dataset with their sources (all when none are named)."""
        ...

    def create_dataset(self, name: str, *, properties: Mapping[str, str] | None = None) -> None:
        """Create a file system."""
        ...

    def create_zvol(
        self,
        name: str,
        *,
        size: int,
        volblocksize: int | None = None,
        sparse: bool = False,
        properties: Mapping[str, str] | None = None,
    ) -> None:
        """Create a zvol, thick (refreservation) or sparse."""
        ...

    def set_properties(self, name: str, properties: Mapping[str, str]) -> None:
        """Set properties on a dataset or zvol."""
        ...

    def inherit_property(self, name: str, prop: str, *, recursive: bool = False) -> None:
        """Drop a local value so the property is inherited again."""
        ...

    def grow_zvol(self, name: str, new_size: int) -> None:
        """Grow a zvol's volsize; VolumeShrink if new_size is smaller."""
        ...

    def destroy_dataset(self, name: str, *, recursive: bool = False, force: bool = False) -> None:
        """Destroy a dataset or zvol (recursive also removes children and snapshots)."""
        ...

    def list_snapshots(self, name: str, *, recursive: bool = False) -> list[Snapshot]:
        """Snapshots of a dataset or zvol (and its descendants when recursive), oldest first."""
        ...

    def create_snapshot(
        self, name: str, *, recursive: bool = False, properties: Mapping[str, str] | None = None
    ) -> None:
        """Snapshot DATASET@NAME (its whole tree, atomically, when recursive)."""
        ...

    def destroy_snapshots(
        self, dataset: str, names: Sequence[str], *, recursive: bool = False
    ) -> None:
        """Destroy the named snapshots of one dataset (and same-named ones below if recursive)."""
        ...

    def rollback(self, snapshot: str, *, destroy_newer: bool = False) -> None:
        """Return the dataset to the snapshot; newer snapshots go only when allowed."""
        ...

    def clone(
        self, snapshot: str, target: str, *, properties: Mapping[str, str] | None = None
    ) -> None:
        """A new writable dataset or zvol from the snapshot."""
        ...

    def diff(self, snapshot: str, other: str = "") -> list[DiffEntry]:
        """What changed in a file system since the snapshot (up to `other`, or now)."""
        ...

    def hold(self, snapshot: str, tag: str) -> None:
        """Keep the snapshot from being destroyed until released."""
        ...

    def release(self, snapshot: str, tag: str) -> None:
        """Drop a hold."""
        ...

    def dedup_table(self, pool: str) -> DedupTable:
        """DDT summary and histogram from `zpool status -D`."""
        ...

    def dedup_table_zdb(self, pool: str) -> DedupTable:
        """DDT per-class summary and histogram from `zdb -DD`."""
        ...

    def simulate_dedup(self, pool: str) -> DedupSimulation:
        """`zdb -S`: the dedup ratio the pool's data would get."""
        ...

    def arcstats(self) -> ArcStats:
        """Current ARC counters."""
        ...

    def list_disks(self) -> list[BlockDevice]:
        """The whole disks a pool could be built on (lsblk; the sandbox's files)."""
        ...

    def zvol_path(self, name: str) -> Path:
        """Where a zvol's blocks can be opened: its device node, or the sandbox's file."""
        ...

    def pool_iostat(self, interval: int) -> str | None:
        """`zpool iostat -Hp -y INTERVAL 1` output; None where the engine has no I/O counters."""
        ...

    def settle(self, pool: str | None = None) -> None:
        """Wait until what was written to a pool (every pool when None) shows in its figures."""
        ...


def _version_tuple(text: str) -> tuple[int, ...]:
    """Turn "zfs-2.1.11-1" into (2, 1, 11)."""
    digits = text.removeprefix("zfs-kmod-").removeprefix("zfs-").split("-")[0]
    parts = []
    for part in digits.split("."):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts)
