"""Replication tasks: saved once every field is checked, run as jobs, refused in words.

A run goes as far as the chain allows without destroying anything on the target; a refusal is
kept on the task with the choice that would let the next run go ahead (`consent`), used once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from replication.models import ReplicationRun, ReplicationTask
from replication.replications import selectors
from replication.replications.runtime import release_local_holds
from replication.replications.validation import check_task
from storage.periodic import save_changes

FIELDS = (
    "name", "direction", "connection", "source", "target", "recursive", "exclude",
    "snapshot_task", "naming_schema", "trigger", "minutes", "hours", "days_of_week", "begin",
    "end", "keep_value", "keep_unit", "bandwidth_kib", "wire_compression", "stall_seconds",
    "max_age_hours", "enabled",
)  # fmt: skip
RUN_TASK = "replication.run"


def replication_task_create(**values: Any) -> ReplicationTask:
    """Save a new task; it first runs at its trigger (or by hand)."""
    return save_changes(ReplicationTask(), values, FIELDS, check_task)


def replication_task_update(*, task: ReplicationTask, **values: Any) -> ReplicationTask:
    """Change a task; the next run uses the change."""
    return save_changes(task, values, FIELDS, check_task)


def replication_task_delete(*, task: ReplicationTask) -> list[str]:
    """Delete a task; what it copied stays on the target. Its holds on this box are released
    (the snapshots named); those on the other box stay until `zfs release` there."""
    if task.runs.filter(result="running").exists() or selectors.running_jobs(task):
        raise fail("task", "This task is running: wait for it to finish, or cancel its job.")
    released = release_local_holds(task)
    task.delete()
    return released


def replication_task_start(
    *, task: ReplicationTask, user: User | AnonymousUser | None = None
) -> Job:
    """Run the task now, as a job (one at a time: a queued one counts)."""
    if selectors.running_jobs(task) or task.runs.filter(result="running").exists():
        raise fail("task", "This task is already running or waiting to run.")
    # Marked now, not when the worker starts it: beat must not start it again meanwhile.
    ReplicationTask.objects.filter(pk=task.pk).update(last_run_at=timezone.now())
    return job_start(
        kind="replication.run",
        title=f"Replicate {task.source} to {task.target}",
        task=RUN_TASK,
        user=user,
        cancellable=True,
        task_id=task.pk,
    )


def replication_task_consent(*, task: ReplicationTask, choice: str) -> ReplicationTask:
    """The user's answer to the last refusal: the next run may do what it named, once."""
    if not task.refusal_choice:
        raise fail("choice", "The last run was not refused: there is nothing to agree to.")
    if choice != task.refusal_choice:
        wanted = ReplicationTask.Choice(task.refusal_choice).label
        raise fail("choice", f"The last refusal asks for “{wanted}” ({task.refusal_choice}).")
    task.consent = choice
    task.save(update_fields=["consent"])
    return task


INTERRUPTED = "Interrupted: the box stopped or restarted during the run; the next run resumes."


def interrupted_runs_closed(kinds: list[str]) -> int:
    """Close the runs still "running" whose job has finished (its worker died): failed, so
    the task runs again. `kinds`: the reaped jobs' kinds (nothing to do without a replication)."""
    if not any(kind.startswith("replication.") for kind in kinds):
        return 0
    stale = ReplicationRun.objects.filter(
        result=ReplicationRun.Result.RUNNING, job__status__in=Job.FINISHED
    )
    return stale.update(
        result=ReplicationRun.Result.FAILED, message=INTERRUPTED, finished_at=timezone.now()
    )


def due_tasks(now: Any = None) -> list[Job]:
    """Start the tasks whose trigger has come: their schedule's slot, or their snapshot task's
    newer run (polled here, so storage never needs to know about replication)."""
    now = now or timezone.now()
    started = []
    for task in selectors.due(ReplicationTask.objects.filter(enabled=True), now):
        if not selectors.running_jobs(task) and not task.runs.filter(result="running").exists():
            started.append(replication_task_start(task=task))
    return started
