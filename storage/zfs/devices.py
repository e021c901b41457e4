"""Disk arguments of the disk lifecycle commands, and where a disk sits in a pool's vdev tree."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from storage.zfs.base import MIN_DISKS, PoolStatus, Vdev
from storage.zfs.errors import DeviceNotFound, InvalidLayout, ReplicationMismatch

AUX_KINDS = ("spare", "log", "cache")
# A device as zpool takes it: a short name (vdb), a path or a guid; never an option.
_DEVICE = re.compile(r"[A-Za-z0-9_.:+/-]+")


def check_device(disk: str) -> str:
    """The disk argument unchanged, or InvalidLayout when it could be read as an option."""
    if not _DEVICE.fullmatch(disk) or disk.startswith("-") or ".." in disk.split("/"):
        raise InvalidLayout(f"invalid device name {disk!r}")
    return disk


def data_vdev_args(vdev_type: str, disks: Sequence[str]) -> list[str]:
    """`mirror a b`, `raidz1 a b c` or `a` (stripe): one data vdev of a `zpool add`."""
    if vdev_type not in MIN_DISKS:
        raise InvalidLayout(f"unknown vdev type {vdev_type!r}")
    if vdev_type == "stripe" and len(disks) != 1:
        raise InvalidLayout("a stripe vdev is one disk: add them one at a time")
    if len(disks) < MIN_DISKS[vdev_type]:
        raise InvalidLayout(f"{vdev_type} needs at least {MIN_DISKS[vdev_type]} disks per vdev")
    if len(set(disks)) != len(disks):
        raise InvalidLayout("a disk is listed more than once")
    keyword = [] if vdev_type == "stripe" else [vdev_type]
    return [*keyword, *(check_device(d) for d in disks)]


def kind_keyword(kind: str, *, mirror: bool, count: int) -> list[str]:
    """`spare`, `cache`, `log` or `log mirror` for `zpool add`."""
    if kind not in AUX_KINDS:
        raise InvalidLayout(f"unknown device class {kind!r}; use one of {AUX_KINDS}")
    if count < 1:
        raise InvalidLayout(f"pick at least one {kind} disk")
    if mirror and (kind != "log" or count < 2):
        raise InvalidLayout("only a log of 2 or more disks can be mirrored")
    return [kind, *(["mirror"] if mirror else [])]


def short(disk: str) -> str:
    """'/dev/vdb' -> 'vdb', as zpool status names whole disks."""
    return PurePath(disk).name


def find_leaf(status: PoolStatus, disk: str) -> tuple[str, Vdev | None, Vdev]:
    """(section, parent or None, leaf) of a disk in the pool; DeviceNotFound when absent."""
    sections = {
        "data": status.vdevs,
        "logs": status.logs,
        "cache": status.cache,
        "spares": status.spares,
        "special": status.special,
        "dedup": status.dedup,
    }
    for section, tops in sections.items():
        for top in tops:
            for parent, leaf in _leaves_with_parent(top, None):
                if short(leaf.name) == short(disk):
                    return section, parent, leaf
    raise DeviceNotFound(f"cannot find '{disk}': no such device in pool '{status.name}'")


def _leaves_with_parent(node: Vdev, parent: Vdev | None) -> list[tuple[Vdev | None, Vdev]]:
    if not node.children:
        return [(parent, node)]
    return [pair for child in node.children for pair in _leaves_with_parent(child, node)]


def data_shape(status: PoolStatus) -> tuple[str, set[int]]:
    """(type, widths) of the pool's data vdevs: a bare disk counts as a stripe of width 1."""
    types = {v.type if v.children else "stripe" for v in status.vdevs}
    widths = {len(v.children) if v.children else 1 for v in status.vdevs}
    kind = types.pop() if len(types) == 1 else "mixed"
    if kind in ("replacing", "spare"):  # a bare disk being replaced is still a single disk
        kind, widths = "stripe", {1}
    return kind, widths


def is_aux(status: PoolStatus, disk: str) -> bool:
    """Whether `disk` is a spare, a cache disk, a log disk or a mirrored log vdev's name."""
    if any(v.children and v.name == disk for v in status.logs):
        return True
    try:
        section, parent, _leaf = find_leaf(status, disk)
    except DeviceNotFound:
        return False
    return section in ("spares", "cache") or (section == "logs" and parent is None)


def check_replication(pool_type: str, widths: set[int], vdev_type: str, width: int) -> None:
    """Refuse a data vdev unlike the pool's others, in `zpool add`'s words.

    OpenZFS 2.1 accepts a raidz1 beside 2-way mirrors (same redundancy); the panel does not:
    every data vdev of a pool has the same type and width (TrueNAS's rule).
    """
    if pool_type == "mirror" and widths == {1}:
        pool_type = "stripe"  # one-disk mirrors are plain disks
    if pool_type == vdev_type and (vdev_type == "stripe" or widths == {width}):
        return
    head = "mismatched replication level: pool uses"
    if pool_type == "mixed" or len(widths) > 1:
        raise ReplicationMismatch(
            "mismatched replication level: the pool's data vdevs differ in type or width; "
            "attach or detach disks to make them alike before adding another"
        )
    parities = (pool_type[-1], vdev_type[-1])
    if pool_type != vdev_type and {pool_type[:-1], vdev_type[:-1]} == {"raidz"}:
        detail = f"{head} {parities[0]} device parity and new vdev uses {parities[1]}"
    elif pool_type == vdev_type:
        detail = f"{head} {max(widths)}-way {_word(pool_type)} and new vdev uses {width}-way"
        detail += f" {_word(vdev_type)}"
    else:
        detail = f"{head} {_word(pool_type)} and new vdev is {_word(vdev_type)}"
    raise ReplicationMismatch(
        f"invalid vdev specification\nuse '-f' to override the following errors:\n{detail}"
    )


def _word(vdev_type: str) -> str:
    """The word zpool uses for a vdev type: disk, mirror, raidz."""
    if vdev_type == "stripe":
        return "disk"
    return "raidz" if vdev_type.startswith("raidz") else vdev_type
