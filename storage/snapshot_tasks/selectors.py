"""Reads of periodic snapshot tasks for the pages and the API: rows, schedules in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time

from django.db.models import QuerySet
from django.http import Http404

from storage.models import SnapshotTask
from storage.periodic import next_slots
from storage.schedule import PRESETS, Schedule

ALL_DAY = (time(0, 0), time(23, 59))
PRESET_WORDS = {
    "hourly": "Every hour, on the hour",
    "daily": "Every day at 00:00",
    "weekly": "Every Sunday at 00:00",
}

WAITS_FOR_KEY = "Waits for the key:"  # a run skipped while its dataset is locked


@dataclass(frozen=True)
class TaskRow:
    """A task with its schedule in words and its next run (None: disabled or never)."""

    task: SnapshotTask
    schedule: str
    next_run: datetime | None


def task_queryset() -> QuerySet[SnapshotTask]:
    """Every task, in the model's order."""
    return SnapshotTask.objects.all()


def task_get(pk: int) -> SnapshotTask:
    """One task, or a 404."""
    try:
        return SnapshotTask.objects.get(pk=pk)
    except SnapshotTask.DoesNotExist:
        raise Http404(f"No periodic snapshot task {pk}.") from None


def preset_of(task: SnapshotTask) -> str:
    """The preset whose fields the task has, or "custom"."""
    fields = (task.minutes, task.hours, task.days_of_week)
    return next((name for name, preset in PRESETS.items() if preset == fields), "custom")


def schedule_text(task: SnapshotTask) -> str:
    """'Every hour, on the hour', or the fields in words; plus the daily window if any."""
    preset = preset_of(task)
    words = PRESET_WORDS.get(preset) or task.schedule_in_words
    if (task.begin, task.end) != ALL_DAY:
        words += f", only from {task.begin:%H:%M} to {task.end:%H:%M}"
    return words


def next_run(task: SnapshotTask) -> datetime | None:
    """When the task runs next; None when disabled or nothing matches within a week."""
    if not task.enabled:
        return None
    upcoming = next_runs(task, 1)
    return upcoming[0] if upcoming else None


def task_rows() -> list[TaskRow]:
    """Every task as the list page shows it."""
    return [TaskRow(t, schedule_text(t), next_run(t)) for t in task_queryset()]


def task_labels() -> dict[str, str]:
    """Task id (as stamped on its snapshots) -> a short label, for the snapshot list."""
    return {str(t.pk): f"#{t.pk} ({t.dataset})" for t in task_queryset()}


def schedule_of(task: SnapshotTask) -> Schedule:
    """The task's schedule (its fields were checked when it was saved)."""
    return Schedule.from_fields(task.minutes, task.hours, task.days_of_week, task.begin, task.end)


def next_runs(task: SnapshotTask, count: int = 3) -> list[datetime]:
    """The task's next slots, for the page."""
    return next_slots(schedule_of(task), count)
