"""Restores for the worker: a restore and a test restore, each as a job."""

from __future__ import annotations

from typing import Any

from nasui.jobs import JobReporter, job_task
from replication.replications.selectors import task_get
from replication.restores.runtime import restore_run, restore_test_run


@job_task("replication.restore")
def restore(reporter: JobReporter, *, task_id: int, into: str, snapshot: str) -> dict[str, Any]:
    """Bring a task's copy back; progress in bytes, rate and time left."""
    return restore_run(task=task_get(task_id), snapshot=snapshot, into=into,
                       job_id=reporter.job_id, report=reporter.progress)  # fmt: skip


@job_task("replication.test_restore")
def restore_test(reporter: JobReporter, *, task_id: int) -> dict[str, Any]:
    """Receive, compare and remove; progress while receiving, then while comparing."""
    return restore_test_run(
        task=task_get(task_id), job_id=reporter.job_id, report=reporter.progress
    )
