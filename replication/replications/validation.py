"""Every field of a replication task, each refusal on its own field, before anything is saved."""

from __future__ import annotations

import re

from nasui.validation import fail
from replication.models import ReplicationTask
from storage.schedule import Schedule, ScheduleError, check_window, lifetime
from storage.zfs import naming
from storage.zfs.names import dataset_name_problem

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAME_RULE = "1-64 letters, digits, - _ or ., starting with a letter or a digit"
MAX_STALL = 3600


def check_task(task: ReplicationTask) -> None:
    """The whole task, field by field (a ValidationError on the first wrong one)."""
    _check_name(task)
    _check_sides(task)
    _check_datasets(task)
    _check_what(task)
    _check_when(task)
    _check_limits(task)


def _check_name(task: ReplicationTask) -> None:
    if not NAME.match(task.name or ""):
        raise fail("name", f"Use {NAME_RULE}.")
    if ReplicationTask.objects.filter(name=task.name).exclude(pk=task.pk).exists():
        raise fail("name", f"A replication task named “{task.name}” already exists.")


def _check_sides(task: ReplicationTask) -> None:
    if task.direction not in ReplicationTask.Direction.values:
        raise fail("direction", f"Use one of {', '.join(ReplicationTask.Direction.values)}.")
    if task.direction == ReplicationTask.Direction.LOCAL and task.connection_id is not None:
        raise fail("connection", "A copy to a pool on this box needs no SSH connection.")
    if task.direction != ReplicationTask.Direction.LOCAL and task.connection_id is None:
        raise fail("connection", "Choose the SSH connection to the other box.")


def _check_datasets(task: ReplicationTask) -> None:
    for field in ("source", "target"):
        problem = dataset_name_problem(getattr(task, field))
        if problem:
            raise fail(field, problem)
    if task.direction == ReplicationTask.Direction.LOCAL and inside(task.target, task.source):
        raise fail("target", "The target cannot be the source or inside it.")
    if "/" not in task.target:
        raise fail("target", "Name a dataset inside a pool (pool/name): a pool's root "
                                    "dataset cannot receive a copy.")  # fmt: skip
    if not isinstance(task.exclude, list) or not all(isinstance(x, str) for x in task.exclude):
        raise fail("exclude", "Give a list of the source's children to leave out.")
    for child in task.exclude:
        if not task.recursive:
            raise fail("exclude", "Children can be left out only of a recursive task.")
        if not inside(child, task.source) or child == task.source:
            raise fail("exclude", f"“{child}” is not a child of {task.source}.")


def _check_what(task: ReplicationTask) -> None:
    if task.snapshot_task_id is None and not task.naming_schema:
        raise fail("naming_schema", "Choose a periodic snapshot task, or give the naming "
                                           "schema of the snapshots to send.")  # fmt: skip
    if task.snapshot_task_id is not None and task.naming_schema:
        raise fail("naming_schema", "Choose a periodic snapshot task or a naming schema, "
                                           "not both.")  # fmt: skip
    if task.naming_schema and (problem := naming.schema_problem(task.naming_schema)):
        raise fail("naming_schema", problem)
    if task.snapshot_task is not None and task.snapshot_task.dataset != task.source:
        raise fail("snapshot_task", f"That task snapshots {task.snapshot_task.dataset}, "
                                           f"not {task.source}.")  # fmt: skip
    if task.trigger == ReplicationTask.Trigger.AFTER_TASK and task.snapshot_task_id is None:
        raise fail("trigger", "Only a task that sends a periodic task's snapshots can "
                                     "run after it; choose a schedule.")  # fmt: skip


def _check_when(task: ReplicationTask) -> None:
    if task.trigger not in ReplicationTask.Trigger.values:
        raise fail("trigger", f"Use one of {', '.join(ReplicationTask.Trigger.values)}.")
    try:
        if task.trigger == ReplicationTask.Trigger.SCHEDULE:
            check_window(task.begin, task.end)
            Schedule.from_fields(task.minutes, task.hours, task.days_of_week, task.begin, task.end)
        if task.keep_value is not None:
            lifetime(task.keep_value, task.keep_unit)
    except ScheduleError as error:
        field = {"lifetime_value": "keep_value", "lifetime_unit": "keep_unit"}.get(error.field)
        raise fail(field or error.field, error.message) from error


def _check_limits(task: ReplicationTask) -> None:
    if not 10 <= task.stall_seconds <= MAX_STALL:
        raise fail("stall_seconds", f"Use 10 to {MAX_STALL} seconds.")
    if task.max_age_hours is not None and task.max_age_hours < 1:
        raise fail("max_age_hours", "Use at least 1 hour, or leave it empty.")


def inside(name: str, ancestor: str) -> bool:
    """`name` is `ancestor` or below it."""
    return name == ancestor or name.startswith(f"{ancestor}/")
