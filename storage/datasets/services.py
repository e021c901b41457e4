"""Writes to pools, datasets and zvols: validate, then ask the engine; errors name the field."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.lib.units import format_bytes
from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from storage import owners
from storage import registry as usage
from storage import validation as v
from storage.changes import apply_all_or_nothing
from storage.datasets import selectors
from storage.engine import get_engine
from storage.errors import to_validation_error
from storage.ownership import services as permissions
from storage.zfs import errors as zfs
from storage.zfs.acl import ACLTYPES, acl_properties
from storage.zfs.base import Dataset, PoolLayout

T = TypeVar("T")
THICK_ZVOL_LIMIT = 0.8  # TrueNAS's rule: a thick zvol may take at most 80% of the free space


def _engine_call(call: Callable[[], T], field: str | None = None) -> T:
    """Run one engine operation; its typed error becomes a ValidationError."""
    try:
        return call()
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, field) from exc


def _pool_layout(
    *, layout: str, disks: Sequence[str], width: int | None, extra: dict[str, Sequence[str]]
) -> PoolLayout:
    """Check the layout's rules and that every disk is free; build the engine's layout."""
    if not disks:
        raise fail("disks", "Pick the disks for the pool.")
    vdev_type, per_vdev = v.validate_layout(layout, len(disks), width)
    chosen = [*disks, *(d for group in extra.values() for d in group)]
    if len(set(chosen)) != len(chosen):
        raise fail("disks", "A disk can be used only once in a pool.")
    known = {row.name: row for row in selectors.disk_list()}
    for name in chosen:
        row = known.get(name)
        if row is None:
            raise fail("disks", f"There is no disk named “{name}”.")
        if not row.free:
            raise fail("disks", f"Disk {name} is in use ({row.pool or row.other_use}).")
    groups = tuple(tuple(disks[i : i + per_vdev]) for i in range(0, len(disks), per_vdev))
    return PoolLayout(
        type=vdev_type,
        groups=groups,
        cache=tuple(extra.get("cache", ())),
        log=tuple(extra.get("log", ())),
        spares=tuple(extra.get("spares", ())),
    )


def pool_create(
    *,
    name: str,
    layout: str,
    disks: Sequence[str],
    width: int | None = None,
    cache: Sequence[str] = (),
    log: Sequence[str] = (),
    spares: Sequence[str] = (),
    user: User | AnonymousUser | None = None,
) -> Job:
    """Validate a new pool and start the job that creates it."""
    name = v.validate_pool_name(name)
    if any(p.name == name for p in selectors.pool_list()):
        raise fail("name", "A pool with this name already exists.")
    pool_layout = _pool_layout(
        layout=layout,
        disks=list(disks),
        width=width,
        extra={"cache": cache, "log": log, "spares": spares},
    )
    _engine_call(pool_layout.validate, "disks")
    return job_start(
        kind="pool.create",
        title=f"Create pool {name}",
        task="storage.pool_create",
        user=user,
        name=name,
        vdev_type=pool_layout.type,
        groups=[list(g) for g in pool_layout.groups],
        cache=list(cache),
        log=list(log),
        spares=list(spares),
    )


def _confirm(name: str, typed: str) -> None:
    """Destroying needs the exact name typed again."""
    if typed.strip() != name:
        raise fail("confirm", f"Type “{name}” to confirm.")


def pool_destroy(*, name: str, confirm: str, user: User | AnonymousUser | None = None) -> Job:
    """Check the confirmation and start the job that destroys the pool and all its data."""
    _engine_call(lambda: selectors.pool_get(name))
    _confirm(name, confirm)
    _refuse_if_shared(name, prefix=True)
    return job_start(
        kind="pool.destroy",
        title=f"Destroy pool {name}",
        task="storage.pool_destroy",
        user=user,
        name=name,
    )


def pool_export(*, name: str) -> None:
    """Export a pool so that it can be moved or imported again later."""
    _refuse_if_shared(name, prefix=True)
    _engine_call(lambda: get_engine().export_pool(name))


def pool_import(*, name_or_guid: str, new_name: str = "") -> None:
    """Import a pool found on the disks, optionally under a new name."""
    if new_name:
        new_name = v.validate_pool_name(new_name, "new_name")
    if not any(name_or_guid in (p.name, p.guid) for p in selectors.importable_pools()):
        raise fail("pool", f"No importable pool is named “{name_or_guid}”.")
    _engine_call(lambda: get_engine().import_pool(name_or_guid, new_name=new_name or None))


def pool_scrub(*, name: str, user: User | AnonymousUser | None = None) -> Job:
    """Start a scrub and the job that follows its progress."""
    _engine_call(lambda: selectors.pool_get(name))
    if Job.objects.filter(kind="pool.scrub", arguments__name=name).exclude(status__in=Job.FINISHED):
        raise ValidationError({NON_FIELD_ERRORS: [f"A scrub of {name} is already running."]})
    return job_start(
        kind="pool.scrub",
        title=f"Scrub pool {name}",
        task="storage.pool_scrub",
        user=user,
        name=name,
    )


def _refuse_if_shared(name: str, *, prefix: bool = False) -> None:
    """Whatever serves a dataset or zvol (an iSCSI extent, a share) must not lose it."""
    holders = usage.holders_of(name, include_children=prefix)
    if holders:
        raise ValidationError({NON_FIELD_ERRORS: [usage.in_use_message(holders)]})


def _property_changes(values: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Split form values into properties to set and properties to inherit."""
    to_set: dict[str, str] = {}
    to_inherit: list[str] = []
    for prop, value in values.items():
        if value is None or value == "":
            continue
        if value == "inherit":
            to_inherit.append(prop)
        else:
            to_set[prop] = str(value)
    return to_set, to_inherit


