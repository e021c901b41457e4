"""Reads of replication tasks: the list, one task, its runs, what it sends, when it is due."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.db.models import Max, Prefetch, QuerySet
from django.http import Http404

from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask
from storage.datasets.selectors import dataset_list
from storage.periodic import claimed_slots, next_slots
from storage.schedule import Schedule, lifetime
from storage.zfs.errors import ZfsError

ALL_DAY = (time(0, 0), time(23, 59))


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


def run_queryset(task: ReplicationTask) -> QuerySet[ReplicationRun]:
    """Every run of the task, newest first (the API pages through them)."""
    return task.runs.all()


@dataclass(frozen=True)
class TaskRow:
    """A task as its list shows it: when it runs, in words, and how its last run ended."""

    task: ReplicationTask
    trigger: str
    last_run: ReplicationRun | None


def task_rows() -> list[TaskRow]:
    """Every task with its trigger in words and its last run (one query for all the runs)."""
    runs = ReplicationRun.objects.filter(kind=ReplicationRun.Kind.REPLICATE)
    latest = runs.order_by("-started_at", "-id")[:1]
    tasks = task_queryset().prefetch_related(Prefetch("runs", latest, to_attr="latest"))
    return [TaskRow(t, trigger_text(t), next(iter(getattr(t, "latest", [])), None)) for t in tasks]


def trigger_text(task: ReplicationTask) -> str:
    """When the task runs, as a sentence."""
    if task.trigger == ReplicationTask.Trigger.SCHEDULE:
        words = task.schedule_in_words
        if (task.begin, task.end) != ALL_DAY:
            words += f", only from {task.begin:%H:%M} to {task.end:%H:%M}"
        return words
    if task.trigger == ReplicationTask.Trigger.AFTER_TASK:
        if task.snapshot_task is None:
            return "After its periodic snapshot task, which was deleted: choose another trigger"
        return f"After each periodic snapshot of {task.snapshot_task.dataset}"
    return "Only when run by hand"


def running_jobs(task: ReplicationTask) -> list[Job]:
    """The task's jobs (runs, restores, test restores) that have not finished (waiting for a
    worker, or running): one at a time per task."""
    jobs = Job.objects.filter(kind__startswith="replication.", arguments__task_id=task.pk)
    return list(jobs.exclude(status__in=Job.FINISHED))


def local_datasets() -> list[str]:
    """This box's datasets and zvols, offered while a source or target is typed."""
    try:
        return [d.name for d in dataset_list()]
    except ZfsError:
        return []  # no pool readable now: the names are typed


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


def last_test(task: ReplicationTask) -> ReplicationRun | None:
    """The task's latest test restore, if any."""
    return task.runs.filter(kind=ReplicationRun.Kind.TEST).first()


def last_successes() -> dict[str, datetime | None]:
    """Each replication task by name and when its last replication run that did not fail
    ended (sent, or found nothing new to send); None for a task that has not had one."""
    ended = ReplicationRun.Result.SENT, ReplicationRun.Result.NOTHING
    done = (
        ReplicationRun.objects.filter(kind=ReplicationRun.Kind.REPLICATE, result__in=ended)
        .values("task_id")
        .annotate(last=Max("finished_at"))
    )
    by_task = {row["task_id"]: row["last"] for row in done}
    tasks = ReplicationTask.objects.values_list("pk", "name")
    return {name: by_task.get(pk) for pk, name in tasks}
