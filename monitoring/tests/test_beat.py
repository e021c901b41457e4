"""The real thing: Redis, a Celery worker and beat store samples that the API then shows."""

from __future__ import annotations

import time

import pytest

from monitoring.models import Sample

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_beat_and_a_worker_store_samples_within_ten_seconds(
    celery_beat_process, client, django_user_model
):
    client.force_login(
        django_user_model.objects.create_user("ops", password="a long phrase 1", is_staff=True)
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Sample.objects.count() < 2:
        time.sleep(0.25)
    assert Sample.objects.count() >= 2
    body = client.get("/api/monitoring/current/").json()
    assert body["values"]["mem.total"] > 0
    assert body["values"]["cpu.busy"] >= 0  # a rate: the second sample had the first's counters
    assert "arc" in body["unavailable"]  # this host has no ZFS module