def _validated_properties(
    *,
    compression: str | None,
    dedup: str | None,
    comment: str | None,
    extra: dict[str, Any],
    sync: str | None = None,
) -> dict[str, Any]:
    """Validate the properties datasets and zvols share."""
    props: dict[str, Any] = dict(extra)
    if sync is not None:
        props["sync"] = v.validate_choice(sync, v.SYNC_FORM_CHOICES, "sync")
    if compression is not None:
        props["compression"] = v.validate_choice(
            compression, v.COMPRESSION_FORM_CHOICES, "compression"
        )
    if dedup is not None:
        props["dedup"] = v.validate_choice(dedup, v.DEDUP_FORM_CHOICES, "dedup")
    if comment is not None:
        if len(comment) > 200 or "\n" in comment:
            raise fail("comment", "One line of at most 200 characters.")
        props["nasui:comment"] = comment
    return props


def _child_name(parent: str, name: str) -> str:
    """parent/name, checked, with the parent existing."""
    full = v.validate_dataset_name(f"{parent.strip('/')}/{v.validate_component(name)}")
    parent_ds = _engine_call(lambda: get_engine().get_dataset(parent), "parent")
    if parent_ds.is_volume:
        raise fail("parent", "A zvol cannot contain datasets.")
    return full


ACLTYPE_CHOICES = ["inherit", *ACLTYPES]


def _acl_properties(acltype: str | None) -> dict[str, str]:
    """acltype as asked ("inherit", posix or off); posix brings xattr=sa along (see zfs.acl)."""
    if acltype in (None, ""):
        return {}
    chosen = v.validate_choice(acltype, ACLTYPE_CHOICES, "acltype")
    return {"acltype": "inherit"} if chosen == "inherit" else acl_properties(chosen)


@dataclass(frozen=True)
class DatasetSaved:
    """A changed file system, with the job that goes on below its mountpoint (if asked)."""

    dataset: Dataset
    job: Job | None = None

    @property
    def name(self) -> str:
        """The dataset's full name (what the pages' messages and links use)."""
        return self.dataset.name


def _ownership_change(
    name: str, *, owner: str | None, group: str | None, mode: str | None
) -> tuple[permissions.Ownership, permissions.Ownership] | None:
    """(as it is, as asked) for the mountpoint, None when nothing changes; input checked."""
    if owner in (None, "") and group in (None, "") and mode in (None, ""):
        return None
    before = permissions.mountpoint_ownership(permissions.mountpoint_of(name))
    if before is None:
        raise fail("mode", f"{name} is not mounted: its folder has no owner to change.")
    wanted = permissions.wanted_ownership(
        before, owner=owner or None, group=group or None, mode=mode or None
    )
    return None if wanted == before else (before, wanted)


