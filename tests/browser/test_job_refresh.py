"""A page reads again what a job changed when the job ends: it never contradicts its job card."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from nasui.jobs import announce
from nasui.models import Job
from storage.engine import get_engine
from storage.pools import services as pool_services
from storage.zfs.base import PoolLayout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _running(kind: str, title: str) -> Job:
    return Job.objects.create(kind=kind, title=title, status=Job.Status.RUNNING, progress=50)


def _finish(job: Job) -> None:
    """As a worker's job ends: the row, and its event on the stream the page follows."""
    job.status, job.progress, job.message = Job.Status.SUCCEEDED, 100, "Done."
    job.save()
    announce(job.pk)


def test_the_pool_list_shows_the_pool_its_finished_job_made(logged_in, sandbox):
    page = logged_in
    job = _running("pool.create", "Create pool tank")
    page.goto(page.base + "/storage/")
    page.get_by_text("No pools yet").wait_for()
    get_engine().create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    page.wait_for_timeout(1500)  # the job still runs: the page keeps what it showed
    assert page.get_by_text("No pools yet").is_visible()
    _finish(job)
    page.locator('[data-pool="tank"]').wait_for()
    assert page.get_by_text("No pools yet").count() == 0
    assert page.locator(f'tr#job-{job.pk}[data-status="succeeded"]').count() == 1


def test_the_pool_page_shows_the_health_its_finished_job_restored(logged_in, sandbox, eager_jobs):
    page = logged_in
    admin = User.objects.get(username="admin")
    pool_services.pool_create(name="m", layout="mirror", disks=["sda", "sdb"], user=admin)
    get_engine().offline_disk("m", "sdb")
    job = _running("pool.disk_online", "Bring sdb online in pool m")
    page.goto(page.base + "/storage/pools/m/")
    health = page.locator("#pool-health")
    assert "DEGRADED" in health.inner_text()
    get_engine().online_disk("m", "sdb")
    _finish(job)
    page.locator("#pool-health", has_text="ONLINE").wait_for()
    assert "OFFLINE" not in page.get_by_test_id("vdev-tree").inner_text()
