"""Restores and test restores of a replication task, started as jobs once their fields hold.

One job at a time per task: a restore, a test or a run of the task would otherwise read and
write the same snapshots at once.
"""

from __future__ import annotations

import re

from django.contrib.auth.models import AnonymousUser, User

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from replication.models import ReplicationTask
from replication.replications.selectors import running_jobs
from replication.replications.validation import inside
from replication.restores.selectors import default_into
from storage.zfs.names import dataset_name_problem

RESTORE_TASK = "replication.restore"
TEST_TASK = "replication.test_restore"
SNAPSHOT = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")
SNAPSHOT_RULE = "a snapshot's short name (after @): letters, digits, - _ . or :"


def restore_start(
    *,
    task: ReplicationTask,
    into: str = "",
    snapshot: str = "",
    user: User | AnonymousUser | None = None,
) -> Job:
    """Bring the task's copy back under `into` (beside the original by default), up to
    `snapshot` (the newest by default), as a job."""
    into = into.strip() or default_into(task)
    snapshot = snapshot.strip()
    problem = dataset_name_problem(into)
    if problem:
        raise fail("into", problem)
    if "/" not in into:
        raise fail("into", "Name a dataset inside a pool (pool/name), not a pool.")
    if task.direction == ReplicationTask.Direction.LOCAL and inside(into, task.target):
        raise fail("into", f"Restore beside the copy, not inside it ({task.target}).")
    if snapshot and not SNAPSHOT.match(snapshot):
        raise fail("snapshot", f"Use {SNAPSHOT_RULE}; or leave it empty for the newest.")
    _check_idle(task)
    title = f"Restore {task.target}@{snapshot or 'newest'} as {into}"
    return job_start(kind="replication.restore", title=title, task=RESTORE_TASK, user=user,
                     cancellable=True, task_id=task.pk, into=into, snapshot=snapshot)  # fmt: skip


def restore_test_start(*, task: ReplicationTask, user: User | AnonymousUser | None = None) -> Job:
    """Receive the newest copy into a scratch dataset, compare it, remove it: as a job."""
    _check_idle(task)
    return job_start(kind="replication.test_restore", title=f"Test restore of {task.target}",
                     task=TEST_TASK, user=user, cancellable=True, task_id=task.pk)  # fmt: skip


def _check_idle(task: ReplicationTask) -> None:
    if running_jobs(task) or task.runs.filter(result="running").exists():
        raise fail("task", "This task is running or waiting to run: try again when it is done.")