def dataset_create(
    *,
    parent: str,
    name: str,
    compression: str = "inherit",
    dedup: str = "inherit",
    recordsize: int | None = None,
    atime: str = "inherit",
    acltype: str = "inherit",
    sync: str = "inherit",
    quota: str = "",
    reservation: str = "",
    comment: str = "",
    owner: str | None = None,
    group: str | None = None,
    mode: str | None = None,
) -> Dataset:
    """Create a file system under `parent` with the chosen properties, then owner and mode."""
    full = _child_name(parent, name)
    if mode:
        permissions.parse_mode(mode)  # refused before anything is created
    if owner or group:
        permissions.wanted_ownership(permissions.ROOT_OWNED, owner=owner, group=group, mode=None)
    extra: dict[str, Any] = {"atime": v.validate_choice(atime, ["inherit", "on", "off"], "atime")}
    extra.update(_acl_properties(acltype))
    if recordsize is not None:
        extra["recordsize"] = v.validate_block_size(recordsize, v.RECORDSIZES, "recordsize")
    if quota:
        extra["quota"] = v.parse_size(quota, "quota")
    if reservation:
        extra["reservation"] = v.parse_size(reservation, "reservation")
    props = _validated_properties(
        compression=compression, dedup=dedup, comment=comment or None, extra=extra, sync=sync
    )
    to_set, _ = _property_changes(props)
    _engine_call(lambda: get_engine().create_dataset(full, properties=to_set))
    if (owner or owners.ROOT, group or owners.ROOT, mode or "") == (owners.ROOT, owners.ROOT, ""):
        return _engine_call(lambda: get_engine().get_dataset(full))  # left as ZFS made it
    try:
        change = _ownership_change(full, owner=owner, group=group, mode=mode)
        if change is not None:
            permissions.set_mountpoint(full, change[1])
    except ValidationError:
        # A new, empty file system whose folder could not be given away: not half-made.
        with contextlib.suppress(zfs.ZfsError):
            get_engine().destroy_dataset(full)
        raise
    return _engine_call(lambda: get_engine().get_dataset(full))


def _apply_changes(
    name: str,
    props: dict[str, Any],
    *,
    last: Callable[[], None] | None = None,
    field: str | None = None,
) -> Dataset:
    """Set and inherit properties (then run `last`) on a dataset or zvol, all or nothing."""
    to_set, to_inherit = _property_changes(props)
    _engine_call(lambda: apply_all_or_nothing(name, to_set, to_inherit, last=last), field)
    return _engine_call(lambda: get_engine().get_dataset(name))


def dataset_update(
    *,
    name: str,
    compression: str | None = None,
    dedup: str | None = None,
    recordsize: int | None = None,
    atime: str | None = None,
    acltype: str | None = None,
    sync: str | None = None,
    quota: str | None = None,
    reservation: str | None = None,
    comment: str | None = None,
    owner: str | None = None,
    group: str | None = None,
    mode: str | None = None,
    permissions_recursive: bool = False,
    user: User | AnonymousUser | None = None,
) -> DatasetSaved:
    """Change a file system's properties ("inherit" drops the local value), owner and mode.

    The folder's owner and mode change first and are put back if ZFS then refuses a
    property, so either everything asked for is applied or nothing is. With
    `permissions_recursive`, a job then gives everything inside the same owner and mode.
    """
    current = _engine_call(lambda: get_engine().get_dataset(name), "name")
    if current.is_volume:
        raise fail("name", "This is a zvol; edit it as a zvol.")
    extra: dict[str, Any] = _acl_properties(acltype)
    if atime is not None:
        extra["atime"] = v.validate_choice(atime, ["inherit", "on", "off"], "atime")
    if recordsize is not None:
        extra["recordsize"] = v.validate_block_size(recordsize, v.RECORDSIZES, "recordsize")
    for prop, text in (("quota", quota), ("reservation", reservation)):
        if text is not None:
            extra[prop] = v.parse_size(text, prop, allow_zero=True) if text else "none"
    props = _validated_properties(
        compression=compression, dedup=dedup, comment=comment, extra=extra, sync=sync
    )
    change = _ownership_change(name, owner=owner, group=group, mode=mode)
    tree = _tree_ownership(name, change) if permissions_recursive else None
    if change is not None:
        permissions.set_mountpoint(name, change[1])
    try:
        dataset = _apply_changes(name, props)
    except ValidationError:
        if change is not None:
            with contextlib.suppress(ValidationError):
                permissions.set_mountpoint(name, change[0])
        raise
    job = permissions.start_tree_job(name, tree, user) if tree else None
    return DatasetSaved(dataset, job)


