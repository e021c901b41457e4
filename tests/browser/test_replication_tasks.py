"""Add a local replication task through its form, find it in the list, open it (no runs yet),
and answer a refusal through its confirmation."""

from __future__ import annotations

import pytest

from replication.models import ReplicationTask

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_add_a_local_task_open_it_and_answer_its_refusal(logged_in):
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="Replication").click()
    page.get_by_text("No replication tasks").wait_for()
    page.get_by_role("link", name="Copy to a pool on this box").click()

    page.get_by_label("Name", exact=True).fill("home")
    assert page.get_by_label("Where to").input_value() == "local"
    assert not page.get_by_label("SSH connection").is_visible()  # a local copy needs none
    page.get_by_label("Source", exact=True).fill("tank/home")
    page.get_by_label("Target", exact=True).fill("backup/home")
    schema = page.get_by_label("Naming schema")
    assert schema.is_visible()  # no periodic task chosen: the schema is typed
    schema.fill("auto-%Y-%m-%d_%H-%M")
    hours = page.get_by_label("Hours", exact=True)
    assert not hours.is_visible()
    trigger = page.get_by_label("Trigger", exact=True)
    trigger.select_option("schedule")
    hours.fill("3")
    page.get_by_label("Minutes", exact=True).fill("15")
    trigger.select_option("manual")  # back to by hand: hidden, and not sent
    assert not hours.is_visible()
    page.get_by_role("button", name="Add task").click()

    page.get_by_role("heading", name="home").wait_for()
    assert "Only when run by hand" in page.get_by_test_id("trigger").inner_text()
    assert page.get_by_test_id("no-runs").is_visible()
    task = ReplicationTask.objects.get()
    assert (task.hours, task.trigger) == ("*", "manual")

    page.get_by_role("link", name="Replication tasks").first.click()
    row = page.locator('tr[data-task="home"]')
    assert "tank/home → backup/home" in row.inner_text()
    assert "never run" in row.get_by_test_id("last-run").inner_text()
    row.get_by_role("link", name="Open").click()
    page.get_by_text("No runs yet").wait_for()

    task.refusal = "The target has changed since auto-1: data was written to it."
    task.refusal_choice = "rollback"
    task.save()
    page.reload()
    box = page.get_by_test_id("refusal-box")
    assert "data was written to it" in box.inner_text()
    box.get_by_role("link", name="Roll the target back").click()
    assert "rolls backup/home back" in page.get_by_test_id("consequence").inner_text()
    button = page.get_by_role("button", name="Roll the target back to the common snapshot")
    page.get_by_label("Type backup/home to confirm").fill("backup")
    button.click()
    page.locator('[data-field-error="confirm"]').wait_for()
    task.refresh_from_db()
    assert task.consent == ""
    page.get_by_label("Type backup/home to confirm").fill("backup/home")
    button.click()
    page.get_by_test_id("consent").wait_for()
    assert "next run will roll the target back" in page.get_by_test_id("consent").inner_text()
    task.refresh_from_db()
    assert task.consent == "rollback"


def test_test_a_restore_then_restore_beside_the_original(logged_in, tank, admin_user):
    from replication.replications import services
    from replication.tests.local import SCHEMA, run, snapshot
    from storage.engine import get_engine
    from storage.pools import services as pools

    pools.pool_create(name="backup", layout="stripe", disks=["sdd"], user=admin_user)
    get_engine().create_dataset("tank/home")
    task = services.replication_task_create(
        name="home", direction="local", source="tank/home", target="backup/home",
        naming_schema=SCHEMA, trigger="manual",
    )  # fmt: skip
    snapshot(1)
    assert run(task).status == "succeeded"

    page = logged_in
    page.goto(f"{page.base}/replication/tasks/{task.pk}/")
    page.get_by_test_id("test-restore").click()
    page.get_by_test_id("last-test").wait_for()
    assert "read back identical" in page.get_by_test_id("last-test").inner_text()
    assert "Test restore" in page.locator("#run-table").inner_text()

    page.get_by_test_id("restore").click()
    into = page.get_by_label("Restore as")
    assert into.input_value() == "tank/home-restored"
    into.fill("tank")
    page.get_by_test_id("restore-submit").click()
    page.locator('[data-field-error="into"]').wait_for()
    page.get_by_label("Restore as").fill("tank/home-back")
    page.get_by_test_id("restore-submit").click()
    page.get_by_role("heading", name="home").wait_for()
    assert "tank/home-back" in {d.name for d in get_engine().list_all_datasets()}
    assert "Restore" in page.locator("#run-table").inner_text()
