"""Scrub work: the job that follows one scrub, and beat's check of the scrub schedules."""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

from nasui.jobs import JobReporter, job_task
from storage.engine import get_engine
from storage.scrub.services import run_due_scrubs

SCRUB_POLL_SECONDS = 1.0


@job_task("storage.pool_scrub")
def pool_scrub(
    reporter: JobReporter, *, name: str, timeout: float = 7 * 24 * 3600
) -> dict[str, Any]:
    """Start a scrub and report its progress until it ends."""
    engine = get_engine()
    engine.scrub_start(name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = engine.scrub_status(name)
        if status.state in ("finished", "canceled"):
            # The last progress line must not keep saying "Scrubbing ...: 69.9% done".
            ended = f"Scrub of {name} {status.state}"
            reporter.progress(100, f"{ended}, {status.errors} error{'s' * (status.errors != 1)}")
            return {"pool": name, "state": status.state, "errors": status.errors}
        done = status.percent_done or 0.0
        reporter.progress(int(min(done, 99.0)), f"Scrubbing {name}: {done:.1f}% done")
        time.sleep(SCRUB_POLL_SECONDS)
    raise TimeoutError(f"the scrub of {name} did not finish within {timeout:.0f} s")


@shared_task(name="storage.scrub_check", ignore_result=True)
def scrub_check() -> list[str]:
    """Check the pools whose scrub slot has come; scrub those whose last scrub is too old."""
    return run_due_scrubs()
