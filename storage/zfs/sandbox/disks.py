"""The sandbox's disks: sparse image files with stable names, serials and a model."""

from __future__ import annotations

import hashlib
import os
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from storage.zfs.errors import DeviceNotFound
from storage.zfs.stats import BlockDevice

DISK_MODEL = "nasui sandbox disk"
ZFS_MEMBER = "zfs_member"


@dataclass(frozen=True)
class SandboxDisk:
    """A disk image and the pool that holds it (None when free)."""

    device: BlockDevice
    pool: str | None = None
    imported: bool = False

    @property
    def name(self) -> str:
        """The disk's short name (sda)."""
        return self.device.name


def disk_name(index: int) -> str:
    """0 -> sda, 25 -> sdz, 26 -> sdaa, like the kernel names SCSI disks."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = string.ascii_lowercase[rest] + letters
    return f"sd{letters}"


class DiskShelf:
    """`count` sparse files of `size` bytes under root/disks, made on first use."""

    def __init__(self, root: Path, count: int, size: int) -> None:
        self.dir = root / "disks"
        self.names = tuple(disk_name(i) for i in range(count))
        self._size = size

    def ensure(self) -> None:
        """Create missing images: truncate makes them sparse, so they cost no space."""
        self.dir.mkdir(parents=True, exist_ok=True)
        for name in self.names:
            path = self.path(name)
            if not path.exists():
                with open(path, "wb") as handle:
                    handle.truncate(self._size)

    def path(self, name: str) -> Path:
        """The image file of a disk."""
        return self.dir / f"{name}.img"

    def resolve(self, disk: str) -> str:
        """A disk's short name from 'sdb', '/dev/sdb' or its image path; DeviceNotFound if none."""
        name = os.path.basename(disk).removesuffix(".img")
        if name not in self.names:
            raise DeviceNotFound(f"cannot resolve path '{disk}': no such sandbox disk")
        return name

    def size(self, name: str) -> int:
        """A disk's size in bytes."""
        self.ensure()
        return self.path(name).stat().st_size

    def device(self, name: str, in_pool: bool) -> BlockDevice:
        """A disk as lsblk would show it."""
        serial = "SBX" + hashlib.sha256(name.encode()).hexdigest()[:12].upper()
        return BlockDevice(
            name=name,
            path=str(self.path(name)),
            size=self.size(name),
            type="disk",
            model=DISK_MODEL,
            serial=serial,
            rotational=False,
            fstype=ZFS_MEMBER if in_pool else "",
        )

    def disks(self, owners: Mapping[str, tuple[str, bool]]) -> list[SandboxDisk]:
        """Every disk with the pool (name, imported) that holds it, if any."""
        self.ensure()
        out = []
        for name in self.names:
            pool, imported = owners.get(name, (None, False))
            out.append(SandboxDisk(self.device(name, pool is not None), pool, imported))
        return out
