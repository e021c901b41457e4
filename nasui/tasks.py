"""Core Celery tasks: the worker heartbeat and the self-test job."""

from __future__ import annotations

import time

from celery import shared_task
from celery.signals import worker_ready

from nasui.first_password import password_file, password_to_show
from nasui.health import record_worker_heartbeat
from nasui.jobs import JobReporter, job_task, reap_orphaned_jobs

SELF_TEST_MAX_STEPS = 20


@shared_task(name="nasui.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    """Note that a worker is alive; /health/ reads it."""
    record_worker_heartbeat()


@worker_ready.connect
def _heartbeat_on_start(**_: object) -> None:
    """A worker that just started is alive before beat first asks; jobs its dead
    predecessor was running are failed at once rather than left running."""
    record_worker_heartbeat()
    reap_orphaned_jobs()


@shared_task(name="nasui.recheck_first_password", ignore_result=True)
def recheck_first_password() -> None:
    """The admin's hash changed: remember it if the first-boot password still matches, or forget
    that password (a PBKDF2 check, kept off the login request)."""
    password_to_show(password_file())


@shared_task(name="nasui.reap_orphaned_jobs", ignore_result=True)
def reap_jobs() -> None:
    """Fail running jobs whose worker process died (a killed or crashed worker)."""
    reap_orphaned_jobs()


@job_task("nasui.self_test")
def self_test(reporter: JobReporter, steps: int = 5, delay: float = 0.2) -> dict[str, int]:
    """Count through a few steps, reporting progress: proves the worker, Redis and the jobs page."""
    for step in range(1, steps + 1):
        time.sleep(delay)
        reporter.progress(step * 100 // (steps + 1), f"Step {step} of {steps}")
    return {"steps": steps}
