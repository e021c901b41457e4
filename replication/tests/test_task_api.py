"""The replication task API under /api/replication/tasks/: the services' rules, each error on
its field; run as a job (202), consent to the last refusal, the runs newest first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask, SshConnection
from replication.replications import services
from storage.models import SnapshotTask

pytestmark = pytest.mark.django_db
JSON = "application/json"
BASE = "/api/replication/tasks/"
LOCAL = {
    "name": "home", "direction": "local", "source": "tank/home", "target": "backup/home",
    "naming_schema": "auto-%Y-%m-%d_%H-%M", "trigger": "manual",
}  # fmt: skip


@pytest.fixture
def api(admin_client):
    return admin_client


@pytest.fixture
def task() -> ReplicationTask:
    return services.replication_task_create(**LOCAL)


def far() -> SshConnection:
    return SshConnection.objects.create(
        name="far", host="192.0.2.7", private_key="k", public_key="p"
    )


def test_create_answers_the_task_with_its_state(api):
    made = api.post(BASE, LOCAL, JSON)
    assert made.status_code == 201
    body = made.json()
    assert body["name"] == "home"
    assert (body["connection"], body["snapshot_task"]) == (None, None)
    assert body["exclude"] == []
    assert (body["begin"], body["end"]) == ("00:00", "23:59")
    assert body["trigger_text"] == "Only when run by hand"
    assert body["next_runs"] == []
    for field in ("last_run_at", "newest_at"):
        assert body[field] is None
    for field in ("last_error", "refusal", "refusal_choice", "consent", "newest_snapshot"):
        assert body[field] == ""
    assert ReplicationTask.objects.get().target == "backup/home"


def test_connection_and_snapshot_task_are_given_by_id(api):
    connection = far()
    made = SnapshotTask.objects.create(dataset="tank/home")
    body = {**LOCAL, "direction": "push", "connection": connection.pk, "naming_schema": "",
            "snapshot_task": made.pk, "trigger": "after_task"}  # fmt: skip
    created = api.post(BASE, body, JSON)
    assert created.status_code == 201, created.json()
    assert (created.json()["connection"], created.json()["snapshot_task"]) == (
        connection.pk,
        made.pk,
    )
    assert "After each periodic snapshot of tank/home" in created.json()["trigger_text"]


def test_a_scheduled_task_says_its_next_runs(api):
    body = {**LOCAL, "trigger": "schedule", "minutes": "30", "hours": "2", "begin": "01:00",
            "end": "05:00"}  # fmt: skip
    created = api.post(BASE, body, JSON).json()
    assert created["trigger_text"] == "At 02:30, every day, only from 01:00 to 05:00"
    assert len(created["next_runs"]) == 3


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "bad name"}, "name"),
        ({"direction": "sideways"}, "direction"),
        ({"direction": "push"}, "connection"),
        ({"connection": 999}, "connection"),
        ({"source": "tank/a b"}, "source"),
        ({"target": "tank/home/copy"}, "target"),
        ({"exclude": ["tank/home/kid"]}, "exclude"),
        ({"naming_schema": ""}, "naming_schema"),
        ({"snapshot_task": 999}, "snapshot_task"),
        ({"trigger": "after_task"}, "trigger"),
        ({"trigger": "schedule", "minutes": "61"}, "minutes"),
        ({"trigger": "schedule", "begin": "25:00"}, "begin"),
        ({"trigger": "schedule", "begin": "05:00", "end": "04:00"}, "end"),
        ({"keep_value": 0}, "keep_value"),
        ({"keep_value": 10**30}, "keep_value"),
        ({"keep_unit": "fortnight"}, "keep_unit"),
        ({"stall_seconds": 5}, "stall_seconds"),
        ({"bandwidth_kib": -1}, "bandwidth_kib"),
        ({"max_age_hours": 0}, "max_age_hours"),
    ],
)
def test_a_bad_field_is_a_400_naming_it_and_saves_nothing(api, values, field):
    refused = api.post(BASE, {**LOCAL, **values}, JSON)
    assert refused.status_code == 400
    assert list(refused.json()["fields"]) == [field]
    assert not ReplicationTask.objects.exists()


def test_a_second_task_of_the_same_name_is_refused_on_name(api, task):
    refused = api.post(BASE, LOCAL, JSON)
    assert refused.status_code == 400
    assert "already exists" in refused.json()["fields"]["name"][0]


def test_patch_changes_only_the_fields_given(api, task):
    changed = api.patch(f"{BASE}{task.pk}/", {"keep_value": 2, "keep_unit": "week"}, JSON)
    assert changed.status_code == 200
    task.refresh_from_db()
    assert (task.keep_value, task.keep_unit, task.target) == (2, "week", "backup/home")
    refused = api.patch(f"{BASE}{task.pk}/", {"target": "tank/home/in"}, JSON)
    assert list(refused.json()["fields"]) == ["target"]
    task.refresh_from_db()
    assert task.target == "backup/home"
    assert api.put(f"{BASE}{task.pk}/", LOCAL, JSON).status_code == 405


def test_state_fields_are_read_only(api, task):
    api.patch(f"{BASE}{task.pk}/", {"consent": "replace", "refusal": "x"}, JSON)
    task.refresh_from_db()
    assert (task.consent, task.refusal) == ("", "")


def test_run_is_a_202_with_a_replication_job(api, task):
    started = api.post(f"{BASE}{task.pk}/run/")
    assert started.status_code == 202
    job = Job.objects.get(pk=started.json()["id"])
    assert job.kind == "replication.run"
    assert job.arguments == {"task_id": task.pk}
    assert started.json()["cancellable"] is True
    assert api.get(f"{BASE}{task.pk}/").json()["last_run_at"] is not None


def test_a_running_task_is_not_started_again_nor_deleted(api, task):
    ReplicationRun.objects.create(task=task)
    refused = api.post(f"{BASE}{task.pk}/run/")
    assert refused.status_code == 400
    assert list(refused.json()["fields"]) == ["task"]
    assert not Job.objects.exists()
    assert api.delete(f"{BASE}{task.pk}/").status_code == 400
    assert ReplicationTask.objects.exists()


def test_consent_answers_the_refusal_and_nothing_else(api, task):
    url = f"{BASE}{task.pk}/consent/"
    nothing = api.post(url, {"choice": "replace"}, JSON)
    assert nothing.status_code == 400
    assert list(nothing.json()["fields"]) == ["choice"]
    task.refusal, task.refusal_choice = "The target has changed since ...", "rollback"
    task.save()
    wrong = api.post(url, {"choice": "replace"}, JSON)
    assert "rollback" in wrong.json()["fields"]["choice"][0]
    assert api.post(url, {"choice": "everything"}, JSON).status_code == 400
    agreed = api.post(url, {"choice": "rollback"}, JSON)
    assert agreed.status_code == 200
    assert agreed.json()["consent"] == "rollback"
    assert agreed.json()["refusal_choice"] == "rollback"


def test_runs_are_listed_newest_first(api, task):
    now = timezone.now()
    older = ReplicationRun.objects.create(
        task=task, result="sent", sent_bytes=3 << 20, arrived=["backup/home@auto-1"]
    )
    newer = ReplicationRun.objects.create(task=task, result="refused", message="No common")
    ReplicationRun.objects.filter(pk=older.pk).update(started_at=now - timedelta(hours=1))
    listed = api.get(f"{BASE}{task.pk}/runs/")
    assert listed.status_code == 200
    body = listed.json()
    assert body["count"] == 2
    assert [r["id"] for r in body["results"]] == [newer.pk, older.pk]
    first = body["results"][1]
    assert set(first) == {"id", "job", "kind", "started_at", "finished_at", "result", "sent_bytes",
                          "resumed", "arrived", "pruned", "message"}  # fmt: skip
    assert (first["sent_bytes"], first["arrived"], first["resumed"]) == (
        3 << 20,
        ["backup/home@auto-1"],
        False,
    )


def test_delete(api, task):
    assert api.delete(f"{BASE}{task.pk}/").status_code == 204
    assert not ReplicationTask.objects.exists()
    assert api.get(f"{BASE}{task.pk}/").status_code == 404


def test_the_list_is_paginated_and_anonymous_is_refused(api, client, task):
    assert api.get(BASE).json()["count"] == 1
    for response in (client.get(BASE), client.post(f"{BASE}{task.pk}/run/")):
        assert response.status_code in (401, 403)
    assert not Job.objects.exists()


def test_the_schema_says_a_state_choice_may_be_blank():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    task = schema["components"]["schemas"]["ReplicationTask"]["properties"]
    for field in ("refusal_choice", "consent"):
        kinds = [option["$ref"].rsplit("/", 1)[-1] for option in task[field]["oneOf"]]
        assert kinds == ["ReplicationChoiceEnum", "BlankEnum"]
        assert task[field]["readOnly"] is True


def test_a_run_whose_worker_died_is_closed_and_the_task_runs_again(api, task):
    """A power cut or a restart mid-run: the reaper fails the job, the run is closed with it."""
    from replication.replications.services import INTERRUPTED, interrupted_runs_closed

    dead = Job.objects.create(kind="replication.run", title="r", status="failed",
                              arguments={"task_id": task.pk})  # fmt: skip
    stuck = ReplicationRun.objects.create(task=task, job=dead)
    live_job = Job.objects.create(kind="replication.run", title="r", status="running")
    live = ReplicationRun.objects.create(task=task, job=live_job)
    assert interrupted_runs_closed(["self_test"]) == 0
    assert interrupted_runs_closed(["replication.run"]) == 1
    stuck.refresh_from_db()
    assert (stuck.result, stuck.message) == ("failed", INTERRUPTED)
    assert ReplicationRun.objects.get(pk=live.pk).result == "running"
    live.delete()
    assert api.post(f"{BASE}{task.pk}/run/").status_code == 202
