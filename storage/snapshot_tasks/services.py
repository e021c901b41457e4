"""Periodic snapshot tasks: saved from the database, run by beat, pruning only their own.

A run claims its scheduled slot in the database before it snapshots, so two workers (or a
catch-up after a power-off and the next beat) never take the same slot twice.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.validation import fail
from storage.engine import get_engine
from storage.models import SnapshotTask
from storage.periodic import claimed_slots, save_changes
from storage.schedule import ScheduleError, check_window, lifetime
from storage.snapshot_tasks.selectors import WAITS_FOR_KEY, schedule_of
from storage.zfs import errors as zfs
from storage.zfs import naming, pruning
from storage.zfs.snapshots import TASK_PROPERTY

log = logging.getLogger(__name__)
FIELDS = (
    "dataset", "recursive", "naming_schema", "minutes", "hours", "days_of_week", "begin", "end",
    "lifetime_value", "lifetime_unit", "enabled",
)  # fmt: skip


def _check(task: SnapshotTask) -> None:
    """Every field of the task, each error on its own field."""
    try:
        get_engine().get_dataset(task.dataset)
    except zfs.ZfsError:
        raise fail("dataset", f"There is no dataset or zvol named “{task.dataset}”.") from None
    problem = naming.schema_problem(task.naming_schema)
    if problem:
        raise fail("naming_schema", problem)
    try:
        check_window(task.begin, task.end)
        schedule_of(task)
        lifetime(task.lifetime_value, task.lifetime_unit)
    except ScheduleError as exc:
        raise fail(exc.field, exc.message) from exc
    clash = SnapshotTask.objects.filter(dataset=task.dataset, naming_schema=task.naming_schema)
    if clash.exclude(pk=task.pk).exists():
        raise fail(
            "naming_schema",
            "Another task of this dataset uses this naming schema: their snapshots would clash.",
        )


def _save(task: SnapshotTask, values: dict[str, Any]) -> SnapshotTask:
    return save_changes(task, values, FIELDS, _check)


def snapshot_task_create(**values: Any) -> SnapshotTask:
    """Save a new periodic task; its first run is its next scheduled slot."""
    return _save(SnapshotTask(), values)


def snapshot_task_update(*, task: SnapshotTask, **values: Any) -> SnapshotTask:
    """Change a task; it takes effect at the next beat (no restart)."""
    return _save(task, values)


def snapshot_task_delete(*, task: SnapshotTask) -> None:
    """Delete a task; the snapshots it made stay (the user may still want them)."""
    task.delete()


def run_due_tasks(now: datetime | None = None) -> list[str]:
    """Run every enabled task whose slot has come; the snapshots made."""
    now = now or timezone.now()
    made = []
    for task, slot in claimed_slots(SnapshotTask.objects.filter(enabled=True), schedule_of, now):
        name = snapshot_task_run(task=task, slot=slot, now=now)
        if name:
            made.append(name)
    return made


def snapshot_task_run(*, task: SnapshotTask, slot: datetime, now: datetime) -> str:
    """Take the slot's snapshot, then prune this task's expired ones; "" when it failed."""
    # Names carry UTC time, the time SMB's "Previous versions" reads them in (shadow:localtime).
    short = naming.render(task.naming_schema, slot.astimezone(UTC))
    task.last_run_at, task.last_error, task.last_snapshot = now, "", ""
    waiting = _waits_for_key(task.dataset)
    if waiting:
        task.last_error = waiting
        task.save(update_fields=["last_run_at", "last_error", "last_snapshot"])
        return ""
    try:
        # Another task (of a dataset above or below) may have taken the name this minute.
        short = naming.take_unique(
            short,
            lambda name: get_engine().create_snapshot(
                f"{task.dataset}@{name}",
                recursive=task.recursive,
                properties={TASK_PROPERTY: str(task.pk)},
            ),
        )
        task.last_snapshot = f"{task.dataset}@{short}"
        task.last_pruned = prune(task, now)
    except (zfs.ZfsError, ValidationError) as exc:
        log.warning("snapshot task %s failed: %s", task.pk, exc)
        task.last_error = str(exc)
    except Exception as exc:  # whatever fails, the task says so and raises its alert
        log.exception("snapshot task %s failed", task.pk)
        task.last_error = f"{type(exc).__name__}: {exc}"
    task.save(update_fields=["last_run_at", "last_error", "last_snapshot", "last_pruned"])
    return task.last_snapshot


def _waits_for_key(dataset: str) -> str:
    """Why the task waits ("" when its dataset is open): a locked dataset takes no snapshots
    from the panel (the locked alert says whose passphrase is wanted)."""
    try:
        found = get_engine().get_dataset(dataset)
    except zfs.ZfsError:
        return ""  # the run itself says what is wrong
    if not found.locked:
        return ""
    return (
        f"{WAITS_FOR_KEY} {found.encryption_root} is locked. The next run after it is "
        "unlocked takes the snapshot."
    )


def prune(task: SnapshotTask, now: datetime) -> int:
    """Destroy this task's expired snapshots (never a user's, another task's, held or cloned)."""
    engine = get_engine()
    found = engine.list_snapshots(task.dataset, recursive=task.recursive)
    keep = lifetime(task.lifetime_value, task.lifetime_unit)
    old = pruning.expired(
        found, task_id=str(task.pk), schema=task.naming_schema, keep=keep, now=now
    )
    for dataset, names in old.items():
        engine.destroy_snapshots(dataset, names)
    return sum(len(names) for names in old.values())
