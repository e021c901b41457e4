"""Writes to pools, datasets and zvols: validate, then ask the engine; errors name the field."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError

from nasui.lib.units import format_bytes
from nasui.models import Job
from nasui.validation import fail
from storage import registry
from storage import validation as v
from storage.datasets import selectors
from storage.encryption import services as encryption_services
from storage.engine import get_engine
from storage.errors import engine_call
from storage.ownership import selectors as ownership_selectors
from storage.ownership import services as ownership_services
from storage.zfs import errors as zfs
from storage.zfs.acl import ACLTYPES, acl_properties
from storage.zfs.base import Dataset
from storage.zfs.changes import apply_all_or_nothing

T = TypeVar("T")
THICK_ZVOL_LIMIT = 0.8  # TrueNAS's rule: a thick zvol may take at most 80% of the free space


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


def _child_name(parent: str, name: str) -> tuple[str, Dataset]:
    """(parent/name as given (refused, never rewritten), the parent), the parent existing."""
    full = v.validate_dataset_name(f"{parent}/{v.validate_component(name)}")
    parent_ds = engine_call(lambda: get_engine().get_dataset(parent), "parent")
    if parent_ds.is_volume:
        raise fail("parent", "A zvol cannot contain datasets.")
    if parent_ds.locked:
        raise fail("parent", f"{parent} is locked: unlock it before adding to it.")
    return full, parent_ds


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
    encryption: str = "inherit",
    passphrase: str = "",
    passphrase_confirm: str = "",
) -> Dataset:
    """Create a file system under `parent` with the chosen properties, then owner and mode.

    `encryption`: inherit (the parent's, if any), off, passphrase (typed twice, never kept)
    or key (generated and kept on the appliance, so it unlocks at boot).
    """
    full, parent_ds = _child_name(parent, name)
    if mode:
        ownership_services.parse_mode(mode)  # refused before anything is created
    if owner or group:
        ownership_services.wanted_ownership(
            ownership_selectors.ROOT_OWNED, owner=owner, group=group, mode=None
        )
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
    key = encryption_services.new_key(parent_ds, encryption, passphrase, passphrase_confirm)
    create = functools.partial(get_engine().create_dataset, full)
    _create(key, lambda crypt, typed: create(properties={**to_set, **crypt}, key=typed),
            _space_taken_by(extra))  # fmt: skip
    if (owner or registry.ROOT) == (group or registry.ROOT) == registry.ROOT and not mode:
        return engine_call(lambda: get_engine().get_dataset(full))  # left as ZFS made it
    try:
        change = ownership_services.ownership_change(full, owner=owner, group=group, mode=mode)
        if change is not None:
            ownership_services.set_mountpoint(full, change[1])
    except ValidationError:
        # A new, empty file system whose folder could not be given away: not half-made.
        with contextlib.suppress(zfs.ZfsError):
            get_engine().destroy_dataset(full)
        raise
    return engine_call(lambda: get_engine().get_dataset(full))


def _create(
    key: encryption_services.NewKey,
    make: Callable[[dict[str, str], str | None], None],
    fields: dict[type[zfs.ZfsError], str] | None = None,
) -> None:
    """`make(encryption properties, passphrase)`; a kept key's file goes if ZFS refuses."""
    encryption_services.create_with(
        key, lambda crypt, typed: engine_call(lambda: make(crypt, typed), fields=fields)
    )


def _space_taken_by(props: dict[str, Any]) -> dict[type[zfs.ZfsError], str]:
    """Where "not enough space" belongs: a file system takes space only for its reservation."""
    return {zfs.NoSpace: "reservation"} if props.get("reservation") not in (None, "none") else {}


def _apply_changes(
    name: str,
    props: dict[str, Any],
    *,
    last: Callable[[], None] | None = None,
    field: str | None = None,
) -> Dataset:
    """Set and inherit properties (then run `last`) on a dataset or zvol, all or nothing."""
    to_set, to_inherit = _property_changes(props)
    engine_call(
        lambda: apply_all_or_nothing(get_engine(), name, to_set, to_inherit, last=last),
        field,
        fields=_space_taken_by(props),
    )
    return engine_call(lambda: get_engine().get_dataset(name))


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
    current = engine_call(lambda: get_engine().get_dataset(name), "name")
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
    change = ownership_services.ownership_change(name, owner=owner, group=group, mode=mode)
    tree = ownership_services.tree_ownership(name, change) if permissions_recursive else None
    if change is not None:
        ownership_services.set_mountpoint(name, change[1])
    try:
        dataset = _apply_changes(name, props)
    except ValidationError:
        if change is not None:
            with contextlib.suppress(ValidationError):
                ownership_services.set_mountpoint(name, change[0])
        raise
    job = ownership_services.start_tree_job(name, tree, user) if tree else None
    return DatasetSaved(dataset, job)


def dataset_destroy(
    *, name: str, confirm: str, recursive: bool = False, release_holds: bool = False
) -> None:
    """Destroy a file system (and, if asked, everything below it). Held snapshots stop it
    unless the user also asked to release their holds (put back if the destroy fails)."""
    current = engine_call(lambda: get_engine().get_dataset(name), "name")
    if "/" not in current.name:
        raise fail("name", "This is the pool's root dataset: destroy the pool instead.")
    v.check_confirmation(name, confirm)
    registry.refuse_if_held(name, prefix=True)
    held = engine_call(lambda: selectors.held_snapshots(name)) if recursive else {}
    if held and not release_holds:
        raise fail("release_holds", _holds_words(held))
    _set_holds(held, release=True)
    try:
        engine_call(lambda: get_engine().destroy_dataset(name, recursive=recursive))
    except ValidationError:
        with contextlib.suppress(ValidationError):  # what the destroy took cannot be held
            _set_holds(held, release=False)
        raise


def _holds_words(held: dict[str, list[str]]) -> str:
    shown = [f"{name} ({', '.join(tags)})" for name, tags in list(held.items())[:3]]
    more = f" and {len(held) - 3} more" if len(held) > 3 else ""
    return (
        f"Held snapshots stop the destroy: {'; '.join(shown)}{more}. A replication task holds "
        "the snapshot it sends from next (nasui-repl-…). Tick “Also release the holds” "
        "(release_holds in the API) to destroy anyway: the task's copy stays on the other side."
    )


def _set_holds(held: dict[str, list[str]], *, release: bool) -> None:
    engine = get_engine()
    change: Callable[[str, str], None] = engine.release if release else engine.hold
    for snapshot, tags in held.items():
        for tag in tags:
            engine_call(functools.partial(change, snapshot, tag))


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
    encryption: str = "inherit",
    passphrase: str = "",
    passphrase_confirm: str = "",
) -> Dataset:
    """Create a zvol; a thick one over 80% of the free space needs `force`; `encryption`
    as dataset_create's."""
    full, parent_ds = _child_name(parent, name)
    volblocksize = v.validate_block_size(volblocksize, v.VOLBLOCKSIZES, "volblocksize")
    size_bytes = v.parse_size(size, "size")
    if size_bytes % volblocksize:
        raise fail(
            "size",
            f"Must be a multiple of the block size ({v.format_size(volblocksize)}).",
        )
    if not sparse:
        available = engine_call(lambda: get_engine().get_dataset(parent)).available
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
    key = encryption_services.new_key(parent_ds, encryption, passphrase, passphrase_confirm)
    create = functools.partial(
        get_engine().create_zvol, full, size=size_bytes, volblocksize=volblocksize, sparse=sparse
    )
    _create(key, lambda crypt, typed: create(properties={**to_set, **crypt}, key=typed))
    return engine_call(lambda: get_engine().get_dataset(full))


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
    current = engine_call(lambda: get_engine().get_dataset(name), "name")
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
            registry.zvol_grew(name)
            return grown
    return _apply_changes(name, props)


def zvol_destroy(*, name: str, confirm: str) -> None:
    """Destroy a zvol unless an iSCSI extent uses it."""
    current = engine_call(lambda: get_engine().get_dataset(name), "name")
    if not current.is_volume:
        raise fail("name", "This is a file system, not a zvol.")
    v.check_confirmation(name, confirm)
    registry.refuse_if_held(name)
    engine_call(lambda: get_engine().destroy_dataset(name))
