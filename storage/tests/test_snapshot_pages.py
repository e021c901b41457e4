"""Snapshot and periodic snapshot task pages: list, take, destroy, roll back, clone, compare."""

from __future__ import annotations

import pytest
from django.utils import timezone

from storage.datasets import services
from storage.engine import get_engine
from storage.models import SnapshotTask
from storage.snapshot_tasks import services as snapshot_task_services
from storage.snapshots import services as snapshot_services
from storage.tests.snapshot_helpers import names, snap

pytestmark = pytest.mark.django_db


def test_the_list_shows_an_empty_state_with_a_button(admin_client, home):
    page = admin_client.get("/storage/snapshots/").content.decode()
    assert "No snapshots" in page
    assert "Take a snapshot" in page


def test_the_list_filters_by_dataset(admin_client, home):
    services.dataset_create(parent="tank", name="other")
    snap("a")
    snap("b", dataset="tank/other")
    page = admin_client.get("/storage/snapshots/?dataset=tank/other").content.decode()
    assert 'data-snapshot="tank/other@b"' in page
    assert 'data-snapshot="tank/home@a"' not in page
    everything = admin_client.get("/storage/snapshots/").content.decode()
    assert 'data-snapshot="tank/home@a"' in everything


def test_the_list_shows_sizes_and_the_task_that_made_a_snapshot(admin_client, home):
    task = snapshot_task_services.snapshot_task_create(dataset="tank/home")
    get_engine().create_snapshot("tank/home@auto", properties={"nasui:task": str(task.pk)})
    page = admin_client.get("/storage/snapshots/").content.decode()
    assert f"/storage/snapshot-tasks/{task.pk}/edit/" in page
    assert " B<" in page or "KiB" in page


def test_taking_a_snapshot_from_the_form(admin_client, home):
    response = admin_client.post("/storage/snapshots/create/", {"dataset": "tank/home"})
    assert response.status_code == 302
    assert response["Location"] == "/storage/snapshots/?dataset=tank%2Fhome"
    assert names()[0].startswith("manual-")


def test_a_bad_snapshot_name_is_shown_on_its_field(admin_client, home):
    response = admin_client.post(
        "/storage/snapshots/create/", {"dataset": "tank/home", "name": "bad name"}
    )
    assert response.status_code == 400
    assert 'data-field-error="name"' in response.content.decode()
    assert names() == []


def test_destroying_ticked_snapshots_asks_first_and_lists_them(admin_client, home):
    snap("a", "b", "c")
    page = admin_client.get(
        "/storage/snapshots/destroy/?snapshot=tank/home@a&snapshot=tank/home@c"
    ).content.decode()
    assert "<code>tank/home@a</code>" in page
    assert "<code>tank/home@c</code>" in page
    assert names() == ["a", "b", "c"]
    response = admin_client.post(
        "/storage/snapshots/destroy/", {"dataset": "tank/home", "names": ["a", "c"]}
    )
    assert response.status_code == 302
    assert names() == ["b"]


def test_snapshots_of_several_datasets_cannot_be_destroyed_together(admin_client, home):
    services.dataset_create(parent="tank", name="other")
    snap("a")
    snap("b", dataset="tank/other")
    response = admin_client.get(
        "/storage/snapshots/destroy/?snapshot=tank/home@a&snapshot=tank/other@b", follow=True
    )
    assert "of one dataset" in response.content.decode()


def test_a_cloned_snapshot_is_refused_on_the_destroy_form(admin_client, home):
    snap("a")
    snapshot_services.snapshot_clone(snapshot="tank/home@a", target="tank/copy")
    response = admin_client.post(
        "/storage/snapshots/destroy/", {"dataset": "tank/home", "names": ["a"]}
    )
    assert response.status_code == 400
    assert "has clones (tank/copy)" in response.content.decode()
    assert names() == ["a"]


