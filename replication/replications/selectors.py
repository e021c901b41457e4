"""Reads of replication tasks: the list, one task, its runs, what it sends, when it is due."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.http import Http404

from replication.models import ReplicationRun, ReplicationTask
from storage.periodic import claimed_slots, next_slots
from storage.schedule import Schedule, lifetime


def task_queryset() -> QuerySet[ReplicationTask]:
    """Every task, with its connection and snapshot task, by name."""
    return ReplicationTask.objects.select_related("connection", "snapshot_task")


def task_get(pk: int) -> ReplicationTask:
    """One task, or 404."""
    try:
        return task_queryset().get(pk=pk)
    except ReplicationTask.DoesNotExist:
        raise Http404(f"No replication task {pk}.") from None


def runs_of(task: ReplicationTask, count: int = 20) -> QuerySet[ReplicationRun]:
    """The task's latest runs, newest first."""
    return task.runs.all()[:count]


def schema_of(task: ReplicationTask) -> str:
    """The naming schema of the snapshots the task sends."""
    if task.snapshot_task is not None:
        return task.snapshot_task.naming_schema
    return task.naming_schema


def keep_of(task: ReplicationTask) -> timedelta | None:
    """How long the target keeps the task's snapshots (None: every one)."""
    if task.keep_value is None:
        return None
    return lifetime(task.keep_value, task.keep_unit)


def schedule_of(task: ReplicationTask) -> Schedule:
    """The task's own schedule (its fields were checked when it was saved)."""
    return Schedule.from_fields(task.minutes, task.hours, task.days_of_week, task.begin, task.end)


def next_runs(task: ReplicationTask, count: int = 3) -> list[datetime]:
    """The next slots of a scheduled task, for its page."""
    if task.trigger != ReplicationTask.Trigger.SCHEDULE:
        return []
    return next_slots(schedule_of(task), count)


def due(tasks: Iterable[ReplicationTask], now: datetime) -> Iterator[ReplicationTask]:
    """The tasks whose trigger has come at `now` (a scheduled slot is claimed once)."""
    tasks = list(tasks)
    scheduled = [t for t in tasks if t.trigger == ReplicationTask.Trigger.SCHEDULE]
    for task, _slot in claimed_slots(scheduled, schedule_of, now):
        yield task
    for task in tasks:
        if task.trigger == ReplicationTask.Trigger.AFTER_TASK and _snapshot_task_ran(task):
            yield task


def _snapshot_task_ran(task: ReplicationTask) -> bool:
    """Its periodic task made a snapshot after the task's last run began."""
    made = task.snapshot_task.last_run_at if task.snapshot_task else None
    return made is not None and (task.last_run_at is None or made > task.last_run_at)


def overdue(now: datetime) -> list[ReplicationTask]:
    """Enabled tasks whose newest replicated snapshot is older than their allowed age."""
    late = []
    for task in task_queryset().filter(enabled=True, max_age_hours__isnull=False):
        newest = task.newest_at or task.created_at
        if now - newest > timedelta(hours=task.max_age_hours or 0):
            late.append(task)
    return late
