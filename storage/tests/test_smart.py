"""SMART on the Disks page, in the API, scheduled self-tests and the temperature refresh."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.engine import get_engine
from storage.models import SmartTestTask
from storage.smart import selectors as smart_selectors
from storage.smart import services as smart_services
from storage.zfs.sandbox.smart import SandboxSmart

pytestmark = pytest.mark.django_db
JSON = "application/json"


def sandbox_smart() -> SandboxSmart:
    source = smart_selectors.smart_source()
    assert isinstance(source, SandboxSmart)
    return source


def test_the_disks_page_shows_health_temperature_hours_and_sectors(admin_client, sandbox) -> None:
    sandbox_smart().set_override("sdb", temperature=47, power_on_hours=812, reallocated=3)
    page = admin_client.get("/storage/disks/").content.decode()
    assert page.count('data-testid="smart-health"') == 6
    assert "47 °C" in page
    assert "812 h" in page
    assert 'class="text-danger">3</span>' in page
    assert "none yet" in page


def test_the_disks_page_draws_the_temperature_graph(admin_client, sandbox) -> None:
    page = admin_client.get("/storage/disks/").content.decode()
    assert 'data-testid="chart-disk-temperature"' in page
    assert "disk.sda.temperature,disk.sdb.temperature" in page
    assert "js/monitoring.js" in page


def test_a_disk_without_smart_says_so_instead_of_failing(admin_client, sandbox) -> None:
    sandbox_smart().set_override("sdc", supported=False)
    page = admin_client.get("/storage/disks/").content.decode()
    assert "SMART not supported by this disk" in page


def test_a_failing_disk_is_marked(admin_client, sandbox) -> None:
    sandbox_smart().set_override("sda", health="failed")
    assert "failing</span>" in admin_client.get("/storage/disks/").content.decode()


def test_run_short_test_shows_in_the_last_self_test(admin_client, sandbox) -> None:
    admin_client.get("/storage/disks/")  # the reports are cached now
    response = admin_client.post("/storage/disks/sdb/smart-test/", {"kind": "short"}, follow=True)
    page = response.content.decode()
    assert "Short self-test of sdb started." in page
    assert "Short test: <span" in page
    assert 'title="smartctl: Completed without error">passed</span>' in page


def test_a_test_on_an_unknown_disk_or_of_an_unknown_kind_is_refused(admin_client, sandbox) -> None:
    page = admin_client.post("/storage/disks/sdz/smart-test/", {"kind": "short"}, follow=True)
    assert "There is no disk named “sdz”." in page.content.decode()
    page = admin_client.post("/storage/disks/sda/smart-test/", {"kind": "quick"}, follow=True)
    assert "Choose a short or a long test." in page.content.decode()


def test_the_api_lists_every_disks_smart(admin_client, sandbox) -> None:
    body = admin_client.get("/api/storage/smart/").json()
    assert [d["disk"] for d in body] == ["sda", "sdb", "sdc", "sdd", "sde", "sdf"]
    assert body[0]["health"] == "passed"
    assert body[0]["last_test"] is None


def test_the_api_starts_a_test_and_the_report_shows_it(admin_client, sandbox) -> None:
    url = "/api/storage/disks/sda/smart/"
    assert admin_client.post(f"{url}tests/", {"kind": "long"}, content_type=JSON).status_code == 202
    body = admin_client.get(url).json()
    assert (body["last_test"]["kind"], body["last_test"]["passed"]) == ("long", True)
    assert body["temperature"] is not None


def test_the_api_refuses_unknown_disks_and_kinds(admin_client, sandbox) -> None:
    assert admin_client.get("/api/storage/disks/sdz/smart/").status_code == 404
    url = "/api/storage/disks/sda/smart/tests/"
    assert admin_client.post(url, {"kind": "x"}, content_type=JSON).status_code == 400


def test_the_api_schedules_edits_and_deletes_self_tests(admin_client, sandbox) -> None:
    body = {"kind": "long", "disks": ["sdb", "sda"], "minutes": "0", "hours": "3",
            "days_of_week": "sat"}  # fmt: skip
    made = admin_client.post("/api/storage/smart-tests/", body, content_type=JSON)
    assert made.status_code == 201
    task = made.json()
    assert (task["disks"], task["next_run"] is not None) == (["sda", "sdb"], True)
    url = f"/api/storage/smart-tests/{task['id']}/"
    assert admin_client.patch(url, {"hours": "25"}, content_type=JSON).status_code == 400
    assert admin_client.patch(url, {"disks": []}, content_type=JSON).json()["disks"] == []
    assert admin_client.delete(url).status_code == 204
    assert not SmartTestTask.objects.exists()


def test_a_schedule_naming_an_unknown_disk_is_refused(admin_client, sandbox) -> None:
    body = {"kind": "short", "disks": ["sdz"]}
    response = admin_client.post("/api/storage/smart-tests/", body, content_type=JSON)
    assert response.status_code == 400
    assert "No such disk: sdz." in response.content.decode()


def test_the_schedule_pages_add_and_delete_a_task(admin_client, sandbox) -> None:
    form = {"kind": "short", "disks": ["sdc"], "minutes": "0", "hours": "2",
            "days_of_week": "sun", "enabled": "on"}  # fmt: skip
    page = admin_client.post("/storage/smart-tests/add/", form, follow=True).content.decode()
    assert "Scheduled short self-test saved." in page
    task = SmartTestTask.objects.get()
    assert task.disks == ["sdc"]
    assert f"/storage/smart-tests/{task.pk}/edit/" in page
    admin_client.post(f"/storage/smart-tests/{task.pk}/delete/", {}, follow=True)
    assert not SmartTestTask.objects.exists()


def _task_due_now(**fields: object) -> tuple[SmartTestTask, datetime]:
    now = datetime(2026, 11, 22, 3, 0, 30, tzinfo=UTC)  # a Sunday
    task = smart_services.smart_task_create(minutes="0", hours="*", days_of_week="*", **fields)
    SmartTestTask.objects.filter(pk=task.pk).update(created_at=now - timedelta(days=1))
    return task, now


def test_a_due_task_tests_its_disks_once_per_slot(sandbox, settings) -> None:
    settings.TIME_ZONE = "UTC"
    task, now = _task_due_now(kind="short", disks=["sda", "sdb"])
    assert smart_services.run_due_smart_tests(now) == ["sda", "sdb"]
    assert smart_services.run_due_smart_tests(now + timedelta(seconds=20)) == []
    task.refresh_from_db()
    assert task.last_outcome == "Short test started on sda, sdb."
    assert sandbox_smart().report("sda").last_test is not None


def test_every_disk_means_every_disk_that_answers_smart(sandbox, settings) -> None:
    settings.TIME_ZONE = "UTC"
    sandbox_smart().set_override("sdf", supported=False)
    _, now = _task_due_now(kind="long")
    assert smart_services.run_due_smart_tests(now) == ["sda", "sdb", "sdc", "sdd", "sde"]


def test_a_refusing_disk_is_recorded_and_the_others_still_run(sandbox, settings) -> None:
    settings.TIME_ZONE = "UTC"
    sandbox_smart().set_override("sda", supported=False)
    task, now = _task_due_now(kind="short", disks=["sda", "sdb"])
    assert smart_services.run_due_smart_tests(now) == ["sdb"]
    task.refresh_from_db()
    assert task.last_outcome == "Short test started on sdb. Refused: sda."


def test_the_refresh_keeps_temperatures_for_the_sampler(sandbox) -> None:
    sandbox_smart().set_override("sdd", temperature=52)
    assert smart_selectors.cached_temperatures() == {}
    temperatures = smart_selectors.smart_refresh()
    assert temperatures["sdd"] == 52
    assert smart_selectors.cached_temperatures() == temperatures
    assert len(temperatures) == len(get_engine().list_disks())


def test_reports_are_cached_until_a_test_is_started(sandbox) -> None:
    first = smart_selectors.disk_smart("sda")
    sandbox_smart().set_override("sda", temperature=60)
    assert smart_selectors.disk_smart("sda") == first
    smart_services.smart_test_start(disk="sda", kind="short")
    assert smart_selectors.disk_smart("sda").temperature == 60


def test_beat_refreshes_smart_every_few_minutes_and_checks_tests_often() -> None:
    from nasui.celery import build_beat_schedule

    schedule = build_beat_schedule(heartbeat_seconds=10, sandbox_rescan_seconds=None)
    refresh, check = schedule["smart-refresh"], schedule["smart-test-check"]
    assert (refresh["task"], refresh["schedule"]) == ("storage.smart_refresh", 300.0)
    assert (check["task"], check["schedule"]) == ("storage.smart_test_check", 30.0)


def test_the_celery_tasks_are_registered() -> None:
    from nasui.celery import app

    app.loader.import_default_modules()
    assert {"storage.smart_refresh", "storage.smart_test_check"} <= set(app.tasks)


def test_a_refused_edit_leaves_the_task_object_as_it_was(sandbox) -> None:
    from django.core.exceptions import ValidationError

    task = smart_services.smart_task_create(kind="short", minutes="0", hours="3", days_of_week="*")
    with pytest.raises(ValidationError):
        smart_services.smart_task_update(task=task, hours="4", disks=["nope"])
    assert (task.hours, task.disks) == ("3", [])
    smart_services.smart_task_update(task=task, disks=["sdb", "sda", "sdb"])
    task.refresh_from_db()
    assert task.disks == ["sda", "sdb"]  # sorted, once each
