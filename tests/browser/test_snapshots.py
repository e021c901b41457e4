"""Take a snapshot, change a file, roll back through the confirmation; schedule hourly snapshots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from storage.datasets import services
from storage.engine import get_engine
from storage.pools import services as pool_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def home(logged_in, sandbox, eager_jobs) -> Path:
    """Pool tank with tank/home holding notes.txt ("v1"), made in this process."""
    admin = User.objects.get(username="admin")
    pool_services.pool_create(name="tank", layout="raidz1", disks=["sda", "sdb", "sdc"], user=admin)
    services.dataset_create(parent="tank", name="home")
    root = Path(get_engine().get_dataset("tank/home").mountpoint or "")
    (root / "notes.txt").write_text("v1")
    return root


def test_roll_back_to_a_snapshot_restores_the_file(logged_in, home):
    page = logged_in
    page.goto(page.base + "/storage/pools/tank/")
    page.locator('tr[data-dataset="tank/home"]').get_by_role("link", name="Snapshots").click()
    page.get_by_text("No snapshots of tank/home").wait_for()
    page.get_by_role("link", name="Take a snapshot").last.click()
    assert page.get_by_label("Dataset or zvol").input_value() == "tank/home"
    page.get_by_label("Name").fill("before")
    page.get_by_role("button", name="Take snapshot").click()
    page.locator('tr[data-snapshot="tank/home@before"]').wait_for()

    (home / "notes.txt").write_text("v2")
    page.get_by_role("link", name="Take a snapshot").first.click()
    page.get_by_label("Name").fill("later")
    page.get_by_role("button", name="Take snapshot").click()
    page.locator('tr[data-snapshot="tank/home@later"]').wait_for()

    row = page.locator('tr[data-snapshot="tank/home@before"]')
    row.get_by_role("link", name="Roll back").click()
    assert "tank/home@later" in page.get_by_test_id("listed").inner_text()
    assert "lost" in page.locator("main").inner_text()
    page.get_by_role("button", name="Roll back").click()
    page.locator('[data-field-error="destroy_newer"]').wait_for()
    assert (home / "notes.txt").read_text() == "v2"

    page.get_by_label("Destroy newer snapshots").check()
    page.get_by_role("button", name="Roll back").click()
    page.get_by_text("rolled back to before").wait_for()
    assert page.locator('tr[data-snapshot="tank/home@later"]').count() == 0
    assert (home / "notes.txt").read_text() == "v1"


def test_an_hourly_task_shows_with_its_next_run(logged_in, home):
    page = logged_in
    page.goto(page.base + "/storage/snapshot-tasks/")
    page.get_by_role("link", name="Add task").first.click()
    page.get_by_label("Dataset or zvol").select_option("tank/home")
    hours = page.get_by_label("Hours")
    # A preset sets the fields: they show for Custom only (hidden by the page's script, which a
    # busy machine may run a little after the page has loaded: waited for, up to 30 s).
    hours.wait_for(state="hidden")
    page.get_by_label("Schedule").select_option("custom")
    hours.fill("3")
    page.get_by_label("Schedule").select_option("hourly")  # the preset fills and hides them
    hours.wait_for(state="hidden")
    assert hours.input_value() == "*"
    page.get_by_role("button", name="Add task").click()

    row = page.locator("#task-table tbody tr").first
    row.wait_for()
    assert "Every hour, on the hour" in row.get_by_test_id("schedule").inner_text()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:00", row.get_by_test_id("next-run").inner_text())
