"""The scrub schedule on the pool page, its edit page and its API."""

from __future__ import annotations

import pytest

from storage.models import ScrubTask

pytestmark = pytest.mark.django_db
JSON = "application/json"
FORM = {
    "threshold_days": "35",
    "minutes": "0",
    "hours": "3",
    "days_of_week": "sun",
    "enabled": "on",
}


def test_the_pool_page_shows_the_schedule_and_links_to_it(admin_client, tank) -> None:
    page = admin_client.get("/storage/pools/tank/").content.decode()
    assert 'data-testid="scrub-schedule"' in page
    assert "older than 35 days" in page
    assert "/storage/pools/tank/scrub-schedule/" in page


def test_the_schedule_page_saves_and_says_so(admin_client, tank) -> None:
    response = admin_client.post("/storage/pools/tank/scrub-schedule/", FORM, follow=True)
    assert "Scrub schedule of tank saved." in response.content.decode()
    task = ScrubTask.objects.get(pool="tank")
    assert (task.hours, task.days_of_week) == ("3", "sun")


def test_a_bad_field_comes_back_on_the_form_and_nothing_changes(admin_client, tank) -> None:
    response = admin_client.post("/storage/pools/tank/scrub-schedule/", {**FORM, "hours": "25"})
    assert response.status_code == 400
    assert "“25” is not allowed here" in response.content.decode()
    assert ScrubTask.objects.get(pool="tank").hours == "0"


def test_an_unknown_pool_has_no_schedule_page(admin_client, tank) -> None:
    assert admin_client.get("/storage/pools/nope/scrub-schedule/").status_code == 404
    assert admin_client.get("/api/storage/pools/nope/scrub-schedule/").status_code == 404


def test_the_api_reads_and_changes_the_schedule(admin_client, tank) -> None:
    body = admin_client.get("/api/storage/pools/tank/scrub-schedule/").json()
    assert (body["threshold_days"], body["enabled"]) == (35, True)
    assert body["next_check"]
    changed = admin_client.patch(
        "/api/storage/pools/tank/scrub-schedule/", {"threshold_days": 7}, content_type=JSON
    )
    assert changed.status_code == 200
    assert changed.json()["threshold_days"] == 7
    bad = admin_client.put(
        "/api/storage/pools/tank/scrub-schedule/", {"days_of_week": "funday"}, content_type=JSON
    )
    assert bad.status_code == 400
    assert "days_of_week" in str(bad.json())
    assert ScrubTask.objects.get(pool="tank").days_of_week == "*"
