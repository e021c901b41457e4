"""What `zpool create` builds: the layout of a new pool and the panel's rules for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.zfs.errors import InvalidLayout

# Minimum disks per data vdev, as TrueNAS enforces them.
MIN_DISKS = {"stripe": 1, "mirror": 2, "raidz1": 3, "raidz2": 4, "raidz3": 5}
DATA_VDEV_TYPES = tuple(MIN_DISKS)


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
