"""Scheduled scrubs on the sandbox engine: defaults, the 35-day rule, refusals by field."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.models import Job
from storage.engine import get_engine
from storage.models import ScrubTask
from storage.scrub import services as scrub_services

pytestmark = pytest.mark.django_db


def this_minute():
    return timezone.now().replace(second=0, microsecond=0)


def every_minute(pool: str = "tank") -> ScrubTask:
    task = scrub_services.scrub_task_get(pool)
    return scrub_services.scrub_task_update(task=task, minutes="*", hours="*")


def test_every_pool_gets_the_default_daily_check_and_35_days(tank) -> None:
    (task,) = scrub_services.scrub_tasks()
    assert (task.pool, task.threshold_days, task.minutes, task.hours, task.days_of_week) == (
        "tank", 35, "0", "0", "*",
    )  # fmt: skip
    assert task.enabled
    upcoming = scrub_services.next_check(task)
    assert upcoming is not None
    assert (upcoming.hour, upcoming.minute) == (0, 0)


def test_a_pool_never_scrubbed_is_scrubbed_at_its_first_check(tank) -> None:
    every_minute()
    assert scrub_services.run_due_scrubs(this_minute()) == ["tank"]
    job = Job.objects.get(kind="pool.scrub")
    assert job.status == "succeeded", job.error
    task = ScrubTask.objects.get(pool="tank")
    assert task.last_outcome == "Scrub started."


def test_a_recent_scrub_is_not_repeated_until_the_threshold_passes(tank) -> None:
    every_minute()
    now = this_minute()
    scrub_services.run_due_scrubs(now)
    assert scrub_services.last_scrub("tank") is not None
    assert scrub_services.run_due_scrubs(now + timedelta(days=1, minutes=5)) == []
    task = ScrubTask.objects.get(pool="tank")
    assert task.last_outcome == "Last scrub 1 day ago: not due."
    assert scrub_services.run_due_scrubs(now + timedelta(days=36)) == ["tank"]
    assert Job.objects.filter(kind="pool.scrub").count() == 2


def test_a_running_scan_is_left_alone(tank) -> None:
    every_minute()
    get_engine().scrub_start("tank")
    assert scrub_services.run_due_scrubs(this_minute()) == []
    task = ScrubTask.objects.get(pool="tank")
    assert task.last_outcome.startswith("A scrub is running")
    assert not Job.objects.filter(kind="pool.scrub").exists()


def test_each_slot_is_checked_once_and_a_disabled_task_never(tank) -> None:
    task = every_minute()
    now = this_minute()
    scrub_services.run_due_scrubs(now)
    checked = ScrubTask.objects.get(pool="tank").last_checked_at
    scrub_services.run_due_scrubs(now + timedelta(seconds=20))
    assert ScrubTask.objects.get(pool="tank").last_checked_at == checked
    scrub_services.scrub_task_update(task=task, enabled=False)
    assert scrub_services.run_due_scrubs(now + timedelta(days=40)) == []


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"threshold_days": 0}, "threshold_days"),
        ({"threshold_days": 400}, "threshold_days"),
        ({"minutes": "61"}, "minutes"),
        ({"days_of_week": "someday"}, "days_of_week"),
    ],
)
def test_bad_settings_name_their_field_and_change_nothing(tank, values, field) -> None:
    task = scrub_services.scrub_task_get("tank")
    with pytest.raises(ValidationError) as caught:
        scrub_services.scrub_task_update(task=task, **values)
    assert field in caught.value.message_dict
    task.refresh_from_db()
    assert (task.threshold_days, task.minutes, task.days_of_week) == (35, "0", "*")


def test_an_unknown_pool_is_named(tank) -> None:
    with pytest.raises(ValidationError) as caught:
        scrub_services.scrub_task_get("nope")
    assert "pool" in caught.value.message_dict


def test_a_refused_edit_leaves_the_task_object_as_it_was(tank) -> None:
    task = scrub_services.scrub_task_get("tank")
    with pytest.raises(ValidationError):
        scrub_services.scrub_task_update(task=task, threshold_days=7, hours="99")
    assert (task.threshold_days, task.hours) == (35, "0")
