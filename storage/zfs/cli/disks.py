"""Disk lifecycle commands of the `cli` engine (a mixin of CliZfsEngine)."""

from __future__ import annotations

from collections.abc import Sequence

from storage.zfs.base import PoolStatus
from storage.zfs.devices import (
    AUX_KINDS,
    check_device,
    check_replication,
    data_shape,
    data_vdev_args,
    is_aux,
    kind_keyword,
)
from storage.zfs.errors import ZfsError
from storage.zfs.names import check_pool_name
from storage.zfs.runner import CommandResult


class DiskCommands:
    """offline/online/replace/attach/detach of disks and adding vdevs, through `zpool`.

    OpenZFS itself refuses what would lose data (the last copy, a smaller disk, a mismatched
    vdev without -f); these commands never pass -f, so its refusals reach the caller as typed
    errors.
    """

    def pool_status(self, name: str) -> PoolStatus:
        raise NotImplementedError  # provided by the engine

    def run(
        self, argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None
    ) -> CommandResult:
        raise NotImplementedError  # provided by the engine

    def offline_disk(self, pool: str, disk: str, *, temporary: bool = False) -> None:
        """`zpool offline [-t] POOL DISK`: -t does not survive a reboot."""
        check_pool_name(pool)
        flags = ["-t"] if temporary else []
        self.run(["zpool", "offline", *flags, pool, check_device(disk)])

    def online_disk(self, pool: str, disk: str) -> None:
        """`zpool online POOL DISK` (it resilvers what the disk missed)."""
        check_pool_name(pool)
        self.run(["zpool", "online", pool, check_device(disk)])

    def replace_disk(self, pool: str, old: str, new: str) -> None:
        """`zpool replace POOL OLD NEW`: starts a resilver onto NEW; OLD leaves when it ends."""
        check_pool_name(pool)
        self.run(["zpool", "replace", pool, check_device(old), check_device(new)])

    def attach_disk(self, pool: str, existing: str, new: str) -> None:
        """`zpool attach POOL EXISTING NEW`: a disk becomes a mirror, a mirror grows a side."""
        check_pool_name(pool)
        self.run(["zpool", "attach", pool, check_device(existing), check_device(new)])

    def detach_disk(self, pool: str, disk: str) -> None:
        """`zpool detach POOL DISK`: one side of a mirror (or of a replacement) leaves."""
        check_pool_name(pool)
        self.run(["zpool", "detach", pool, check_device(disk)])

    def add_vdev(self, pool: str, vdev_type: str, disks: Sequence[str]) -> None:
        """`zpool add POOL TYPE DISKS...`: one more data vdev of the pool's type and width."""
        check_pool_name(pool)
        args = data_vdev_args(vdev_type, disks)
        pool_type, widths = data_shape(self.pool_status(pool))
        check_replication(pool_type, widths, vdev_type, len(disks))
        self.run(["zpool", "add", pool, *args])

    def add_aux(self, pool: str, kind: str, disks: Sequence[str], *, mirror: bool = False) -> None:
        """`zpool add POOL spare|log|cache [mirror] DISKS...`."""
        check_pool_name(pool)
        keyword = kind_keyword(kind, mirror=mirror, count=len(disks))
        self.run(["zpool", "add", pool, *keyword, *(check_device(d) for d in disks)])

    def remove_aux(self, pool: str, disk: str) -> None:
        """`zpool remove POOL DISK`: a spare, cache or log device (never data) leaves the pool."""
        check_pool_name(pool)
        if not is_aux(self.pool_status(pool), check_device(disk)):
            raise ZfsError(
                f"cannot remove {disk}: only spare, cache and log devices can be removed here"
            )
        self.run(["zpool", "remove", pool, disk])


__all__ = ["AUX_KINDS", "DiskCommands"]
