"""Reads of pools, datasets, zvols and disks shared by pages and the API (ZFS is the truth)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePath

import psutil

from nasui.models import Job
from storage.engine import get_engine
from storage.zfs import errors as zfs
from storage.zfs import names
from storage.zfs.base import Dataset, ImportablePool, Pool, PoolStatus, Vdev
from storage.zfs.dedup import DedupEstimate, estimate_dedup

__all__ = ["Dataset", "DatasetRow", "DiskRow", "PoolDetail"]
from storage.zfs.stats import BlockDevice, DedupTable


@dataclass(frozen=True)
class DiskRow:
    """A whole disk and what uses it."""

    name: str
    path: str
    size: int
    model: str
    serial: str
    pool: str | None
    other_use: str  # e.g. a file system or mount on it, "" when free

    @property
    def free(self) -> bool:
        """True when a new pool may take this disk."""
        return self.pool is None and not self.other_use


@dataclass(frozen=True)
class PoolDetail:
    """Everything the pool page shows."""

    pool: Pool
    status: PoolStatus
    ddt: DedupTable | None
    root: Dataset | None


@dataclass(frozen=True)
class DatasetRow:
    """A dataset or zvol with its depth in the tree, for indented tables."""

    dataset: Dataset
    depth: int


@dataclass(frozen=True)
class DatasetTree:
    """A pool's rows, and how many scratch datasets and zvols were left out of them."""

    rows: list[DatasetRow]
    scratch: int


# The kind of the advisor's estimate jobs (see measured_dedup).
ADVISOR_ESTIMATE = "advisor.estimate"


def pool_list() -> list[Pool]:
    """Every imported pool, by name."""
    return sorted(get_engine().list_pools(), key=lambda p: p.name)


@dataclass(frozen=True)
class PoolCard:
    """A pool as its card shows it: raw space, and what its datasets can still use."""

    pool: Pool
    available: int | None  # the root dataset's available: after parity and reservations


def pool_cards() -> list[PoolCard]:
    """Every pool with the space its datasets can use (FREE in zpool list counts parity)."""
    engine = get_engine()
    cards = []
    for pool in pool_list():
        try:
            available: int | None = engine.get_dataset(pool.name).available
        except zfs.ZfsError:
            available = None  # a pool without a mounted root reads as "—", not as an error
        cards.append(PoolCard(pool=pool, available=available))
    return cards


def pool_get(name: str) -> Pool:
    """One pool (PoolNotFound if absent)."""
    return get_engine().get_pool(name)


def pool_detail(name: str) -> PoolDetail:
    """A pool with its status, dedup table and root dataset."""
    engine = get_engine()
    pool = engine.get_pool(name)
    return PoolDetail(
        pool=pool,
        status=engine.pool_status(name),
        ddt=_ddt_or_none(name),
        root=next(iter(engine.list_datasets(name)), None),
    )


def _ddt_or_none(pool: str) -> DedupTable | None:
    """The pool's DDT summary; None when the engine cannot read it."""
    try:
        return get_engine().dedup_table(pool)
    except zfs.ZfsError:
        return None


def dataset_tree(root: str) -> DatasetTree:
    """A pool's datasets and zvols in tree order, scratch data left out (one ZFS listing)."""
    found = get_engine().list_datasets(root)
    datasets = sorted(
        (d for d in found if not names.is_scratch(d.name)), key=lambda d: d.name.split("/")
    )
    base = root.count("/")
    rows = [DatasetRow(dataset=d, depth=d.name.count("/") - base) for d in datasets]
    return DatasetTree(rows=rows, scratch=len(found) - len(rows))


def dataset_list(
    pool: str | None = None, *, volumes: bool | None = None, settle: bool = False
) -> list[Dataset]:
    """Datasets and/or zvols of one pool or of all pools; settled: after their writes synced.

    A benchmark's scratch datasets and zvols are left out: nothing may be shared, snapshotted
    or chosen inside them, and they are gone when the benchmark ends.
    """
    engine = get_engine()
    if settle:
        engine.settle(pool)
    listed = engine.list_datasets(pool) if pool else engine.list_all_datasets()
    found = [d for d in listed if not names.is_scratch(d.name)]
    if volumes is not None:
        found = [d for d in found if d.is_volume == volumes]
    return sorted(found, key=lambda d: d.name.split("/"))


def dataset_get(name: str, *, settle: bool = False) -> Dataset:
    """One dataset or zvol (DatasetNotFound if absent); settled: after its pool's writes synced."""
    engine = get_engine()
    if settle:
        engine.settle(name.split("/", 1)[0])
    return engine.get_dataset(name)


def dataset_properties(name: str, properties: tuple[str, ...]) -> dict[str, str]:
    """Locally set values of some properties ("inherit" for inherited or default ones)."""
    found = get_engine().get_properties(name, list(properties))
    values = {}
    for prop, value in found.items():
        values[prop] = value.value if value.source == "local" else "inherit"
    return values


