"""Replication's work for the worker: one run as a job, and beat's check of the triggers."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from nasui.jobs import JobReporter, job_task
from replication.replications.runtime import replication_run
from replication.replications.selectors import task_get
from replication.replications.services import due_tasks


@job_task("replication.run")
def run(reporter: JobReporter, *, task_id: int) -> dict[str, Any]:
    """Run one task; its progress in bytes, rate and time left."""
    return replication_run(task=task_get(task_id), job_id=reporter.job_id, report=reporter.progress)


@shared_task(name="replication.due", ignore_result=True)
def due() -> list[int]:
    """Start the tasks whose trigger has come; the jobs started."""
    return [job.pk for job in due_tasks()]
