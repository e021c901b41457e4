"""The job pattern: a Celery task that keeps its Job row's status and progress current."""

from __future__ import annotations

import functools
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

import psutil
from celery import shared_task
from django.utils import timezone

from nasui import events
from nasui.models import Job

log = logging.getLogger(__name__)
WORKER_LOST = "The worker running this job stopped before it finished (killed or restarted)."
QUEUE_LOST = "Queued before the box restarted, and not started: start it again if still wanted."
CANCELLED = "Cancelled at the user's request."
# How often progress() asks the database whether the user cancelled: often enough to stop
# within a second, rarely enough that a chatty job does not hammer SQLite.
CANCEL_CHECK_SECONDS = 0.5


def announce(job_id: int) -> None:
    """Tell the event stream where a job stands now (the Jobs page and scripts follow it)."""
    job = Job.objects.filter(pk=job_id).first()
    if job is not None:
        events.publish(
            "job", id=job.pk, kind=job.kind, title=job.title, status=job.status,
            progress=job.progress, message=job.message, error=job.error,
            finished=job.is_finished,
        )  # fmt: skip


class JobCancelled(Exception):
    """Raised inside a job's body when the user asked it to stop; clean up in `finally`."""


def this_process() -> str:
    """host:pid, which names the process running a job."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _process_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


# Called with the kinds of the jobs just failed because their process died, so that an app can
# clean up what they left (the advisor's scratch datasets): registered by apps, run by the reaper.
_after_reaping: list[Callable[[list[str]], object]] = []


def on_jobs_reaped(callback: Callable[[list[str]], object]) -> None:
    """Have `callback(kinds)` run whenever jobs whose process died have been failed."""
    if callback not in _after_reaping:
        _after_reaping.append(callback)


def _before_this_boot(job: Job) -> bool:
    """Whether the job started before the machine last booted: its process is gone whatever
    runs under its pid now (a box boots the same way each time, so pids come round again; a
    restored database brings back the jobs running when it was saved)."""
    started = job.started_at or job.created_at
    return started is not None and started.timestamp() < float(psutil.boot_time())


def reap_orphaned_jobs() -> int:
    """Fail the running jobs of this host whose process is gone and the jobs queued before
    this boot, let their apps clean up after them; return how many."""
    host = socket.gethostname()
    kinds = []
    for job in Job.objects.filter(status=Job.Status.RUNNING, worker__startswith=f"{host}:"):
        pid = job.worker.rsplit(":", 1)[1]
        if pid.isdigit() and (_before_this_boot(job) or not _process_alive(int(pid))):
            Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
                status=Job.Status.FAILED, error=WORKER_LOST, finished_at=timezone.now()
            )
            announce(job.pk)
            kinds.append(job.kind)
    # Queued before this boot: the queue it waited in may be gone (a new root after an
    # update, a restored database); failed, so that what waits for it (a replication task)
    # goes on. Should its message still come, the job is not started (job_task).
    for job in Job.objects.filter(status=Job.Status.PENDING):
        if _before_this_boot(job):
            Job.objects.filter(pk=job.pk, status=Job.Status.PENDING).update(
                status=Job.Status.FAILED, error=QUEUE_LOST, finished_at=timezone.now()
            )
            announce(job.pk)
            kinds.append(job.kind)
    if kinds:
        _clean_up_after(kinds)
    return len(kinds)


def _clean_up_after(kinds: list[str]) -> None:
    for callback in _after_reaping:
        try:
            callback(kinds)
        except Exception:  # one app's failed cleanup must not stop the reaper or the others
            log.exception("cleaning up after lost jobs failed in %s", callback)


class JobReporter:
    """Handed to a job's body so it can report progress without knowing about the row."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self._checked_at = 0.0
        self._last_progress: dict[str, Any] = {}

    def _update(self, **fields: Any) -> None:
        Job.objects.filter(pk=self.job_id).update(**fields)
        announce(self.job_id)

    def progress(self, percent: int, message: str = "") -> None:
        """Record how far the job has got (0-100) and what it is doing."""
        fields = {"progress": max(0, min(100, int(percent))), "message": message[:500]}
        if fields != self._last_progress:  # a chatty job repeating itself is not news
            self._last_progress = fields
            self._update(**fields)
        now = time.monotonic()
        if now - self._checked_at >= CANCEL_CHECK_SECONDS:
            self._checked_at = now
            if self.cancel_requested():
                raise JobCancelled(CANCELLED)

    def finished(self) -> bool:
        """Whether the job is over already (so its task must not run)."""
        return Job.objects.filter(pk=self.job_id, status__in=Job.FINISHED).exists()

    def cancel_requested(self) -> bool:
        """Whether the user asked this job to stop."""
        return Job.objects.filter(pk=self.job_id, cancel_requested=True).exists()

    def cancelled(self) -> None:
        """Mark the job cancelled (its body has stopped and cleaned up)."""
        self._update(status=Job.Status.CANCELLED, error=CANCELLED, finished_at=timezone.now())

    def started(self) -> None:
        """Mark the job running, in this process."""
        self._update(status=Job.Status.RUNNING, started_at=timezone.now(), worker=this_process())

    def succeeded(self, result: Any) -> None:
        """Mark the job done with its result."""
        self._update(
            status=Job.Status.SUCCEEDED, progress=100, result=result, finished_at=timezone.now()
        )

    def failed(self, error: str) -> None:
        """Mark the job failed with a message a user can read."""
        self._update(status=Job.Status.FAILED, error=error, finished_at=timezone.now())


def job_task(name: str) -> Callable[[Callable[..., Any]], Any]:
    """Make `body(reporter, **kwargs)` a Celery task, called as `task.delay(job_id, **kwargs)`."""

    def decorate(body: Callable[..., Any]) -> Any:
        @shared_task(name=name, ignore_result=True)
        @functools.wraps(body)
        def run(job_id: int, **kwargs: Any) -> None:
            reporter = JobReporter(job_id)
            if reporter.finished():  # failed by the reaper while queued: never start
                return
            if reporter.cancel_requested():  # cancelled while still queued: never start
                reporter.cancelled()
                return
            reporter.started()
            try:
                result = body(reporter, **kwargs)
            except JobCancelled:
                reporter.cancelled()
                return
            except Exception as exc:  # the job's row is where failures are reported
                log.exception("job %s (%s) failed", job_id, name)
                reporter.failed(str(exc) or exc.__class__.__name__)
                return
            reporter.succeeded(result)

        return run

    return decorate