def _tree_ownership(
    name: str, change: tuple[permissions.Ownership, permissions.Ownership] | None
) -> permissions.Ownership:
    """What everything inside gets: the folder's new owner and mode, or its present ones."""
    if change is not None:
        return change[1]
    found = permissions.mountpoint_ownership(permissions.mountpoint_of(name))
    if found is None:
        raise fail("permissions_recursive", f"{name} is not mounted.")
    return found


def dataset_destroy(*, name: str, confirm: str, recursive: bool = False) -> None:
    """Destroy a file system (and, if asked, everything below it)."""
    current = _engine_call(lambda: get_engine().get_dataset(name), "name")
    if "/" not in current.name:
        raise fail("name", "This is the pool's root dataset: destroy the pool instead.")
    _confirm(name, confirm)
    _refuse_if_shared(name, prefix=True)
    _engine_call(lambda: get_engine().destroy_dataset(name, recursive=recursive))


def zvol_create(
    *,
    parent: str,
    name: str,
    size: str | int,
    volblocksize: int = v.DEFAULT_VOLBLOCKSIZE,
    sparse: bool = False,
    compression: str = "inherit",
    dedup: str = "inherit",
    sync: str = "inherit",
    comment: str = "",
    force: bool = False,
) -> Dataset:
    """Create a zvol; a thick one over 80% of the free space needs `force`."""
    full = _child_name(parent, name)
    volblocksize = v.validate_block_size(volblocksize, v.VOLBLOCKSIZES, "volblocksize")
    size_bytes = v.parse_size(size, "size")
    if size_bytes % volblocksize:
        raise fail(
            "size",
            f"Must be a multiple of the block size ({v.format_size(volblocksize)}).",
        )
    if not sparse:
        available = _engine_call(lambda: get_engine().get_dataset(parent)).available
        if size_bytes > available * THICK_ZVOL_LIMIT and not force:
            raise fail(
                "size",
                f"A thick zvol of this size takes over 80% of the {format_bytes(available)} "
                f"free: make it sparse or smaller, or tick “{v.FORCE_LABEL}” "
                "(force in the API).",
            )
    props = _validated_properties(
        compression=compression, dedup=dedup, comment=comment or None, extra={}, sync=sync
    )
    to_set, _ = _property_changes(props)
    _engine_call(
        lambda: get_engine().create_zvol(
            full, size=size_bytes, volblocksize=volblocksize, sparse=sparse, properties=to_set
        )
    )
    return _engine_call(lambda: get_engine().get_dataset(full))


def zvol_update(
    *,
    name: str,
    size: str | int | None = None,
    compression: str | None = None,
    dedup: str | None = None,
    sync: str | None = None,
    comment: str | None = None,
) -> Dataset:
    """Grow a zvol and change its properties; it never shrinks."""
    current = _engine_call(lambda: get_engine().get_dataset(name), "name")
    if not current.is_volume:
        raise fail("name", "This is a file system, not a zvol.")
    props = _validated_properties(
        compression=compression, dedup=dedup, comment=comment, extra={}, sync=sync
    )
    if size not in (None, ""):
        new_size = v.parse_size(size, "size")
        block = current.volblocksize or v.DEFAULT_VOLBLOCKSIZE
        if new_size < (current.volsize or 0):
            raise fail("size", "A zvol can only grow: shrinking would destroy data.")
        if new_size % block:
            raise fail("size", f"Must be a multiple of the block size ({v.format_size(block)}).")
        if new_size != current.volsize:
            # Grown last: the one step that cannot be undone runs after the ones that can.
            grown = _apply_changes(
                name, props, last=lambda: get_engine().grow_zvol(name, new_size), field="size"
            )
            usage.zvol_grew(name)
            return grown
    return _apply_changes(name, props)


def zvol_destroy(*, name: str, confirm: str) -> None:
    """Destroy a zvol unless an iSCSI extent uses it."""
    current = _engine_call(lambda: get_engine().get_dataset(name), "name")
    if not current.is_volume:
        raise fail("name", "This is a file system, not a zvol.")
    _confirm(name, confirm)
    _refuse_if_shared(name)
    _engine_call(lambda: get_engine().destroy_dataset(name))