def importable_pools() -> list[ImportablePool]:
    """Pools on the disks that are not imported yet."""
    return get_engine().importable_pools()


def _leaf_names(vdevs: tuple[Vdev, ...]) -> set[str]:
    return {PurePath(leaf.name).name for vdev in vdevs for leaf in vdev.leaves}


def _pool_members() -> dict[str, str]:
    """Disk name -> pool name, for every disk any imported pool uses."""
    engine = get_engine()
    members: dict[str, str] = {}
    for pool in engine.list_pools():
        status = engine.pool_status(pool.name)
        groups = status.vdevs + status.logs + status.cache + status.spares
        for leaf in _leaf_names(groups + status.special + status.dedup):
            members[leaf] = pool.name
    return members


def _other_use(device: BlockDevice) -> str:
    """What else lives on a disk (a file system, a mount), or ""."""
    for dev in (device, *device.children):
        if dev.mountpoint:
            return f"mounted at {dev.mountpoint}"
        if dev.fstype and dev.fstype != "zfs_member":
            return f"holds {dev.fstype}"
    return ""


def _devices() -> list[BlockDevice]:
    """The disks the engine can build pools on (the machine's, or the sandbox's files)."""
    return get_engine().list_disks()


def disk_list() -> list[DiskRow]:
    """Whole disks with the pool that uses each (from the engine's own disk listing)."""
    devices = _devices()
    members = _pool_members()
    rows = []
    for dev in devices:
        pool = members.get(dev.name) or members.get(PurePath(dev.path).name)
        if pool is None and dev.fstype == "zfs_member":
            pool = "(exported pool)"
        rows.append(
            DiskRow(
                name=dev.name,
                path=dev.path,
                size=dev.size,
                model=dev.model,
                serial=dev.serial,
                pool=pool,
                other_use=_other_use(dev),
            )
        )
    return sorted(rows, key=lambda r: r.name)


def arc_max_or_none() -> int | None:
    """The ARC's size limit, None where there is no ARC (sandbox, no module)."""
    try:
        return get_engine().arcstats().c_max or None
    except zfs.ZfsError:
        return None


def ddt_core_bytes_per_entry(pool: str | None) -> int | None:
    """In-core bytes per DDT entry of the pool's own table; None when it has none."""
    ddt = _ddt_or_none(pool) if pool else None
    if ddt is not None and ddt.entries > 0 and ddt.size_in_core > 0:
        return max(1, ddt.size_in_core // ddt.entries)
    return None


def dedup_estimate(*, pool: str | None, data_bytes: int, block_size: int) -> DedupEstimate:
    """What dedup would need for `data_bytes` in blocks of `block_size` on this machine."""
    return estimate_dedup(
        data_bytes=data_bytes,
        block_size=block_size,
        ram_total=psutil.virtual_memory().total,
        arc_max=arc_max_or_none(),
        core_bytes_per_entry=ddt_core_bytes_per_entry(pool),
    )


def filesystem_names() -> list[str]:
    """Every file system (pool roots included): the places new datasets and zvols can go."""
    return [d.name for d in dataset_list(volumes=False)]


def zvol_path(name: str) -> Path:
    """Where a zvol's blocks can be read: its device node (a sparse file in the sandbox)."""
    return get_engine().zvol_path(name)


@dataclass(frozen=True)
class MeasuredDedup:
    """What the advisor measured on a dataset or zvol's own data (its latest estimate)."""

    job_id: int
    measured_at: datetime
    ratio: float
    unique_blocks: int
    ddt_bytes: int
    verdict: str  # worth, costly, trap
    reason: str
    zdb_ratio: float | None


def measured_dedup(name: str) -> MeasuredDedup | None:
    """The latest finished advisor estimate on `name`; None when it was never measured."""
    # The advisor sits above storage, so storage reads its results from the shared jobs table.
    job = (
        Job.objects.filter(
            kind=ADVISOR_ESTIMATE, status=Job.Status.SUCCEEDED, arguments__source=name
        )
        .exclude(result=None)
        .first()
    )
    result = (job.result if job else None) or {}
    dedup = result.get("dedup")
    if job is None or not dedup or job.finished_at is None:
        return None
    zdb = result.get("zdb") or {}
    return MeasuredDedup(
        job_id=job.pk,
        measured_at=job.finished_at,
        ratio=float(dedup["ratio"]),
        unique_blocks=int(dedup["unique_blocks"]),
        ddt_bytes=int(dedup["ddt_bytes"]),
        verdict=str(dedup["verdict"]),
        reason=str(dedup.get("reason", "")),
        zdb_ratio=float(zdb["ratio"]) if zdb.get("ratio") is not None else None,
    )
