"""Writes to snapshots: create, destroy (one, many, a range), rollback and clone.

Each refusal names the field and what blocks it (the clone, the hold, the newer snapshots),
and nothing is changed when one is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.validation import fail
from storage import registry
from storage import validation as v
from storage.engine import get_engine
from storage.errors import to_validation_error
from storage.snapshots import selectors
from storage.zfs import errors as zfs
from storage.zfs import names, naming
from storage.zfs.base import Snapshot
from storage.zfs.snapshots import snapshot_name_problem

MANUAL_SCHEMA = "manual-%Y-%m-%d_%H-%M-%S"


def _dataset(name: str, field: str = "dataset") -> str:
    """An existing dataset or zvol, or a ValidationError on `field`."""
    v.validate_dataset_name(name, field)
    try:
        return get_engine().get_dataset(name).name
    except zfs.DatasetNotFound:
        raise fail(field, f"There is no dataset or zvol named “{name}”.") from None
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, field) from exc


def _names(snapshots: Sequence[str]) -> str:
    return ", ".join(f"“{s}”" for s in snapshots)


def snapshot_create(
    *, dataset: str, name: str = "", recursive: bool = False, now: datetime | None = None
) -> Snapshot:
    """Take a snapshot now (of the whole tree, atomically, when recursive)."""
    dataset = _dataset(dataset)
    automatic = _automatic(name)
    name = _rendered(name, now or timezone.now())
    problem = snapshot_name_problem(name)
    if problem:
        raise fail("name", problem)

    def create(short: str) -> None:
        get_engine().create_snapshot(f"{dataset}@{short}", recursive=recursive)

    try:
        # A name made from the time gets -2, -3... when one was taken that second; a name the
        # user typed is theirs: taken, it is refused.
        if automatic:
            name = naming.take_unique(name, create)
        else:
            create(name)
    except zfs.DatasetExists:
        raise fail("name", f"{dataset} already has a snapshot named “{name}”.") from None
    except zfs.ZfsError as exc:
        raise to_validation_error(exc) from exc
    return selectors.snapshot_get(f"{dataset}@{name}")


def _automatic(name: str) -> bool:
    """True when the name is made from the time (empty: the manual schema; or strftime codes)."""
    return not name.strip() or "%" in name


def _rendered(name: str, now: datetime) -> str:
    """The name as given, or with its strftime fields filled in UTC (manual-<date> if empty)."""
    text = name.strip() or MANUAL_SCHEMA
    if "%" not in text:
        return text
    problem = naming.codes_problem(text)
    if problem:
        raise fail("name", problem)
    return naming.render(text, now.astimezone(UTC))


def _blockers(snapshot: Snapshot) -> str | None:
    """Why this snapshot cannot be destroyed, or None."""
    if snapshot.clones:
        return f"{snapshot.name} has clones ({', '.join(snapshot.clones)}): destroy them first."
    if snapshot.holds:
        return f"{snapshot.name} is held ({snapshot.holds} hold): release it first."
    return None


def snapshot_destroy(*, dataset: str, names: Sequence[str], recursive: bool = False) -> int:
    """Destroy the named snapshots of one dataset, all or none; the number destroyed."""
    dataset = _dataset(dataset)
    if not names:
        raise fail("names", "Pick the snapshots to destroy.")
    known = {s.short_name: s for s in selectors.snapshot_list(dataset)}
    missing = [n for n in names if n not in known]
    if missing:
        raise fail("names", f"{dataset} has no snapshot named {_names(missing)}.")
    for name in names:
        problem = _blockers(known[name])
        if problem:
            raise fail("names", problem)
    try:
        get_engine().destroy_snapshots(dataset, list(names), recursive=recursive)
    except zfs.HasClones as exc:
        raise fail("names", f"Clones depend on them: {', '.join(exc.names)}.") from exc
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, "names") from exc
    return len(names)


def snapshot_destroy_range(*, dataset: str, first: str, last: str) -> int:
    """Destroy every snapshot of `dataset` from `first` to `last` (oldest to newest), or none."""
    order = [s.short_name for s in selectors.snapshot_list(_dataset(dataset))]
    for field, name in (("first", first), ("last", last)):
        if name not in order:
            raise fail(field, f"{dataset} has no snapshot named “{name}”.")
    start, stop = order.index(first), order.index(last)
    if start > stop:
        raise fail("last", f"“{last}” is older than “{first}”: pick them oldest first.")
    return snapshot_destroy(dataset=dataset, names=order[start : stop + 1])


def snapshot_rollback(*, snapshot: str, destroy_newer: bool = False) -> list[str]:
    """Return a dataset to a snapshot; the newer snapshots this destroyed (only if allowed)."""
    current = selectors.snapshot_get(snapshot, field="snapshot")
    newer = [s.name for s in selectors.newer_than(current)]
    if newer and not destroy_newer:
        raise fail(
            "destroy_newer",
            f"Newer snapshots exist: {_names(newer)}. Rolling back destroys them: "
            "tick “Destroy newer snapshots” (destroy_newer in the API) to go on.",
        )
    _refuse_if_served_volume(current.dataset)
    try:
        get_engine().rollback(snapshot, destroy_newer=destroy_newer)
    except zfs.HasClones as exc:
        raise fail(
            "destroy_newer",
            f"Clones of newer snapshots exist ({', '.join(exc.names)}): destroy them first.",
        ) from exc
    except zfs.NewerSnapshots as exc:  # one was taken since we looked
        raise fail("destroy_newer", f"Newer snapshots exist: {_names(exc.names)}.") from exc
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, "snapshot") from exc
    return newer


def _refuse_if_served_volume(dataset: str) -> None:
    """A zvol an initiator uses would see its disk change under it: stop serving it first."""
    holders = registry.holders_of(dataset)
    if holders and get_engine().get_dataset(dataset).is_volume:
        raise ValidationError({"snapshot": [registry.in_use_message(holders)]})


def snapshot_clone(*, snapshot: str, target: str) -> str:
    """A new writable dataset or zvol from a snapshot, in the same pool; its name."""
    current = selectors.snapshot_get(snapshot, field="snapshot")
    target = v.validate_dataset_name(target.strip(), "target")
    if target.split("/", 1)[0] != current.dataset.split("/", 1)[0]:
        raise fail("target", "A clone lives in the same pool as its snapshot.")
    if names.is_scratch(target):
        raise fail("target", v.SCRATCH_REFUSAL)
    try:
        get_engine().clone(snapshot, target)
    except zfs.DatasetExists:
        raise fail("target", f"“{target}” already exists.") from None
    except zfs.DatasetNotFound:
        raise fail("target", "The clone's parent dataset does not exist.") from None
    except zfs.ZfsError as exc:
        raise to_validation_error(exc, "target") from exc
    return target
