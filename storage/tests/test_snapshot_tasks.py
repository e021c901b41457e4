"""Periodic snapshot tasks on the sandbox engine: validation, runs, missed runs, pruning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.celery import build_beat_schedule
from storage.datasets import services
from storage.engine import get_engine
from storage.models import SnapshotTask
from storage.snapshot_tasks import services as tasks
from storage.snapshots import selectors as snapshot_selectors
from storage.snapshots import services as snapshot_services

pytestmark = pytest.mark.django_db
EVERY_MINUTE = {"minutes": "*", "hours": "*", "days_of_week": "*"}


@pytest.fixture
def home(tank) -> str:
    services.dataset_create(parent="tank", name="home")
    services.dataset_create(parent="tank/home", name="kid")
    return "tank/home"


def task_for(dataset: str = "tank/home", **values) -> SnapshotTask:
    given = {"lifetime_value": 1, "lifetime_unit": "day", **EVERY_MINUTE, **values}
    return tasks.snapshot_task_create(dataset=dataset, **given)


def this_minute() -> datetime:
    """The start of the current minute: a check 20 s later stays in the same slot."""
    return timezone.now().replace(second=0, microsecond=0)


def run_at(now: datetime) -> list[str]:
    """A beat check at `now`, with the engine's clock (snapshots' creation) set to it too."""
    get_engine()._clock = now.timestamp  # type: ignore[attr-defined]
    return tasks.run_due_tasks(now)


def snaps(dataset: str = "tank/home", recursive: bool = False) -> list[str]:
    return [s.name for s in snapshot_selectors.snapshot_list(dataset, recursive=recursive)]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"dataset": "tank/nope"}, "dataset"),
        ({"naming_schema": "auto-%Y-%m-%d"}, "naming_schema"),
        ({"minutes": "61"}, "minutes"),
        ({"hours": "9-3"}, "hours"),
        ({"days_of_week": "funday"}, "days_of_week"),
        ({"lifetime_value": 0}, "lifetime_value"),
        ({"lifetime_unit": "fortnight"}, "lifetime_unit"),
    ],
)
def test_a_bad_field_is_named_and_nothing_is_saved(home: str, values, field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        task_for(**values)
    assert field in caught.value.message_dict
    assert SnapshotTask.objects.count() == 0


def test_two_tasks_of_a_dataset_need_different_schemas(home: str) -> None:
    task_for()
    with pytest.raises(ValidationError) as caught:
        task_for()
    assert "naming_schema" in caught.value.message_dict


def test_a_run_stamps_its_snapshots_and_takes_each_slot_once(home: str) -> None:
    task = task_for(recursive=True)
    now = this_minute()
    made = run_at(now)
    slot = now.astimezone(UTC)  # names carry UTC time, whatever the panel's time zone
    expected = f"tank/home@auto-{slot:%Y-%m-%d_%H-%M}"
    assert made == [expected]
    found = snapshot_selectors.snapshot_list("tank/home")
    assert [(s.name, s.task) for s in found] == [(expected, str(task.pk))]
    assert len(snaps(recursive=True)) == 2  # the child too, in the same instant
    assert run_at(now + timedelta(seconds=20)) == []
    task.refresh_from_db()
    assert (task.last_snapshot, task.last_error) == (expected, "")


def test_a_missed_slot_is_run_once_at_the_next_check(home: str) -> None:
    task = task_for(minutes="0", hours="*")
    task.created_at = timezone.now() - timedelta(days=1)
    task.save()
    later = this_minute().replace(minute=20) + timedelta(hours=5)  # off for hours
    assert len(run_at(later)) == 1
    assert run_at(later + timedelta(minutes=1)) == []


def test_pruning_takes_only_this_tasks_expired_unheld_uncloned_snapshots(home: str) -> None:
    task = task_for()
    other = task_for(naming_schema="other-%Y%m%d%H%M")
    now = this_minute()
    first = run_at(now)  # one snapshot by each task
    snapshot_services.snapshot_create(dataset="tank/home", name="mine")
    held = first[0]
    assert held.split("@")[1].startswith("auto-")
    run_at(now + timedelta(minutes=1))
    get_engine().hold(held, "keep")
    later = now + timedelta(days=2)
    run_at(later)
    remaining = snaps()
    assert held in remaining  # expired, but held
    assert "tank/home@mine" in remaining  # a user's own
    task.refresh_from_db()
    other.refresh_from_db()
    assert task.last_pruned == 1  # its second snapshot (held: kept)
    assert other.last_pruned == 2
    assert [n for n in remaining if "other-" in n] == [other.last_snapshot]


def test_a_cloned_snapshot_is_never_pruned(home: str) -> None:
    task = task_for()
    now = this_minute()
    (made,) = run_at(now)
    snapshot_services.snapshot_clone(snapshot=made, target="tank/restore")
    run_at(now + timedelta(days=2))
    assert made in snaps()
    task.refresh_from_db()
    assert task.last_pruned == 0


def test_a_snapshot_stamped_by_the_task_but_named_by_hand_is_kept(home: str) -> None:
    task = task_for()
    get_engine().create_snapshot("tank/home@by-hand", properties={"nasui:task": str(task.pk)})
    run_at(timezone.now() + timedelta(days=2))
    assert "tank/home@by-hand" in snaps()


def test_edits_and_disabling_take_effect_at_the_next_check(home: str) -> None:
    task = task_for(minutes="0", hours="0", days_of_week="*")
    now = this_minute()
    tasks.snapshot_task_update(task=task, **EVERY_MINUTE)
    assert len(run_at(now)) == 1
    tasks.snapshot_task_update(task=task, enabled=False)
    assert run_at(now + timedelta(minutes=5)) == []


def test_a_failed_run_is_recorded_and_deleting_the_task_keeps_its_snapshots(home: str) -> None:
    task = task_for()
    now = this_minute()
    assert len(run_at(now)) == 1
    get_engine().destroy_dataset("tank/home", recursive=True)
    assert run_at(now + timedelta(minutes=1)) == []
    task.refresh_from_db()
    assert "does not exist" in task.last_error
    tasks.snapshot_task_delete(task=task)
    assert SnapshotTask.objects.count() == 0


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/New_York"])
def test_names_are_in_utc_whatever_the_time_zone(home: str, settings, zone: str) -> None:
    settings.TIME_ZONE = zone
    task_for()
    now = this_minute()
    (made,) = run_at(now)
    assert made == f"tank/home@auto-{now.astimezone(UTC):%Y-%m-%d_%H-%M}"


def test_beat_checks_the_tasks_twice_a_minute() -> None:
    entry = build_beat_schedule(heartbeat_seconds=10, sandbox_rescan_seconds=None)[
        "periodic-snapshots"
    ]
    assert (entry["task"], entry["schedule"]) == ("storage.periodic_snapshots", 30.0)


def test_a_refused_edit_leaves_the_task_object_as_it_was(home: str) -> None:
    task = task_for()
    with pytest.raises(ValidationError):
        tasks.snapshot_task_update(task=task, dataset="tank/nope", minutes="5")
    assert (task.dataset, task.minutes) == ("tank/home", "*")
    tasks.snapshot_task_update(task=task, minutes="5")
    tasks.snapshot_task_update(task=task, enabled=False)
    task.refresh_from_db()
    assert (task.minutes, task.enabled) == ("5", False)


@pytest.mark.parametrize(("value", "unit"), [(10**30, "hour"), (101, "year"), (36501, "day")])
def test_a_lifetime_over_a_century_is_refused_naming_the_bound(home, value, unit):
    with pytest.raises(ValidationError) as exc:
        task_for(lifetime_value=value, lifetime_unit=unit)
    assert "at most 100 years" in exc.value.message_dict["lifetime_value"][0]
    assert not SnapshotTask.objects.exists()


def test_a_century_is_still_a_lifetime_that_runs(home):
    task = task_for(lifetime_value=100, lifetime_unit="year")
    made = run_at(this_minute() + timedelta(minutes=1))
    task.refresh_from_db()
    assert made
    assert task.last_error == ""


def test_a_huge_lifetime_through_the_api_is_a_400(home, admin_client):
    body = {
        "dataset": "tank/home",
        "lifetime_value": 2**62,
        "lifetime_unit": "year",
        **EVERY_MINUTE,
    }
    response = admin_client.post(
        "/api/storage/snapshot-tasks/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "lifetime_value" in response.json()["fields"]


def test_any_failure_of_a_run_is_recorded_on_the_task(home, monkeypatch):
    task = task_for()

    def overflow(task, now):
        raise OverflowError("date value out of range")

    monkeypatch.setattr(tasks, "prune", overflow)
    run_at(this_minute() + timedelta(minutes=1))
    task.refresh_from_db()
    assert task.last_run_at is not None
    assert task.last_error == "OverflowError: date value out of range"


def test_two_tasks_naming_the_same_minute_both_take_their_snapshot(home: str) -> None:
    above = task_for(dataset="tank", recursive=True)  # also snapshots tank/home
    below = task_for()
    now = this_minute()
    made = run_at(now)  # tasks run in dataset order: tank's first, then tank/home's
    name = f"auto-{now.astimezone(UTC):%Y-%m-%d_%H-%M}"
    assert sorted(made) == sorted([f"tank@{name}", f"tank/home@{name}-2"])
    for task in (above, below):
        task.refresh_from_db()
        assert task.last_error == ""
    # The suffixed one is still the task's own, pruned when its slot expires.
    run_at(now + timedelta(days=2))
    below.refresh_from_db()
    assert below.last_pruned == 1
    assert f"tank/home@{name}-2" not in snaps()


def test_a_locked_dataset_waits_for_its_key_and_the_next_run_after_the_unlock_snapshots(
    tank, settings, tmp_path
) -> None:
    from storage.encryption import services as encryption

    settings.DATA_DIR = tmp_path / "data"
    services.dataset_create(parent="tank", name="vault", encryption="key")
    task = task_for("tank/vault")
    encryption.lock(name="tank/vault")
    now = this_minute()
    assert run_at(now) == []
    task.refresh_from_db()
    assert task.last_error.startswith("Waits for the key: tank/vault is locked.")
    assert snapshot_selectors.snapshot_list("tank/vault") == []
    encryption.unlock(name="tank/vault")
    assert run_at(now + timedelta(minutes=1)) != []
    task.refresh_from_db()
    assert task.last_error == ""
