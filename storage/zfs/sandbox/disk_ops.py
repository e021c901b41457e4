"""Disk lifecycle of the sandbox engine (a mixin of SandboxZfsEngine), refusing as OpenZFS does.

Replacing or attaching starts a resilver on the pool's scan slot (the scrub's progress model);
the replaced disk stays a member until it ends. Messages follow OpenZFS 2.1's (the VM lane
captured them: tests/zfs/fixtures/disks). Simplifications: the data vdevs stay of one type (a
stripe with an attached disk becomes a mirror pool whose other vdevs are one-disk mirrors, which
allocate exactly like stripes), only one log vdev is modelled, and a hot spare used in a
replacement becomes a plain member at once (OpenZFS keeps it in a spare-N node until the old
disk is detached).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from storage.zfs import devices
from storage.zfs.errors import (
    DeviceInUse,
    DeviceNotFound,
    DeviceTooSmall,
    NotAttachable,
    NotDetachable,
    NoValidReplicas,
    PoolBusy,
    ZfsError,
)
from storage.zfs.sandbox import figures, health, scrub
from storage.zfs.sandbox import layout as geo
from storage.zfs.sandbox.disks import DiskShelf
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tree import PoolTree

Record = dict[str, Any]


class DiskOps:
    """offline/online/replace/attach/detach and adding vdevs over the state file's layout."""

    _state: StateStore
    _clock: Callable[[], float]
    _scrub_rate: float
    shelf: DiskShelf
    root: Path

    def _pool(self, state: State, name: str) -> PoolTree:
        raise NotImplementedError  # provided by the engine

    # -- plumbing ------------------------------------------------------------------------
    def _disk_change(self, pool: str, change: Callable[[State, Record], None]) -> None:
        """Run `change` on the pool's settled record under the state lock."""
        with self._state.transaction() as state:
            tree = self._pool(state, pool)
            record = health.settle(tree.record, self._clock())
            change(state, record)
            state["pools"][tree.guid] = record

    def _free_disk(self, state: State, disk: str) -> str:
        """A shelf disk no pool holds (as `zpool` checks a new device)."""
        name = self.shelf.resolve(disk)
        for record in state["pools"].values():
            if name in health.members(record):
                kind = "active" if record["imported"] else "exported"
                raise DeviceInUse(f"{name} is part of {kind} pool '{record['name']}'")
        return name

    def _resilver(self, record: Record, new: str, old: str) -> None:
        """Start (or restart) the pool's resilver onto `new`."""
        record.setdefault("resilvering", {})[new] = old
        layout = geo.layout_from_dict(record["layout"])
        total = figures.pool_allocated(PoolTree(record, self.root))
        share = total // max(1, len(layout.groups))
        record["scrub"] = scrub.start(share, self._clock(), self._scrub_rate, "resilver")

    # -- offline / online ----------------------------------------------------------------
    def offline_disk(self, pool: str, disk: str, *, temporary: bool = False) -> None:
        """Take a disk offline; refused when its vdev would have no valid replica left."""

        def change(state: State, record: Record) -> None:
            name = _member_name(record, disk, pool)
            group, kind = _locate(record, name)
            if kind == "spares":
                raise ZfsError(f"cannot offline {name}: device is reserved as a hot spare")
            if kind == "data" and _would_fail(record, group, name):
                raise NoValidReplicas(f"cannot offline {name}: no valid replicas")
            record.setdefault("offline", {})[name] = temporary

        self._disk_change(pool, change)

    def online_disk(self, pool: str, disk: str) -> None:
        """Bring an offline disk back (a no-op for an online one, as in OpenZFS)."""

        def change(state: State, record: Record) -> None:
            name = _member_name(record, disk, pool)
            record.get("offline", {}).pop(name, None)

        self._disk_change(pool, change)

    # -- replace / attach / detach -------------------------------------------------------
    def replace_disk(self, pool: str, old: str, new: str) -> None:
        """Resilver `new` in place of `old`; `old` leaves the pool when the resilver ends."""

        def change(state: State, record: Record) -> None:
            gone = _member_name(record, old, pool)
            _group, kind = _locate(record, gone)
            if kind in ("cache", "spares"):
                raise ZfsError(
                    f"cannot replace {gone} with {new}: a {kind} device is removed and added,"
                    " not replaced"
                )
            resilvering = record.get("resilvering", {})
            if gone in resilvering or gone in resilvering.values():
                raise PoolBusy(
                    f"cannot replace {gone} with {new}: already in replacing/spare config; wait "
                    "for completion or use 'zpool detach'"
                )
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            name = self._spare_or_free(state, layout, new)
            self._check_size(record, gone, name, "replace")
            _swap(layout, gone, name)
            record["layout"] = layout
            record["disk_sizes"][name] = self.shelf.size(name)
            self._resilver(record, name, gone)

        self._disk_change(pool, change)

    def _spare_or_free(self, state: State, layout: Record, disk: str) -> str:
        """The new disk of a replacement: a free disk, or one of this pool's hot spares."""
        name = self.shelf.resolve(disk)
        if name in layout["spares"]:
            layout["spares"].remove(name)
            return name
        return self._free_disk(state, name)

    def _check_size(self, record: Record, existing: str, new: str, verb: str) -> None:
        if self.shelf.size(new) < record["disk_sizes"].get(existing, 0):
            raise DeviceTooSmall(f"cannot {verb} {existing} with {new}: device is too small")

    def attach_disk(self, pool: str, existing: str, new: str) -> None:
        """Mirror a single disk, or widen a mirror, with a free disk (resilvered onto)."""

        def change(state: State, record: Record) -> None:
            there = _member_name(record, existing, pool)
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            group = next((g for g in layout["groups"] if there in g), None)
            if group is None or layout["type"] not in ("stripe", "mirror"):
                raise NotAttachable(
                    f"cannot attach {new} to {there}: can only attach to mirrors and top-level "
                    "disks"
                )
            name = self._free_disk(state, new)
            self._check_size(record, there, name, "attach")
            group.append(name)
            layout["type"] = "mirror"
            record["layout"] = layout
            record["disk_sizes"][name] = self.shelf.size(name)
            self._resilver(record, name, "")

        self._disk_change(pool, change)

    def detach_disk(self, pool: str, disk: str) -> None:
        """Take one side off a mirror (or cancel/finish a replacement); never the last copy."""

        def change(state: State, record: Record) -> None:
            name = _member_name(record, disk, pool)
            if _detach_replacing(record, name):
                return
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            group = next((g for g in layout["groups"] if name in g), None)
            if group is None or len(group) < 2 or layout["type"] != "mirror":
                raise NotDetachable(
                    f"cannot detach {name}: only applicable to mirror and replacing vdevs"
                )
            if _would_fail(record, group, name):
                raise NoValidReplicas(f"cannot detach {name}: no valid replicas")
            group.remove(name)
            if all(len(g) == 1 for g in layout["groups"]):
                layout["type"] = "stripe"
            record["layout"] = layout
            _forget(record, name)

        self._disk_change(pool, change)

    # -- growing the pool ----------------------------------------------------------------
    def add_vdev(self, pool: str, vdev_type: str, disks: Sequence[str]) -> None:
        """One more data vdev of the pool's type and width (OpenZFS refuses others without -f)."""
        devices.data_vdev_args(vdev_type, disks)

        def change(state: State, record: Record) -> None:
            names = [self._free_disk(state, d) for d in disks]
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            widths = {len(g) for g in layout["groups"]}
            devices.check_replication(layout["type"], widths, vdev_type, len(names))
            layout["groups"].append(names)
            record["layout"] = layout
            record["disk_sizes"].update({n: self.shelf.size(n) for n in names})

        self._disk_change(pool, change)

    def add_aux(self, pool: str, kind: str, disks: Sequence[str], *, mirror: bool = False) -> None:
        """Add hot spares, cache or log disks (a log of 2+ disks may be mirrored)."""
        devices.kind_keyword(kind, mirror=mirror, count=len(disks))

        def change(state: State, record: Record) -> None:
            names = [self._free_disk(state, d) for d in disks]
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            key = {"spare": "spares", "log": "log", "cache": "cache"}[kind]
            if kind == "log" and layout["log"] and (mirror or layout["log_mirror"]):
                raise ZfsError("the sandbox engine models one log vdev: remove the log first")
            layout[key] += names
            layout["log_mirror"] = layout["log_mirror"] or (kind == "log" and mirror)
            record["layout"] = layout
            record["disk_sizes"].update({n: self.shelf.size(n) for n in names})

        self._disk_change(pool, change)

    def remove_aux(self, pool: str, disk: str) -> None:
        """Remove a hot spare, cache or log disk (a mirrored log goes whole, by its vdev name)."""

        def change(state: State, record: Record) -> None:
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            logs = health.log_vdevs(record, geo.layout_from_dict(layout))
            if layout["log_mirror"] and logs and disk == logs[0].name:
                for name in layout["log"]:
                    _forget(record, name)
                layout["log"], layout["log_mirror"] = [], False
                record["layout"] = layout
                return
            name = _member_name(record, disk, pool)
            _group, kind = _locate(record, name)
            if kind == "data" or (kind == "log" and layout["log_mirror"]):
                raise ZfsError(
                    f"cannot remove {name}: only spare, cache and log devices can be removed"
                )
            key = {"spares": "spares", "cache": "cache", "log": "log"}[kind]
            layout[key].remove(name)
            record["layout"] = layout
            _forget(record, name)

        self._disk_change(pool, change)


