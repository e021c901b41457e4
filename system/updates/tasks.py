"""The update's job: write the idle slot and restart into it."""

from __future__ import annotations

from typing import Any

from nasui.jobs import JobReporter, job_task
from system.updates import services


@job_task("system.update_apply")
def update_apply(reporter: JobReporter, *, path: str, health_seconds: int) -> dict[str, Any]:
    """Progress in MiB written; the box restarts a few seconds after it succeeds."""
    return services.update_apply(path=path, health_seconds=health_seconds, report=reporter.progress)
