"""Cancelling jobs: the body stops at its next step, cleans up, and the row says cancelled."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from nasui.jobs import JobReporter, job_task
from nasui.models import Job

cleaned: list[int] = []


@job_task("tests.cancel_midway")
def _long(reporter: JobReporter, stop_after: int) -> str:
    try:
        for step in range(10):
            if step == stop_after:  # the user clicks Cancel while the job runs
                Job.objects.filter(pk=reporter.job_id).update(cancel_requested=True)
                reporter._checked_at = 0.0  # skip the check interval in a test
            reporter.progress(step * 10, f"step {step}")
        return "finished"
    finally:
        cleaned.append(reporter.job_id)


@pytest.mark.django_db
def test_a_cancel_stops_the_body_at_its_next_step_and_runs_its_cleanup():
    job = Job.objects.create(kind="t", title="t", cancellable=True)
    _long.run(job.pk, stop_after=3)
    job.refresh_from_db()
    assert (job.status, job.progress, job.result) == ("cancelled", 30, None)
    assert job.error == "Cancelled at the user's request."
    assert job.finished_at is not None
    assert cleaned[-1] == job.pk


@pytest.mark.django_db
def test_a_job_cancelled_while_queued_never_starts():
    job = Job.objects.create(kind="t", title="t", cancellable=True, cancel_requested=True)
    before = len(cleaned)
    _long.run(job.pk, stop_after=99)
    job.refresh_from_db()
    assert job.status == "cancelled"
    assert job.started_at is None
    assert len(cleaned) == before


@pytest.mark.django_db
def test_only_cancellable_unfinished_jobs_can_be_cancelled(admin_client):
    fixed = Job.objects.create(kind="pool.create", title="Create", status=Job.Status.RUNNING)
    done = Job.objects.create(kind="t", title="t", cancellable=True, status=Job.Status.SUCCEEDED)
    for job, words in ((fixed, "cannot be cancelled"), (done, "already succeeded")):
        response = admin_client.post(f"/api/jobs/{job.pk}/cancel/")
        assert response.status_code == 400
        assert words in response.json()["fields"]["job"][0]
        job.refresh_from_db()
        assert job.cancel_requested is False


@pytest.mark.django_db
def test_the_jobs_page_offers_cancel_and_then_says_stopping(admin_client):
    job = Job.objects.create(kind="t", title="t", cancellable=True, status=Job.Status.RUNNING)
    row = admin_client.get(f"/jobs/{job.pk}/row/", HTTP_HX_REQUEST="true").content.decode()
    assert f"/jobs/{job.pk}/cancel/" in row
    response = admin_client.post(f"/jobs/{job.pk}/cancel/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "Stopping" in body
    assert f"/jobs/{job.pk}/cancel/" not in body
    assert Job.objects.get(pk=job.pk).cancel_requested is True


@pytest.mark.django_db
def test_a_plain_form_post_returns_to_the_page_it_came_from_and_never_off_site(admin_client):
    job = Job.objects.create(kind="t", title="t", cancellable=True, status=Job.Status.RUNNING)
    back = admin_client.post(f"/jobs/{job.pk}/cancel/", {"next": "/advisor/"})
    assert back.headers["Location"] == "/advisor/"
    job2 = Job.objects.create(kind="t", title="t", cancellable=True, status=Job.Status.RUNNING)
    away = admin_client.post(f"/jobs/{job2.pk}/cancel/", {"next": "https://evil.example/"})
    assert away.headers["Location"] == "/jobs/"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_self_test_on_a_real_worker_stops_when_cancelled_through_the_api(
    celery_worker_process, admin_user
):
    client = Client()
    client.force_login(admin_user)
    started = client.post("/api/jobs/self-test/", {"steps": 20}, content_type="application/json")
    job_id = started.json()["id"]
    assert started.json()["cancellable"] is True
    deadline = time.monotonic() + 30
    while Job.objects.get(pk=job_id).progress < 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.post(f"/api/jobs/{job_id}/cancel/").status_code == 202
    while not Job.objects.get(pk=job_id).is_finished and time.monotonic() < deadline:
        time.sleep(0.1)
    job = Job.objects.get(pk=job_id)
    assert job.status == "cancelled", (job.status, job.error)
    assert 0 < job.progress < 100
