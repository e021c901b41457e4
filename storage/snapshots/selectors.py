"""Reads of snapshots shared by the pages and the API."""

from __future__ import annotations

from nasui.validation import fail
from storage.engine import get_engine
from storage.errors import to_validation_error
from storage.zfs import errors as zfs
from storage.zfs.base import DiffEntry, Snapshot
from storage.zfs.snapshots import check_snapshot_name


def snapshot_list(dataset: str | None = None, *, recursive: bool = False) -> list[Snapshot]:
    """Snapshots of one dataset (and below it if recursive), or of every pool; oldest first."""
    engine = get_engine()
    if dataset is None:
        pools = [p.name for p in engine.list_pools()]
        return [s for pool in pools for s in engine.list_snapshots(pool, recursive=True)]
    try:
        return engine.list_snapshots(dataset, recursive=recursive)
    except zfs.DatasetNotFound:
        raise fail("dataset", f"There is no dataset or zvol named “{dataset}”.") from None


def snapshot_get(name: str, *, field: str = "name") -> Snapshot:
    """One snapshot by its full name, or a ValidationError on `field`."""
    try:
        dataset, _ = check_snapshot_name(name)
    except zfs.InvalidProperty as exc:
        raise fail(field, f"“{name}” is not a snapshot name (dataset@name).") from exc
    try:
        found = get_engine().list_snapshots(dataset)
    except zfs.DatasetNotFound:
        found = []
    for snapshot in found:
        if snapshot.name == name:
            return snapshot
    raise fail(field, f"There is no snapshot named “{name}”.")


def newer_than(snapshot: Snapshot) -> list[Snapshot]:
    """The dataset's snapshots taken after this one (a rollback would destroy them)."""
    order = get_engine().list_snapshots(snapshot.dataset)
    names = [s.name for s in order]
    return order[names.index(snapshot.name) + 1 :]


def snapshot_diff(name: str) -> list[DiffEntry]:
    """What changed in a file system since the snapshot."""
    snapshot = snapshot_get(name, field="snapshot")
    if get_engine().get_dataset(snapshot.dataset).is_volume:
        raise fail("snapshot", "A zvol is a disk image: there are no files to compare.")
    try:
        return get_engine().diff(name)
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, "snapshot") from exc
