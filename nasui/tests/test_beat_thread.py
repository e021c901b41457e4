"""--beat-thread: one worker process runs the periodic tasks too (the appliance's set-up)."""

from __future__ import annotations

import time

import psutil
import pytest

from monitoring.models import Sample

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_worker_with_a_beat_thread_schedules_and_runs_samples_alone(
    celery_worker_with_beat_thread,
):
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and Sample.objects.count() < 2:
        time.sleep(0.25)
    assert Sample.objects.count() >= 2
    # no forked beat (Celery's own --beat) and no pool processes: one process does it all
    assert psutil.Process(celery_worker_with_beat_thread.pid).children(recursive=True) == []


def test_beat_thread_is_off_unless_asked_for():
    from nasui.beat_thread import BeatThread

    class Worker:
        app = None

    assert BeatThread(Worker()).enabled is False
    assert BeatThread(Worker(), beat_thread=True).enabled is True