def test_destroying_a_range(admin_client, home):
    snap("a", "b", "c", "d")
    page = admin_client.get("/storage/snapshots/destroy-range/?dataset=tank/home")
    assert page.status_code == 200
    response = admin_client.post(
        "/storage/snapshots/destroy-range/", {"dataset": "tank/home", "first": "b", "last": "c"}
    )
    assert response.status_code == 302
    assert names() == ["a", "d"]


def test_a_backwards_range_is_refused_on_its_field(admin_client, home):
    snap("a", "b")
    response = admin_client.post(
        "/storage/snapshots/destroy-range/", {"dataset": "tank/home", "first": "b", "last": "a"}
    )
    assert response.status_code == 400
    assert 'data-field-error="last"' in response.content.decode()
    assert names() == ["a", "b"]


def test_rollback_names_newer_snapshots_and_needs_the_box(admin_client, home):
    snap("one", "two")
    (home / "notes.txt").write_text("v2")
    url = "/storage/snapshots/tank/home@one/rollback/"
    page = admin_client.get(url).content.decode()
    assert "<code>tank/home@two</code>" in page
    assert "Destroy newer snapshots" in page
    assert "lost" in page
    refused = admin_client.post(url, {})
    assert refused.status_code == 400
    assert 'data-field-error="destroy_newer"' in refused.content.decode()
    assert (home / "notes.txt").read_text() == "v2"
    response = admin_client.post(url, {"destroy_newer": "on"})
    assert response.status_code == 302
    assert (home / "notes.txt").read_text() == "v1"
    assert names() == ["one"]


def test_rollback_to_the_newest_needs_no_box(admin_client, home):
    snap("one")
    (home / "notes.txt").write_text("v2")
    url = "/storage/snapshots/tank/home@one/rollback/"
    assert "Destroy newer snapshots" not in admin_client.get(url).content.decode()
    assert admin_client.post(url, {}).status_code == 302
    assert (home / "notes.txt").read_text() == "v1"


def test_a_missing_snapshot_is_a_404(admin_client, home):
    assert admin_client.get("/storage/snapshots/tank/home@nope/rollback/").status_code == 404


def test_cloning_offers_a_default_name_and_refuses_another_pool(admin_client, home):
    snap("a")
    url = "/storage/snapshots/tank/home@a/clone/"
    assert 'value="tank/home-clone"' in admin_client.get(url).content.decode()
    refused = admin_client.post(url, {"target": "other/x"})
    assert refused.status_code == 400
    assert 'data-field-error="target"' in refused.content.decode()
    assert admin_client.post(url, {"target": "tank/home-clone"}).status_code == 302
    assert get_engine().get_dataset("tank/home-clone").name == "tank/home-clone"


def test_the_diff_page_lists_changes_or_says_nothing_changed(admin_client, home):
    snap("a")
    url = "/storage/snapshots/tank/home@a/diff/"
    assert "Nothing changed" in admin_client.get(url).content.decode()
    (home / "new.txt").write_text("x")
    page = admin_client.get(url).content.decode()
    assert "added" in page
    assert "new.txt" in page


def test_zvols_have_no_diff(admin_client, home):
    services.zvol_create(parent="tank", name="vol", size="16M", sparse=True)
    snap("a", dataset="tank/vol")
    listing = admin_client.get("/storage/snapshots/?dataset=tank/vol").content.decode()
    assert "/diff/" not in listing
    page = admin_client.get("/storage/snapshots/tank/vol@a/diff/").content.decode()
    assert "disk image" in page


def test_the_storage_and_pool_pages_link_to_snapshots(admin_client, home):
    assert "/storage/snapshots/" in admin_client.get("/storage/").content.decode()
    pool = admin_client.get("/storage/pools/tank/").content.decode()
    assert "/storage/snapshots/?dataset=tank/home" in pool


# -- periodic snapshot tasks --------------------------------------------------------------------
TASK = {
    "dataset": "tank/home",
    "preset": "custom",
    "minutes": "*/15",
    "hours": "*",
    "days_of_week": "mon-fri",
    "begin": "08:00",
    "end": "18:00",
    "lifetime_value": "3",
    "lifetime_unit": "day",
    "naming_schema": "auto-%Y-%m-%d_%H-%M",
    "enabled": "on",
}


