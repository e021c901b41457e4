"""Disk states of a sandbox pool: offline disks, resilvers, and the vdev tree with its health.

A pool record may hold `offline` ({disk: temporary}) and `resilvering` ({new: old}, old "" for
an attached disk). The layout already names the new disks; the old ones stay members, under a
`replacing-N` node as in `zpool status`, until the resilver (the pool's scan) ends.
"""

from __future__ import annotations

from typing import Any

from storage.zfs.base import PoolLayout, PoolStatus, ScrubStatus, Vdev
from storage.zfs.sandbox import layout as geo
from storage.zfs.sandbox import scrub

OFFLINE_STATUS = (
    "One or more devices has been taken offline by the administrator. Sufficient replicas "
    "exist for the pool to continue functioning in a degraded state."
)
OFFLINE_ACTION = (
    "Online the device using 'zpool online' or replace the device with 'zpool replace'."
)
RESILVER_STATUS = (
    "One or more devices is currently being resilvered. The pool will continue to function, "
    "possibly in a degraded state."
)
RESILVER_ACTION = "Wait for the resilver to complete."


def settle(record: dict[str, Any], now: float) -> dict[str, Any]:
    """The record with a finished resilver applied: the replaced disks leave the pool."""
    scan = scrub.settle(record.get("scrub") or {}, now)
    running = scan.get("state") == "scanning" and scan.get("function") == "resilver"
    if not record.get("resilvering") or running:
        return record
    offline = dict(record.get("offline", {}))
    for old in record["resilvering"].values():
        offline.pop(old, None)
    return {**record, "scrub": scan or None, "resilvering": {}, "offline": offline}


def members(record: dict[str, Any]) -> list[str]:
    """Every disk the pool holds: its layout's, and the ones still being replaced."""
    olds = [old for old in record.get("resilvering", {}).values() if old]
    return [*geo.layout_from_dict(record["layout"]).disks(), *olds]


def _leaf(record: dict[str, Any], disk: str) -> Vdev:
    state = "OFFLINE" if disk in record.get("offline", {}) else "ONLINE"
    return Vdev(name=disk, type="disk", state=state)


def _member(record: dict[str, Any], disk: str, index: int) -> Vdev:
    """A data or log disk, or the replacing-N node of a disk being resilvered onto."""
    resilvering = record.get("resilvering", {})
    if disk not in resilvering:
        return _leaf(record, disk)
    new = Vdev(name=disk, type="disk", state="ONLINE", note="(resilvering)")
    old = resilvering[disk]
    if not old:
        return new
    children = (_leaf(record, old), new)
    return Vdev(f"replacing-{index}", "replacing", group_state(children, 0), children=children)


def group_state(children: tuple[Vdev, ...], tolerance: int) -> str:
    """ONLINE, DEGRADED while a copy is missing, UNAVAIL beyond what parity covers."""
    missing = sum(child.state not in ("ONLINE", "DEGRADED") for child in children)
    if not missing:
        return "DEGRADED" if any(c.state == "DEGRADED" for c in children) else "ONLINE"
    return "DEGRADED" if missing <= tolerance else "UNAVAIL"


def tolerance(vdev_type: str, width: int) -> int:
    """How many disks of a data vdev may be missing: parity, or all but one side of a mirror."""
    return width - 1 if vdev_type == "mirror" else geo.parity(vdev_type)


def data_vdevs(record: dict[str, Any], layout: PoolLayout) -> tuple[Vdev, ...]:
    """Top-level data vdevs; a one-disk group (a stripe, or a mirror's detached side) is bare."""
    out = []
    for index, group in enumerate(layout.groups):
        if len(group) == 1:
            out.append(_member(record, group[0], index))
            continue
        children = tuple(_member(record, d, i) for i, d in enumerate(group))
        state = group_state(children, tolerance(layout.type, len(group)))
        out.append(Vdev(f"{layout.type}-{index}", layout.type, state, children=children))
    return tuple(out)


def log_vdevs(record: dict[str, Any], layout: PoolLayout) -> tuple[Vdev, ...]:
    """The logs section with disk states (a mirrored log is numbered after the data vdevs)."""
    plain = geo.log_vdevs(layout)
    if layout.log_mirror and plain:
        children = tuple(_leaf(record, d) for d in layout.log)
        state = group_state(children, len(children) - 1)
        return (Vdev(plain[0].name, "mirror", state, children=children),)
    return tuple(_leaf(record, d) for d in layout.log)


def pool_state(record: dict[str, Any]) -> str:
    """ONLINE, or DEGRADED while a data or log vdev misses a disk (a settled record)."""
    layout = geo.layout_from_dict(record["layout"])
    states = {v.state for v in data_vdevs(record, layout) + log_vdevs(record, layout)}
    return "ONLINE" if states <= {"ONLINE"} else "DEGRADED"


def pool_status(name: str, record: dict[str, Any], scan: ScrubStatus) -> PoolStatus:
    """`zpool status` of a sandbox pool, with offline disks and resilvers shown."""
    layout = geo.layout_from_dict(record["layout"])
    data = data_vdevs(record, layout)
    logs = log_vdevs(record, layout)
    cache = tuple(_leaf(record, d) for d in layout.cache)
    _cache, spares = geo.aux_vdevs(layout)
    states = {v.state for v in data + logs}
    state = "ONLINE" if states <= {"ONLINE"} else "DEGRADED"
    status, action = "", ""
    if scan.state == "scanning" and scan.function == "resilver":
        status, action = RESILVER_STATUS, RESILVER_ACTION
    elif record.get("offline"):
        status, action = OFFLINE_STATUS, OFFLINE_ACTION
    return PoolStatus(
        name=name,
        state=state,
        vdevs=data,
        logs=logs,
        cache=cache,
        spares=spares,
        scan=scan,
        status=status,
        action=action,
        errors="No known data errors",
        root=Vdev(name=name, type="root", state=state, children=data),
    )
