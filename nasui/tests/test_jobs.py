"""Jobs: the reporter pattern, the Jobs page and a real worker over the real Redis."""

from __future__ import annotations

import subprocess
import time

import pytest
from django.test import Client

from nasui.jobs import JobReporter, job_task
from nasui.models import Job


@job_task("tests.boom")
def _failing(reporter: JobReporter) -> None:
    reporter.progress(40, "halfway")
    raise RuntimeError("disk on fire")


@job_task("tests.ok")
def _succeeding(reporter: JobReporter, value: int) -> dict[str, int]:
    reporter.progress(50, "working")
    return {"double": value * 2}


@pytest.mark.django_db
def test_a_job_body_that_returns_marks_the_job_succeeded():
    job = Job.objects.create(kind="t", title="t")
    _succeeding.run(job.pk, value=21)
    job.refresh_from_db()
    assert (job.status, job.progress, job.result) == ("succeeded", 100, {"double": 42})
    assert job.started_at is not None
    assert job.finished_at is not None


@pytest.mark.django_db
def test_a_job_body_that_raises_marks_the_job_failed_with_the_message():
    job = Job.objects.create(kind="t", title="t")
    _failing.run(job.pk)
    job.refresh_from_db()
    assert (job.status, job.progress, job.error) == ("failed", 40, "disk on fire")