def test_a_preset_overrides_the_typed_schedule(admin_client, home):
    form = {**TASK, "preset": "hourly", "minutes": "junk"}
    response = admin_client.post("/storage/snapshot-tasks/add/", form)
    assert response.status_code == 302
    task = SnapshotTask.objects.get()
    assert (task.minutes, task.hours, task.days_of_week) == ("0", "*", "*")


def test_a_custom_schedule_is_kept_and_shown(admin_client, home):
    assert admin_client.post("/storage/snapshot-tasks/add/", TASK).status_code == 302
    task = SnapshotTask.objects.get()
    assert (task.minutes, task.days_of_week, task.lifetime_text) == ("*/15", "mon-fri", "3 days")
    page = admin_client.get("/storage/snapshot-tasks/").content.decode()
    assert "Every 15 minutes, Monday to Friday, only from 08:00 to 18:00" in page  # in words
    assert "3 days" in page
    assert 'data-testid="next-run"><time' in page


def test_a_schema_without_the_minute_is_refused_on_its_field(admin_client, home):
    response = admin_client.post(
        "/storage/snapshot-tasks/add/", {**TASK, "naming_schema": "auto-%Y-%m-%d"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="naming_schema"' in page
    assert "%M" in page
    assert not SnapshotTask.objects.exists()


def test_a_bad_custom_field_is_refused_on_its_field(admin_client, home):
    response = admin_client.post("/storage/snapshot-tasks/add/", {**TASK, "hours": "25"})
    assert response.status_code == 400
    assert 'data-field-error="hours"' in response.content.decode()


def test_the_task_list_shows_the_last_run_and_its_error(admin_client, home):
    task = snapshot_task_services.snapshot_task_create(dataset="tank/home")
    SnapshotTask.objects.filter(pk=task.pk).update(
        last_run_at=timezone.now(), last_error="out of space"
    )
    page = admin_client.get("/storage/snapshot-tasks/").content.decode()
    assert "out of space" in page
    assert "Every day at 00:00" in page


def test_editing_a_task_starts_from_its_preset(admin_client, home):
    task = snapshot_task_services.snapshot_task_create(
        dataset="tank/home", minutes="0", hours="*", days_of_week="*"
    )
    url = f"/storage/snapshot-tasks/{task.pk}/edit/"
    assert '<option value="hourly" selected>' in admin_client.get(url).content.decode()
    response = admin_client.post(url, {**TASK, "preset": "weekly", "enabled": ""})
    assert response.status_code == 302
    task.refresh_from_db()
    assert (task.days_of_week, task.enabled) == ("sun", False)
    assert "disabled" in admin_client.get("/storage/snapshot-tasks/").content.decode()


def test_deleting_a_task_says_its_snapshots_stay_and_keeps_them(admin_client, home):
    task = snapshot_task_services.snapshot_task_create(dataset="tank/home")
    get_engine().create_snapshot("tank/home@auto", properties={"nasui:task": str(task.pk)})
    url = f"/storage/snapshot-tasks/{task.pk}/delete/"
    assert "snapshots it already made stay" in admin_client.get(url).content.decode()
    assert admin_client.post(url).status_code == 302
    assert not SnapshotTask.objects.exists()
    assert names() == ["auto"]
    assert "(deleted)" in admin_client.get("/storage/snapshots/").content.decode()


def test_an_unknown_dataset_filter_is_said_and_everything_shown(admin_client, tank) -> None:
    page = admin_client.get("/storage/snapshots/?dataset=tank/nope").content.decode()
    assert "There is no dataset or zvol named “tank/nope”: showing all." in page


def test_a_window_that_ends_when_it_begins_is_refused_on_end(admin_client, home):
    form = {**TASK, "begin": "09:00", "end": "09:00"}
    response = admin_client.post("/storage/snapshot-tasks/add/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="end"' in page
    assert "Begin and end are the same time" in page
    assert not SnapshotTask.objects.exists()
