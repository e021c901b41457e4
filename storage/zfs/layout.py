"""What `zpool create` builds: the layout of a new pool and the panel's rules for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.zfs.errors import InvalidLayout

# Minimum disks per data vdev, as TrueNAS enforces them.
MIN_DISKS = {"stripe": 1, "mirror": 2, "raidz1": 3, "raidz2": 4, "raidz3": 5}
DATA_VDEV_TYPES = tuple(MIN_DISKS)
# The layouts a new pool can have: the panel's name of each and what it keeps. The create
# form's choices and every message about a layout say these names (RAID-Z1, never raidz1).
LAYOUTS: dict[str, tuple[str, str]] = {
    "stripe": ("Stripe", "no redundancy"),
    "mirror": ("Mirror", "a full copy on each disk"),
    "raid10": ("RAID10", "striped mirrors"),
    "raidz1": ("RAID-Z1", "survives one disk failure"),
    "raidz2": ("RAID-Z2", "survives two disk failures"),
    "raidz3": ("RAID-Z3", "survives three disk failures"),
}
PARITY = {"raidz1": 1, "raidz2": 2, "raidz3": 3}
_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def display_name(layout: str) -> str:
    """The panel's name of a layout or data vdev type ("raidz1" -> "RAID-Z1")."""
    return LAYOUTS.get(layout, (layout, ""))[0]


@dataclass(frozen=True)
class CapacityEstimate:
    """What a new pool's data vdevs would give: usable bytes before ZFS's own overheads."""

    raw: int  # every data disk's size added up
    usable: int  # after parity or copies, before metadata, padding and slop space
    lost_disks: int  # disks' worth that go to parity or copies
    spent_on: str  # "parity", "copies" or "" (a stripe keeps nothing back)
    uneven: bool  # a vdev mixes sizes: its larger disks are used only up to its smallest

    def lost_words(self) -> str:
        """ "one disk's worth goes to parity", "no redundancy", ..."""
        if not self.spent_on:
            return "no redundancy: losing one disk loses the pool"
        count = _COUNTS[self.lost_disks] if self.lost_disks < len(_COUNTS) else self.lost_disks
        verb = "goes" if self.lost_disks == 1 else "go"
        worth = "disk's" if self.lost_disks == 1 else "disks'"
        return f"{count} {worth} worth {verb} to {self.spent_on}"


def estimate_capacity(vdev_type: str, groups: Sequence[Sequence[int]]) -> CapacityEstimate:
    """Usable space of data vdevs of `vdev_type`, each given as its disks' sizes in bytes.

    stripe: every disk adds up; mirror: the smallest disk of each mirror; raidzN: (n - N)
    times the smallest disk of each vdev. An estimate: ZFS then keeps some for metadata,
    RAID-Z padding and its slop space (1/32 of the pool).
    """
    usable, lost = 0, 0
    for sizes in groups:
        smallest, width = min(sizes, default=0), len(sizes)
        if vdev_type == "stripe":
            usable += sum(sizes)
            continue
        kept = 1 if vdev_type == "mirror" else max(0, width - PARITY.get(vdev_type, 0))
        usable += kept * smallest
        lost += width - kept
    spent_on = "" if vdev_type == "stripe" else "copies" if vdev_type == "mirror" else "parity"
    return CapacityEstimate(
        raw=sum(sum(sizes) for sizes in groups),
        usable=usable,
        lost_disks=lost,
        spent_on=spent_on,
        uneven=vdev_type != "stripe" and any(len(set(sizes)) > 1 for sizes in groups),
    )


@dataclass(frozen=True)
class PoolLayout:
    """What `zpool create` should build: data vdevs of one type and width, plus aux devices."""

    type: str  # stripe, mirror, raidz1, raidz2, raidz3
    groups: tuple[tuple[str, ...], ...]  # one tuple of disks per data vdev
    cache: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    log_mirror: bool = False
    spares: tuple[str, ...] = ()

    @classmethod
    def single(
        cls,
        vdev_type: str,
        disks: Sequence[str],
        *,
        cache: Sequence[str] = (),
        log: Sequence[str] = (),
        spares: Sequence[str] = (),
    ) -> PoolLayout:
        """A layout with one data vdev (for stripe: one vdev per disk)."""
        groups = tuple((d,) for d in disks) if vdev_type == "stripe" else (tuple(disks),)
        return cls(
            type=vdev_type, groups=groups, cache=tuple(cache), log=tuple(log), spares=tuple(spares)
        )

    def disks(self) -> tuple[str, ...]:
        """Every disk the layout uses, data first."""
        data = tuple(d for group in self.groups for d in group)
        return data + self.log + self.cache + self.spares

    def validate(self) -> None:
        """Raise InvalidLayout unless the layout follows the panel's rules."""
        if self.type not in MIN_DISKS:
            raise InvalidLayout(f"unknown vdev type {self.type!r}; use one of {DATA_VDEV_TYPES}")
        if not self.groups or not all(self.groups):
            raise InvalidLayout("a pool needs at least one data disk")
        widths = {len(g) for g in self.groups}
        if len(widths) > 1 and self.type != "stripe":
            raise InvalidLayout(f"all {self.type} vdevs must have the same number of disks")
        if min(widths) < MIN_DISKS[self.type]:
            raise InvalidLayout(f"{self.type} needs at least {MIN_DISKS[self.type]} disks per vdev")
        all_disks = self.disks()
        if len(set(all_disks)) != len(all_disks):
            raise InvalidLayout("a disk is listed more than once")
        if self.log_mirror and len(self.log) < 2:
            raise InvalidLayout("a mirrored log needs at least 2 disks")

    def vdev_args(self) -> list[str]:
        """The vdev part of the `zpool create` command line."""
        args: list[str] = []
        for group in self.groups:
            if self.type != "stripe":
                args.append(self.type)
            args.extend(group)
        if self.log:
            args += ["log"] + (["mirror"] if self.log_mirror else []) + list(self.log)
        if self.cache:
            args += ["cache", *self.cache]
        if self.spares:
            args += ["spare", *self.spares]
        return args
