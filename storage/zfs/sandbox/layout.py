"""Pool geometry: capacity per layout, per-block allocation (raidz parity) and the vdev tree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from storage.zfs.base import PoolLayout, Vdev

ASHIFT = 12
SECTOR = 1 << ASHIFT  # ashift=12, the panel's default: every allocation is whole 4 KiB sectors
# What a whole-disk vdev loses before data: zpool create puts an 8 MiB reserved partition at the
# end, starts partition 1 at 1 MiB, and the vdev keeps 4 labels of 256 KiB plus 3.5 MiB of boot
# area. OpenZFS also rounds down to whole metaslabs; the sandbox does not model that.
MIB = 1024 * 1024
DISK_OVERHEAD = 8 * MIB + 1 * MIB + 4 * 256 * 1024 + 3584 * 1024  # 13.5 MiB
# OpenZFS converts allocated bytes to "deflated" bytes (what `zfs list` shows) with the ratio of
# a 128 KiB block's size to its allocation on the vdev (hides raidz parity), in 512-byte units.
_DEFLATE_BLOCK = 1 << 17
_MINBLOCKSHIFT = 9
# Slop space kept back from `available`: 1/32 of the pool, at least 128 MiB (or half the pool
# when that is smaller), at most 128 GiB (spa_slop_shift, spa_min_slop, spa_max_slop in 2.1).
SLOP_SHIFT = 5
MIN_SLOP = 128 * 1024 * 1024
MAX_SLOP = 128 * 1024**3


def parity(vdev_type: str) -> int:
    """Parity disks per vdev: 1..3 for raidz1..3, 0 otherwise."""
    return int(vdev_type[-1]) if vdev_type.startswith("raidz") else 0


def round_up(value: int, unit: int) -> int:
    """`value` rounded up to a multiple of `unit`."""
    return -(-value // unit) * unit


def block_asize(vdev_type: str, width: int, psize: int) -> int:
    """Bytes one block of `psize` allocates on a vdev (for raidz: data + parity + padding)."""
    sectors = -(-psize // SECTOR)
    nparity = parity(vdev_type)
    if not nparity:
        return sectors * SECTOR  # mirror copies are not counted: the pool size is one side
    # Each row of (width - parity) data sectors gets `parity` parity sectors; the allocation is
    # padded to a multiple of parity + 1 so no unusable gap is left behind.
    total = sectors + nparity * -(-sectors // (width - nparity))
    return round_up(total, nparity + 1) * SECTOR


def deflate_ratio(vdev_type: str, width: int) -> int:
    """OpenZFS's integer deflate ratio of a vdev (512 when there is no parity)."""
    return _DEFLATE_BLOCK // (block_asize(vdev_type, width, _DEFLATE_BLOCK) >> _MINBLOCKSHIFT)


def deflate(asize: int, ratio: int) -> int:
    """Allocated bytes -> the bytes `zfs list` charges for them."""
    return (asize >> _MINBLOCKSHIFT) * ratio


def disk_space(disk_size: int) -> int:
    """Bytes of one whole disk that a vdev can use."""
    return max(0, disk_size - DISK_OVERHEAD)


def vdev_size(vdev_type: str, disk_sizes: Sequence[int]) -> int:
    """`zpool list` SIZE of one data vdev: one side of a mirror, every disk of a raidz."""
    smallest = min(disk_space(s) for s in disk_sizes)
    if vdev_type == "mirror":
        return smallest
    return smallest * len(disk_sizes)


def pool_size(layout: PoolLayout, sizes: Mapping[str, int]) -> int:
    """`zpool list` SIZE: the data vdevs only (log, cache and spares add nothing)."""
    return sum(vdev_size(layout.type, [sizes[d] for d in group]) for group in layout.groups)


def pool_dspace(layout: PoolLayout, sizes: Mapping[str, int]) -> int:
    """Usable (deflated) bytes: what the root dataset's used + available can reach."""
    width = len(layout.groups[0])
    return deflate(pool_size(layout, sizes), deflate_ratio(layout.type, width))


def slop(dspace: int) -> int:
    """Space OpenZFS keeps back so that deletes can still be written when the pool is full."""
    return max(min(dspace >> SLOP_SHIFT, MAX_SLOP), min(dspace >> 1, MIN_SLOP))


def layout_to_dict(layout: PoolLayout) -> dict[str, Any]:
    """A layout as JSON-friendly data for the state file."""
    return {
        "type": layout.type,
        "groups": [list(g) for g in layout.groups],
        "cache": list(layout.cache),
        "log": list(layout.log),
        "log_mirror": layout.log_mirror,
        "spares": list(layout.spares),
    }


def layout_from_dict(data: Mapping[str, Any]) -> PoolLayout:
    """The inverse of layout_to_dict."""
    return PoolLayout(
        type=data["type"],
        groups=tuple(tuple(g) for g in data["groups"]),
        cache=tuple(data.get("cache", ())),
        log=tuple(data.get("log", ())),
        log_mirror=bool(data.get("log_mirror")),
        spares=tuple(data.get("spares", ())),
    )


def _disk(name: str, state: str = "ONLINE") -> Vdev:
    return Vdev(name=name, type="disk", state=state)


def data_vdevs(layout: PoolLayout) -> tuple[Vdev, ...]:
    """Top-level data vdevs as `zpool status` names them: mirror-0, raidz1-1, or bare disks."""
    if layout.type == "stripe":
        return tuple(_disk(d) for group in layout.groups for d in group)
    return tuple(
        Vdev(f"{layout.type}-{i}", layout.type, "ONLINE", children=tuple(_disk(d) for d in group))
        for i, group in enumerate(layout.groups)
    )


def log_vdevs(layout: PoolLayout) -> tuple[Vdev, ...]:
    """The logs section; a mirrored log is numbered after the data vdevs, as OpenZFS does."""
    if not layout.log:
        return ()
    if layout.log_mirror:
        index = len(data_vdevs(layout))
        children = tuple(_disk(d) for d in layout.log)
        return (Vdev(f"mirror-{index}", "mirror", "ONLINE", children=children),)
    return tuple(_disk(d) for d in layout.log)


def root_vdev(name: str, layout: PoolLayout) -> Vdev:
    """The pool's root node over its data vdevs."""
    return Vdev(name=name, type="root", state="ONLINE", children=data_vdevs(layout))


def aux_vdevs(layout: PoolLayout) -> tuple[tuple[Vdev, ...], tuple[Vdev, ...]]:
    """(cache, spares) sections; idle spares are AVAIL like in `zpool status`."""
    return tuple(_disk(d) for d in layout.cache), tuple(_disk(d, "AVAIL") for d in layout.spares)


@dataclass(frozen=True)
class Geometry:
    """How a pool's data vdevs allocate: their type and width (all data vdevs are alike)."""

    vdev_type: str
    width: int

    @classmethod
    def of(cls, layout: PoolLayout) -> Geometry:
        """The geometry of a layout's data vdevs."""
        return cls(layout.type, len(layout.groups[0]))

    def asize(self, psize: int) -> int:
        """Allocated bytes of one block."""
        return block_asize(self.vdev_type, self.width, psize)

    def dsize(self, asize: int) -> int:
        """Allocated bytes as `zfs list` charges them."""
        return deflate(asize, deflate_ratio(self.vdev_type, self.width))
