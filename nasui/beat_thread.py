"""Celery beat as a thread of the worker (`--beat-thread`): the appliance saves a whole process.

Celery's own `--beat` forks a beat process (~80 MiB resident on its own, as much again as a
worker): here the same beat service runs in a daemon thread of the worker instead.
"""

from __future__ import annotations

from typing import Any

from celery import bootsteps
from celery.beat import EmbeddedService
from click import Option

OPTION = Option(
    ("--beat-thread",),
    is_flag=True,
    default=False,
    help="Run Celery beat as a thread of this worker (one process fewer than --beat).",
)


class BeatThread(bootsteps.StartStopStep):
    """Starts and stops the beat service in a thread when the worker has --beat-thread."""

    label = "BeatThread"
    conditional = True

    def __init__(self, worker: Any, beat_thread: bool = False, **options: Any) -> None:
        self.enabled = bool(beat_thread)
        super().__init__(worker, **options)

    def create(self, worker: Any) -> Any:
        """The threaded beat service, with the worker's schedule file and scheduler."""
        return EmbeddedService(
            worker.app,
            thread=True,
            schedule_filename=worker.schedule_filename,
            scheduler_cls=worker.scheduler,
        )


def install(app: Any) -> None:
    """Add the --beat-thread option and its step to a Celery app's workers."""
    app.user_options["worker"].add(OPTION)
    app.steps["worker"].add(BeatThread)
