"""SMART writes: start a self-test now, and scheduled self-tests (short or long) of disks."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.utils import timezone

from nasui.validation import fail
from storage.disks import selectors as disk_selectors
from storage.models import SmartTestTask
from storage.periodic import claimed_slots, next_slots, save_changes
from storage.schedule import Schedule, ScheduleError
from storage.smart import selectors
from storage.zfs.smart import TEST_KINDS, SmartError

log = logging.getLogger(__name__)
FIELDS = ("kind", "disks", "minutes", "hours", "days_of_week", "enabled")


def _disk_names() -> set[str]:
    """The whole disks this machine has."""
    return {d.name for d in disk_selectors.disk_list()}


def smart_test_start(*, disk: str, kind: str) -> None:
    """Start a short or long self-test of one disk (it runs inside the disk)."""
    if kind not in TEST_KINDS:
        raise fail("kind", "Choose a short or a long test.")
    if disk not in _disk_names():
        raise fail("disk", f"There is no disk named “{disk}”.")
    try:
        selectors.smart_source().start_test(disk, kind)
    except SmartError as exc:
        raise fail("disk", f"{disk}: {exc.message}") from exc
    finally:
        selectors.forget(disk)


def schedule_of(task: SmartTestTask) -> Schedule:
    """When the task runs."""
    return Schedule.from_fields(task.minutes, task.hours, task.days_of_week)


def _check(task: SmartTestTask) -> None:
    """The kind, the disks (sorted, once each) and the schedule, each error on its field."""
    if task.kind not in TEST_KINDS:
        raise fail("kind", "Choose a short or a long test.")
    task.disks = sorted(set(task.disks or []))
    unknown = sorted(set(task.disks) - _disk_names())
    if unknown:
        raise fail("disks", f"No such disk: {', '.join(unknown)}.")
    try:
        schedule_of(task)
    except ScheduleError as exc:
        raise fail(exc.field, exc.message) from exc


def _apply(task: SmartTestTask, values: dict[str, Any]) -> SmartTestTask:
    """Check the changed task on a copy, then save it (a refusal leaves `task` as it was)."""
    return save_changes(task, values, FIELDS, _check)


def smart_task_create(**values: Any) -> SmartTestTask:
    """A new scheduled self-test (no disks listed: every disk)."""
    return _apply(SmartTestTask(), values)


def smart_task_update(*, task: SmartTestTask, **values: Any) -> SmartTestTask:
    """Change a scheduled self-test."""
    return _apply(task, values)


def smart_task_delete(*, task: SmartTestTask) -> None:
    """Remove a scheduled self-test."""
    task.delete()


def next_run(task: SmartTestTask) -> datetime | None:
    """The task's next run, for the page and the API (None while off)."""
    found = next_slots(schedule_of(task)) if task.enabled else []
    return found[0] if found else None


def run_due_smart_tests(now: datetime | None = None) -> list[str]:
    """Start the self-tests whose slot has come; the disks a test was started on."""
    now = now or timezone.now()
    started: list[str] = []
    for task, _slot in claimed_slots(SmartTestTask.objects.filter(enabled=True), schedule_of, now):
        started += smart_task_run(task, now)
    return started


def smart_task_run(task: SmartTestTask, now: datetime) -> list[str]:
    """Start the task's test on each of its disks; record what happened."""
    names = task.disks or _smart_disks()
    started, failed = [], []
    for name in names:
        try:
            smart_test_start(disk=name, kind=task.kind)
            started.append(name)
        except Exception as exc:  # one refusing disk must not stop the others
            log.warning("scheduled SMART test of %s: %s", name, exc)
            failed.append(name)
    outcome = f"{task.get_kind_display()} test started on {', '.join(started) or 'no disk'}."
    if failed:
        outcome += f" Refused: {', '.join(failed)}."
    task.last_run_at, task.last_outcome = now, outcome[:255]
    task.save(update_fields=["last_run_at", "last_outcome"])
    return started


def _smart_disks() -> list[str]:
    """Every disk that answers SMART ("all disks" skips virtio and USB disks without it)."""
    return [row.disk.name for row in selectors.disks_with_smart() if row.smart and
            row.smart.supported]  # fmt: skip


def smart_task_rows() -> list[tuple[SmartTestTask, datetime | None]]:
    """Every scheduled self-test with its next run, for the Disks page."""
    return [(task, next_run(task)) for task in SmartTestTask.objects.all()]