@pytest.mark.django_db
def test_the_row_of_a_running_job_keeps_polling(admin_client):
    job = Job.objects.create(kind="t", title="t", status=Job.Status.RUNNING, progress=30)
    response = admin_client.get(f"/jobs/{job.pk}/row/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'hx-trigger="every 1s' in response.content.decode()


@pytest.mark.django_db
def test_the_row_of_a_finished_job_stops_polling(admin_client):
    job = Job.objects.create(kind="t", title="t", status=Job.Status.SUCCEEDED, progress=100)
    response = admin_client.get(f"/jobs/{job.pk}/row/", HTTP_HX_REQUEST="true")
    assert response.status_code == 286
    assert "hx-trigger" not in response.content.decode()
    assert response["HX-Trigger"] == "job-finished"  # the page reads again what it changed


@pytest.mark.django_db
def test_the_row_of_a_running_job_raises_no_event(admin_client):
    job = Job.objects.create(kind="t", title="t", status=Job.Status.RUNNING, progress=30)
    response = admin_client.get(f"/jobs/{job.pk}/row/", HTTP_HX_REQUEST="true")
    assert "HX-Trigger" not in response


@pytest.mark.django_db
def test_the_jobs_page_renders_a_partial_for_htmx(admin_client):
    Job.objects.create(kind="t", title="Scrub tank")
    full = admin_client.get("/jobs/")
    partial = admin_client.get("/jobs/", HTTP_HX_REQUEST="true")
    assert "<html" in full.content.decode()
    assert "<html" not in partial.content.decode()
    assert "Scrub tank" in partial.content.decode()
    assert "HX-Request" in full["Vary"]


@pytest.mark.django_db
def test_the_jobs_page_shows_an_empty_state(admin_client):
    assert "No jobs yet" in admin_client.get("/jobs/").content.decode()


def _wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_job_runs_on_a_real_worker_and_its_progress_reaches_the_jobs_page(
    celery_worker_process, admin_user
):
    client = Client()
    client.force_login(admin_user)
    response = client.post("/api/jobs/self-test/", {"steps": 4}, content_type="application/json")
    assert response.status_code == 202
    job_id = response.json()["id"]
    seen = set()

    def finished() -> bool:
        job = Job.objects.get(pk=job_id)
        seen.add(job.progress)
        return job.is_finished

    _wait_for(finished)
    job = Job.objects.get(pk=job_id)
    assert job.status == "succeeded", job.error
    assert job.result == {"steps": 4}
    assert any(0 < p < 100 for p in seen), seen
    row = client.get(f"/jobs/{job_id}/row/", HTTP_HX_REQUEST="true")
    assert row.status_code == 286
    assert "100%" in row.content.decode()
    assert "Succeeded" in row.content.decode()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_health_reports_the_worker_once_it_answered(celery_worker_process, client):
    from nasui.tasks import worker_heartbeat

    worker_heartbeat.delay()
    body = _wait_for(lambda: (b := client.get("/health/").json())["worker"] and b)
    assert body["status"] == "ok"
    assert body["database"] is True
    assert body["redis"] is True


@pytest.mark.django_db
def test_a_running_job_whose_process_is_gone_is_failed():
    import socket

    from nasui.jobs import WORKER_LOST, reap_orphaned_jobs, this_process

    gone = Job.objects.create(
        kind="t", title="t", status="running", worker=f"{socket.gethostname()}:{_ended_pid()}"
    )
    alive = Job.objects.create(kind="t", title="t", status="running", worker=this_process())
    other_host = Job.objects.create(kind="t", title="t", status="running", worker="elsewhere:1")
    assert reap_orphaned_jobs() == 1
    gone.refresh_from_db()
    assert (gone.status, gone.error) == ("failed", WORKER_LOST)
    assert gone.finished_at is not None
    assert Job.objects.get(pk=alive.pk).status == "running"
    assert Job.objects.get(pk=other_host.pk).status == "running"


@pytest.mark.django_db
def test_a_job_from_before_this_boot_is_failed_even_if_its_pid_is_taken_again():
    """A box boots the same way each time: a job's pid may belong to another process after a
    restart (or a restored database may hold jobs that were running when it was saved)."""
    from datetime import UTC, datetime, timedelta

    import psutil

    from nasui.jobs import WORKER_LOST, reap_orphaned_jobs, this_process

    before_boot = datetime.fromtimestamp(psutil.boot_time(), tz=UTC) - timedelta(minutes=5)
    old = Job.objects.create(kind="t", title="t", status="running", worker=this_process())
    Job.objects.filter(pk=old.pk).update(started_at=before_boot, created_at=before_boot)
    now = Job.objects.create(kind="t", title="t", status="running", worker=this_process())
    assert reap_orphaned_jobs() == 1
    old.refresh_from_db()
    assert (old.status, old.error) == ("failed", WORKER_LOST)
    assert Job.objects.get(pk=now.pk).status == "running"


@pytest.mark.django_db
def test_a_job_queued_before_this_boot_is_failed_and_never_started_after():
    from datetime import UTC, datetime, timedelta

    import psutil

    from nasui import tasks
    from nasui.jobs import QUEUE_LOST, reap_orphaned_jobs

    before_boot = datetime.fromtimestamp(psutil.boot_time(), tz=UTC) - timedelta(minutes=5)
    old = Job.objects.create(kind="self_test", title="old")
    Job.objects.filter(pk=old.pk).update(created_at=before_boot)
    queued_now = Job.objects.create(kind="self_test", title="new")
    assert reap_orphaned_jobs() == 1
    old.refresh_from_db()
    assert (old.status, old.error) == ("failed", QUEUE_LOST)
    assert Job.objects.get(pk=queued_now.pk).status == "pending"
    tasks.self_test.run(old.pk, steps=1)  # its message comes after all: it is not started
    old.refresh_from_db()
    assert (old.status, old.started_at) == ("failed", None)


def _ended_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_leaves_the_job_failed_not_running(
    disposable_celery_worker, admin_user
):
    from nasui import tasks
    from nasui.jobs import WORKER_LOST, reap_orphaned_jobs

    job = Job.objects.create(kind="self_test", title="Long", created_by=admin_user)
    # Only this test's worker listens on "disposable": the job runs in the process killed below.
    tasks.self_test.apply_async(args=(job.pk,), kwargs={"steps": 100}, queue="disposable")
    running = _wait_for(lambda: Job.objects.filter(pk=job.pk, status="running", progress__gt=0))
    assert running
    disposable_celery_worker.kill()
    disposable_celery_worker.wait(timeout=10)
    assert reap_orphaned_jobs() == 1
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", WORKER_LOST)
