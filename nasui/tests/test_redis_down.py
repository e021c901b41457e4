"""Redis down or hung: pages and /health/ answer at once, a job that cannot be queued fails.

A real redis-server is stopped with SIGSTOP (it accepts connections and never answers, the
worst case), or nothing listens at all; the cache and the job queue are pointed at it.
"""

from __future__ import annotations

import copy
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from nasui import services
from nasui.celery import app
from nasui.lib.net import free_loopback_port
from nasui.models import Job

# Autocommit, as in production: a job is handed to the queue as soon as its row is saved.
# In the fuzz lane too (-m fuzz): what found the 500s and the hangs.
pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]


def _aim(settings, monkeypatch, url: str) -> None:
    """Point the cache and the job queue at `url`."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["LOCATION"] = url
    settings.CACHES = caches  # the cache handlers are rebuilt for it
    monkeypatch.setattr(app.conf, "broker_url", url)


@pytest.fixture
def dead_redis(settings, monkeypatch) -> str:
    """Nothing listens where the panel expects Redis."""
    url = f"redis://127.0.0.1:{free_loopback_port()}/0"
    _aim(settings, monkeypatch, url)
    return url


@pytest.fixture
def hung_redis(settings, monkeypatch) -> Iterator[str]:
    """A redis-server that accepts connections and never answers (stopped with SIGSTOP)."""
    port = free_loopback_port()
    workdir = tempfile.mkdtemp(prefix="nasui-hung-redis-")
    argv = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    proc = subprocess.Popen([*argv, "--dir", workdir], stdout=subprocess.DEVNULL)
    try:
        _wait_listening(port)
        os.kill(proc.pid, signal.SIGSTOP)
        url = f"redis://127.0.0.1:{port}/0"
        _aim(settings, monkeypatch, url)
        yield url
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


def _wait_listening(port: int) -> None:
    import socket
    import time

    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server did not listen on {port}")


def _start_job(admin_user) -> Job:
    job = services.job_start(kind="self_test", title="t", task="nasui.self_test", user=admin_user)
    job.refresh_from_db()
    return job


@pytest.mark.parametrize("redis", ["dead_redis", "hung_redis"])
def test_a_job_that_cannot_be_queued_fails_with_the_reason(redis, admin_user, request):
    request.getfixturevalue(redis)
    job = _start_job(admin_user)
    assert job.status == Job.Status.FAILED
    assert "could not be queued: Redis, the job queue, did not answer" in job.error
    assert job.finished_at is not None


@pytest.mark.parametrize("redis", ["dead_redis", "hung_redis"])
def test_health_says_redis_is_down(redis, client, request):
    request.getfixturevalue(redis)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["redis"] is False


def test_the_api_answers_a_job_start_with_the_failed_job(hung_redis, admin_client):
    response = admin_client.post(
        "/api/jobs/self-test/", {"steps": 1}, content_type="application/json"
    )
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "failed"
    assert "Redis" in body["error"]