def _member_name(record: Record, disk: str, pool: str) -> str:
    """The short name of a disk of this pool; DeviceNotFound (as zpool says it) otherwise."""
    name = devices.short(disk).removesuffix(".img")
    if name not in health.members(record):
        raise DeviceNotFound(f"cannot find '{name}': no such device in pool '{pool}'")
    return name


def _locate(record: Record, name: str) -> tuple[list[str], str]:
    """(data group or [], section) of a member disk; a replaced disk is found by its new one."""
    layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
    olds = {old: new for new, old in record.get("resilvering", {}).items() if old}
    look_for = olds.get(name, name)
    for group in layout["groups"]:
        if look_for in group:
            return group, "data"
    for key in ("log", "cache", "spares"):
        if name in layout[key]:
            return [], key
    raise DeviceNotFound(f"cannot find '{name}': no such device in pool")


def _would_fail(record: Record, group: list[str], name: str) -> bool:
    """Whether losing `name` leaves its data vdev with fewer disks than it needs."""
    vdev_type = geo.layout_from_dict(record["layout"]).type
    gone = set(record.get("offline", {})) | {name}
    resilvering = record.get("resilvering", {})

    def present(disk: str) -> bool:
        if disk in resilvering:  # until the resilver ends, the copy is on the old disk
            old = resilvering[disk]
            return bool(old) and old not in gone
        return disk not in gone

    missing = sum(not present(d) for d in group)
    if len(group) == 1:
        return missing > 0
    return missing > health.tolerance(vdev_type, len(group))


def _swap(layout: Record, old: str, new: str) -> None:
    """Put `new` where `old` was, in a data group or the log."""
    for group in [*layout["groups"], layout["log"]]:
        if old in group:
            group[group.index(old)] = new
            return


def _detach_replacing(record: Record, name: str) -> bool:
    """Detaching either side of a replacement ends it: the other side stays. True if it was."""
    resilvering = record.get("resilvering", {})
    for new, old in list(resilvering.items()):
        if name == old and old:
            del resilvering[new]
            _forget(record, old)
            return True
        if name == new and old:
            layout = geo.layout_to_dict(geo.layout_from_dict(record["layout"]))
            _swap(layout, new, old)
            record["layout"] = layout
            del resilvering[new]
            _forget(record, new)
            return True
    return False


def _forget(record: Record, name: str) -> None:
    """Drop a disk that left the pool from its per-disk records."""
    record.get("offline", {}).pop(name, None)
    record.get("disk_sizes", {}).pop(name, None)
