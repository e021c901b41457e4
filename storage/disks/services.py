"""Disk lifecycle of a pool: offline/online, replace, attach/detach, add vdevs, spares, log, cache.

Each write checks what the panel can know first (the disk is in the pool, the new one is free
and not smaller, the vdev shape) and names the field at fault; what only OpenZFS can judge
(the last copy of some data) comes back from the engine as a typed error, translated once here.
A replace or attach starts a resilver: the job that follows it reports progress and time left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS

from nasui.lib.units import format_bytes
from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from storage.disks import selectors
from storage.engine import get_engine
from storage.errors import engine_call
from storage.zfs import errors as zfs
from storage.zfs.base import MIN_DISKS, PoolStatus, Vdev
from storage.zfs.devices import AUX_KINDS, data_shape, find_leaf, short

T = TypeVar("T")
Actor = User | AnonymousUser | None
RESILVER_KIND = "pool.resilver"
# A sentence for the refusals only disk operations meet; the engine's own words follow it.
REFUSALS: dict[type[zfs.ZfsError], str] = {
    zfs.NoValidReplicas: "That would leave some data without a complete copy.",
    zfs.DeviceTooSmall: "The new disk is smaller than the disk it would replace or mirror.",
    zfs.NotAttachable: "A disk can only be attached to a single disk or a mirror.",
    zfs.NotDetachable: "Only one side of a mirror can be detached, never the last copy.",
    zfs.ReplicationMismatch: "A new data vdev must match the pool's type and width.",
}


def _refused_or(call: Callable[[], T], field: str) -> T:
    """An engine call whose disk refusals say, in a sentence, what they would have broken."""
    return engine_call(call, field, sentences=REFUSALS)


def _status(pool: str) -> PoolStatus:
    """The pool's vdev tree, or a validation error when there is no such pool."""
    return _refused_or(lambda: get_engine().pool_status(pool), NON_FIELD_ERRORS)


def _member(status: PoolStatus, disk: str, field: str = "disk") -> tuple[str, Vdev | None, Vdev]:
    """(section, parent, leaf) of a disk of the pool; a field error when it is not one."""
    try:
        return find_leaf(status, disk)
    except zfs.DeviceNotFound:
        raise fail(field, f"Disk {disk} is not part of pool {status.name}.") from None


def _free_disks(names: Sequence[str], field: str) -> dict[str, selectors.DiskRow]:
    """The rows of disks no pool or file system uses; a field error otherwise."""
    if not names:
        raise fail(field, "Pick at least one disk.")
    if len(set(names)) != len(names):
        raise fail(field, "A disk can be used only once.")
    known = {row.name: row for row in selectors.disk_list()}
    for name in names:
        row = known.get(name)
        if row is None:
            raise fail(field, f"There is no disk named “{name}”.")
        if not row.free:
            raise fail(field, f"Disk {name} is in use ({row.pool or row.other_use}).")
    return {name: known[name] for name in names}


def _size_of(disk: str) -> int:
    """A disk's size from the disk list (0 when unknown, e.g. a file vdev)."""
    return next((row.size for row in selectors.disk_list() if row.name == short(disk)), 0)


def _not_smaller(new: selectors.DiskRow, old: str) -> None:
    old_size = _size_of(old)
    if new.size < old_size:
        raise fail(
            "new_disk",
            f"Disk {new.name} ({format_bytes(new.size)}) is smaller than {short(old)} "
            f"({format_bytes(old_size)}): a replacement must be at least as large.",
        )


def _resilver_job(
    *, pool: str, disk: str, new_disk: str, hot_spare: bool, verb: str, user: Actor
) -> Job:
    return job_start(
        kind=RESILVER_KIND,
        title=f"{verb} {disk} with {new_disk} in pool {pool}",
        task="storage.pool_resilver",
        user=user,
        name=pool,
        disk=disk,
        new_disk=new_disk,
        hot_spare=hot_spare,
    )


# -- offline / online ------------------------------------------------------------------------
def pool_disk_offline(*, pool: str, disk: str, temporary: bool = False, user: Actor = None) -> None:
    """Take a disk offline (refused when it holds the last copy of some data)."""
    _member(_status(pool), disk)
    _refused_or(lambda: get_engine().offline_disk(pool, disk, temporary=temporary), "disk")


def pool_disk_online(*, pool: str, disk: str, user: Actor = None) -> None:
    """Bring an offline disk back (it resilvers what it missed)."""
    _member(_status(pool), disk)
    _refused_or(lambda: get_engine().online_disk(pool, disk), "disk")


