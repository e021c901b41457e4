"""Reads of the machine's disks: which pool or file system uses each (the engine lists them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from storage.engine import get_engine
from storage.zfs.base import Vdev
from storage.zfs.stats import BlockDevice


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
