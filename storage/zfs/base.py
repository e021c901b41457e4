"""The ZFS engine interface: a Protocol, and (re-exported) the frozen dataclasses it returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from storage.zfs.layout import DATA_VDEV_TYPES, MIN_DISKS, PoolLayout
from storage.zfs.records import (
    COMMENT_PROPERTY,
    COMPRESSION_CHOICES,
    DEDUP_CHOICES,
    Dataset,
    ImportablePool,
    Pool,
    PoolStatus,
    PropertyValue,
    ScrubStatus,
    Vdev,
    Version,
)
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
    "COMMENT_PROPERTY",
    "COMPRESSION_CHOICES",
    "DATA_VDEV_TYPES",
    "DEDUP_CHOICES",
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


@runtime_checkable
class ZfsEngine(Protocol):
    """What the storage UI needs from ZFS; `cli` implements it with zpool/zfs/zdb."""

    # True when a write is compressed as it is written (OpenZFS), so write speeds measure the
    # settings; False when compression is only accounted for afterwards (the sandbox).
    compresses_on_write: bool

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

    def create_dataset(
        self, name: str, *, properties: Mapping[str, str] | None = None, key: str | None = None
    ) -> None:
        """Create a file system; `key` is the new encryption root's passphrase or hex key."""
        ...

    def create_zvol(
        self,
        name: str,
        *,
        size: int,
        volblocksize: int | None = None,
        sparse: bool = False,
        properties: Mapping[str, str] | None = None,
        key: str | None = None,
    ) -> None:
        """Create a zvol, thick (refreservation) or sparse; `key` as create_dataset's."""
        ...

    def load_key(
        self, name: str, key: str | None = None, *, recursive: bool = False, typed: bool = False
    ) -> None:
        """Unlock: load the key (typed, or from its file when None; `typed` gives `key` to a
        root whatever its keylocation) and mount what it opens."""
        ...

    def unload_key(self, name: str, *, recursive: bool = False) -> None:
        """Lock: unmount and unload the key (DatasetBusy while something holds it open)."""
        ...

    def change_key(
        self,
        name: str,
        *,
        key_format: str | None = None,
        key_location: str | None = None,
        key: str | None = None,
    ) -> None:
        """A new key, format or location for an unlocked encryption root (data stays as is)."""
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

    def hold_tags(self, snapshots: Sequence[str]) -> dict[str, list[str]]:
        """The hold tags of each snapshot that has any (full names)."""
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