# -- replace / attach / detach ---------------------------------------------------------------
def pool_disk_replace(*, pool: str, disk: str, new_disk: str, user: Actor = None) -> Job:
    """Replace a disk with a free one (or a hot spare of the pool); a job follows the resilver."""
    status = _status(pool)
    section, _parent, _leaf = _member(status, disk)
    if section not in ("data", "logs"):
        raise fail("disk", f"Only data and log disks are replaced; {disk} is in {section}.")
    if _busy_resilvering(pool):
        raise fail(NON_FIELD_ERRORS, f"Pool {pool} is already resilvering: wait for it to end.")
    spares = {short(s.name) for s in status.spares if s.state == "AVAIL"}
    hot_spare = short(new_disk) in spares
    if hot_spare:
        new_row = next(r for r in selectors.disk_list() if r.name == short(new_disk))
    else:
        new_row = _free_disks([new_disk], "new_disk")[new_disk]
    _not_smaller(new_row, disk)
    _refused_or(lambda: get_engine().replace_disk(pool, disk, new_disk), "new_disk")
    return _resilver_job(
        pool=pool, disk=disk, new_disk=new_disk, hot_spare=hot_spare, verb="Replace", user=user
    )


def pool_disk_attach(*, pool: str, disk: str, new_disk: str, user: Actor = None) -> Job:
    """Mirror a single disk or widen a mirror with a free disk; a job follows the resilver."""
    section, parent, _leaf = _member(_status(pool), disk)
    if section != "data" or (parent is not None and parent.type != "mirror"):
        kind = parent.type if parent is not None else section
        raise fail(
            "disk", f"Attach works on a single disk or a mirror; {disk} is in a {kind} vdev."
        )
    new_row = _free_disks([new_disk], "new_disk")[new_disk]
    _not_smaller(new_row, disk)
    _refused_or(lambda: get_engine().attach_disk(pool, disk, new_disk), "new_disk")
    return _resilver_job(
        pool=pool, disk=disk, new_disk=new_disk, hot_spare=False, verb="Mirror", user=user
    )


def pool_disk_detach(*, pool: str, disk: str, user: Actor = None) -> None:
    """Take one side off a mirror (never the last healthy copy)."""
    _section, parent, _leaf = _member(_status(pool), disk)
    if parent is None or parent.type not in ("mirror", "replacing", "spare"):
        raise fail(
            "disk", f"{disk} is not a side of a mirror: detaching it would remove the last copy."
        )
    _refused_or(lambda: get_engine().detach_disk(pool, disk), "disk")


def _busy_resilvering(pool: str) -> bool:
    return (
        Job.objects.filter(kind=RESILVER_KIND, arguments__name=pool)
        .exclude(status__in=Job.FINISHED)
        .exists()
    )


# -- growing the pool ------------------------------------------------------------------------
def pool_vdev_add(*, pool: str, layout: str, disks: Sequence[str], user: Actor = None) -> None:
    """Add one data vdev of the pool's own type and width."""
    pool_type, widths = data_shape(_status(pool))
    if layout not in MIN_DISKS:
        raise fail("layout", f"Unknown layout {layout!r}.")
    if pool_type == "mixed" or len(widths) > 1:
        raise fail(
            "layout",
            f"The data vdevs of {pool} differ in type or width: make them alike (attach or "
            "detach disks) before adding another.",
        )
    if layout != pool_type:
        raise fail("layout", f"Pool {pool} is a {pool_type} pool: add a {pool_type} vdev.")
    if layout == "stripe" and len(disks) != 1:
        raise fail("disks", "A stripe grows one disk at a time.")
    (width,) = widths
    if layout != "stripe" and len(disks) != width:
        raise fail("disks", f"Each {layout} vdev of {pool} has {width} disks: pick {width}.")
    _free_disks(disks, "disks")
    _refused_or(lambda: get_engine().add_vdev(pool, layout, list(disks)), "disks")


def pool_aux_add(
    *, pool: str, kind: str, disks: Sequence[str], mirror: bool = False, user: Actor = None
) -> None:
    """Add hot spares, a log (mirrored when asked) or cache disks."""
    if kind not in AUX_KINDS:
        raise fail("kind", f"Choose one of: {', '.join(AUX_KINDS)}.")
    _status(pool)
    _free_disks(disks, "disks")
    if mirror and (kind != "log" or len(disks) < 2):
        raise fail("mirror", "Only a log of two or more disks can be mirrored.")
    _refused_or(lambda: get_engine().add_aux(pool, kind, list(disks), mirror=mirror), "disks")


def pool_aux_remove(*, pool: str, disk: str, user: Actor = None) -> None:
    """Remove a hot spare, cache or log disk (a mirrored log by its vdev name)."""
    status = _status(pool)
    if not any(vdev.name == disk for vdev in status.logs):
        section, parent, _leaf = _member(status, disk)
        if section not in ("spares", "cache", "logs") or parent is not None:
            raise fail("disk", f"{disk} is not a spare, cache or log device of {pool}.")
    _refused_or(lambda: get_engine().remove_aux(pool, disk), "disk")
