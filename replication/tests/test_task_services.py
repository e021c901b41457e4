"""Replication tasks saved, refused field by field, started as jobs, due by their trigger."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.models import Job
from replication.models import ReplicationTask, SshConnection
from replication.replications import selectors, services
from storage.models import SnapshotTask

pytestmark = pytest.mark.django_db
LOCAL = {"direction": "local", "source": "tank/home", "target": "backup/home"}


def task_for(**values: object) -> ReplicationTask:
    given = {"name": "home", **LOCAL, "naming_schema": "auto-%Y-%m-%d_%H-%M",
             "trigger": "manual", **values}  # fmt: skip
    return services.replication_task_create(**given)


def snapshot_task(dataset: str = "tank/home") -> SnapshotTask:
    return SnapshotTask.objects.create(dataset=dataset)


def connection() -> SshConnection:
    made, _ = SshConnection.objects.get_or_create(
        name="far", host="192.0.2.7", private_key="k", public_key="p"
    )
    return made


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"name": "-x"}, "name", "letters, digits"),
        ({"direction": "sideways"}, "direction", "Use one of"),
        ({"source": "tank/a b"}, "source", ""),
        ({"target": "tank/home/copy"}, "target", "inside it"),
        ({"target": "backup"}, "target", "pool's root"),
        ({"exclude": ["tank/home/kid"]}, "exclude", "recursive"),
        ({"recursive": True, "exclude": ["tank/other"]}, "exclude", "not a child"),
        ({"naming_schema": ""}, "naming_schema", "periodic snapshot task"),
        ({"naming_schema": "auto-%Y"}, "naming_schema", ""),
        ({"trigger": "after_task"}, "trigger", "choose a schedule"),
        ({"trigger": "schedule", "minutes": "61"}, "minutes", ""),
        ({"keep_value": 0}, "keep_value", "at least 1"),
        ({"keep_value": 2, "keep_unit": "fortnight"}, "keep_unit", ""),
        ({"stall_seconds": 5}, "stall_seconds", "10 to 3600"),
        ({"max_age_hours": 0}, "max_age_hours", "at least 1 hour"),
    ],
)
def test_a_bad_field_is_named_and_nothing_is_saved(
    values: dict[str, object], field: str, words: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        task_for(**values)
    assert field in caught.value.message_dict
    assert words in " ".join(caught.value.message_dict[field])
    assert not ReplicationTask.objects.exists()


def test_a_push_needs_a_connection_and_a_local_copy_refuses_one() -> None:
    with pytest.raises(ValidationError, match="SSH connection"):
        task_for(direction="push", target="tank2/home")
    with pytest.raises(ValidationError, match="needs no SSH connection"):
        task_for(connection=connection())
    task = task_for(direction="push", connection=connection(), target="tank/home-copy")
    assert task.pk
    assert task.connection is not None
    assert task.connection.name == "far"


def test_the_snapshot_task_must_be_of_the_source_and_names_the_schema() -> None:
    with pytest.raises(ValidationError, match="snapshots tank/other"):
        task_for(naming_schema="", snapshot_task=snapshot_task("tank/other"))
    made = snapshot_task()
    task = task_for(naming_schema="", snapshot_task=made, trigger="after_task")
    assert selectors.schema_of(task) == made.naming_schema


def test_an_edit_that_fails_leaves_the_task_as_it_was() -> None:
    task = task_for()
    with pytest.raises(ValidationError):
        services.replication_task_update(task=task, target="tank/home/inside")
    task.refresh_from_db()
    assert task.target == "backup/home"


def test_consent_must_answer_the_last_refusal() -> None:
    task = task_for()
    with pytest.raises(ValidationError, match="nothing to agree to"):
        services.replication_task_consent(task=task, choice="replace")
    task.refusal, task.refusal_choice = "The target has changed since ...", "rollback"
    task.save()
    with pytest.raises(ValidationError, match="rollback"):
        services.replication_task_consent(task=task, choice="replace")
    services.replication_task_consent(task=task, choice="rollback")
    task.refresh_from_db()
    assert task.consent == "rollback"


def test_a_start_is_a_cancellable_job_and_marks_the_task() -> None:
    task = task_for()
    job = services.replication_task_start(task=task)
    assert job.kind == "replication.run"
    assert job.cancellable
    assert job.arguments == {"task_id": task.pk}
    task.refresh_from_db()
    assert task.last_run_at is not None


def test_a_task_after_its_snapshot_task_is_due_once_per_new_snapshot() -> None:
    made = snapshot_task()
    task = task_for(naming_schema="", snapshot_task=made, trigger="after_task")
    now = timezone.now()
    assert list(selectors.due([task], now)) == []  # its snapshot task has not run
    made.last_run_at = now
    made.save()
    task.refresh_from_db()
    jobs = services.due_tasks(now)
    assert [job.arguments["task_id"] for job in jobs] == [task.pk]
    assert Job.objects.filter(kind="replication.run").count() == 1
    task.refresh_from_db()
    assert list(selectors.due([task], now)) == []  # started after that snapshot


def test_a_scheduled_task_takes_each_slot_once() -> None:
    task = task_for(trigger="schedule", minutes="*", hours="*")
    task.created_at = timezone.now() - timedelta(hours=1)
    task.save()
    now = timezone.now()
    assert [t.pk for t in selectors.due(ReplicationTask.objects.all(), now)] == [task.pk]
    assert list(selectors.due(ReplicationTask.objects.all(), now)) == []


def test_a_task_is_overdue_when_its_newest_copy_is_older_than_allowed() -> None:
    task = task_for(max_age_hours=24)
    now = timezone.now()
    assert selectors.overdue(now) == []
    task.newest_at = now - timedelta(hours=25)
    task.save()
    assert [t.pk for t in selectors.overdue(now)] == [task.pk]


def test_a_task_waiting_for_a_worker_is_not_started_twice() -> None:
    task = task_for()
    services.replication_task_start(task=task)
    with pytest.raises(ValidationError, match="already running or waiting"):
        services.replication_task_start(task=task)
    assert Job.objects.filter(kind="replication.run").count() == 1
