"""Replication task pages: the list and its empty state, add and edit (each error on its field),
the task's page (settings in words, runs, the refusal), run now, consent typed, delete confirmed."""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages

from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask, SshConnection
from replication.replications import services
from storage.models import SnapshotTask

pytestmark = pytest.mark.django_db
LIST = "/replication/tasks/"
LOCAL = {
    "name": "home", "direction": "local", "source": "tank/home", "target": "backup/home",
    "naming_schema": "auto-%Y-%m-%d_%H-%M", "trigger": "manual",
}  # fmt: skip
# What the form posts for a local copy sent by hand (a browser sends every field).
FORM = {
    **LOCAL, "connection": "", "snapshot_task": "", "exclude": "", "minutes": "0", "hours": "*",
    "days_of_week": "*", "begin": "00:00", "end": "23:59", "keep_value": "", "keep_unit": "month",
    "bandwidth_kib": "0", "stall_seconds": "120", "max_age_hours": "", "enabled": "on",
}  # fmt: skip


@pytest.fixture
def task() -> ReplicationTask:
    return services.replication_task_create(**LOCAL)


def page_of(client, task: ReplicationTask, tail: str = "") -> str:
    return client.get(f"{LIST}{task.pk}/{tail}").content.decode()


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def far() -> SshConnection:
    return SshConnection.objects.create(
        name="far", host="192.0.2.7", private_key="k", public_key="p"
    )


def test_replication_leads_to_the_tasks_with_a_tab_to_the_connections(admin_client):
    assert admin_client.get("/replication/")["Location"] == LIST
    page = admin_client.get(LIST).content.decode()
    assert 'href="/replication/connections/"' in page
    assert (
        'href="/replication/tasks/"'
        in admin_client.get("/replication/connections/").content.decode()
    )


def test_the_empty_list_explains_and_asks_for_a_connection_first(admin_client):
    page = admin_client.get(LIST).content.decode()
    assert "No replication tasks" in page
    assert "keeps a copy of a dataset or zvol" in page
    assert 'data-testid="connection-first"' in page
    assert "/replication/connections/add/" in page
    far()
    page = admin_client.get(LIST).content.decode()
    assert 'data-testid="connection-first"' not in page
    assert "/replication/tasks/add/" in page


def test_the_list_shows_what_goes_where_when_and_the_last_run(admin_client, task):
    connection = far()
    offsite = {"name": "offsite", "direction": "push", "connection": connection}
    services.replication_task_create(**{**LOCAL, **offsite, "trigger": "schedule", "hours": "2",
                                        "minutes": "30"})  # fmt: skip
    ReplicationRun.objects.create(task=task, result="sent", sent_bytes=5 << 20)
    ReplicationTask.objects.filter(pk=task.pk).update(newest_snapshot="backup/home@auto-1")
    page = html.unescape(admin_client.get(LIST).content.decode())
    assert "tank/home</code> → <code>backup/home" in page
    assert "Push to another box · far (192.0.2.7)" in page
    assert "At 02:30, every day" in page
    assert "Only when run by hand" in page
    assert "5.0 MiB" in page
    assert "backup/home@auto-1" in page
    assert "never run" in page


def test_the_form_labels_every_field_and_hides_what_another_choice_makes_useless(admin_client):
    page = admin_client.get(f"{LIST}add/").content.decode()
    for name in ("name", "source", "target", "trigger", "naming_schema", "keep_value"):
        assert f'for="id_{name}"' in page
    assert 'data-show-when="trigger=schedule"' in page
    assert 'data-show-when="direction=push,pull"' in page
    assert 'data-show-when="snapshot_task="' in page
    assert 'value="local" selected' in page  # no connection yet: a copy on this box


def test_the_form_offers_this_box_s_datasets_while_a_name_is_typed(admin_client, tank):
    page = admin_client.get(f"{LIST}add/").content.decode()
    assert 'list="datasets"' in page
    assert '<option value="tank"></option>' in page


def test_adding_a_task_leads_to_its_page(admin_client):
    response = admin_client.post(f"{LIST}add/", FORM)
    task = ReplicationTask.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{LIST}{task.pk}/"
    assert (task.source, task.target, task.connection, task.trigger) == (
        "tank/home",
        "backup/home",
        None,
        "manual",
    )
    assert said(response) == ["Replication task home added."]


def test_what_the_choices_hide_is_not_saved(admin_client):
    connection = far()
    made = SnapshotTask.objects.create(dataset="tank/home")
    form = {**FORM, "connection": connection.pk, "wire_compression": "on", "exclude": "tank/x",
            "snapshot_task": made.pk, "minutes": "99", "begin": "nonsense"}  # fmt: skip
    assert admin_client.post(f"{LIST}add/", form).status_code == 302
    task = ReplicationTask.objects.get()
    assert (task.connection, task.wire_compression, task.exclude) == (None, False, [])
    assert (task.snapshot_task, task.naming_schema) == (made, "")
    assert task.minutes == "0"


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "bad name"}, "name"),
        ({"direction": "push"}, "connection"),
        ({"target": "tank/home/copy"}, "target"),
        ({"naming_schema": ""}, "naming_schema"),
        ({"trigger": "after_task"}, "trigger"),
        ({"trigger": "schedule", "hours": "25"}, "hours"),
        ({"trigger": "schedule", "begin": "05:00", "end": "04:00"}, "end"),
        ({"recursive": "on", "exclude": "tank/other"}, "exclude"),
        ({"keep_value": "0"}, "keep_value"),
        ({"stall_seconds": "5"}, "stall_seconds"),
        ({"bandwidth_kib": str(10**30)}, "bandwidth_kib"),
    ],
)
def test_a_bad_field_is_shown_on_it_and_saves_nothing(admin_client, values, field):
    response = admin_client.post(f"{LIST}add/", {**FORM, **values})
    assert response.status_code == 400
    page = response.content.decode()
    assert f'data-field-error="{field}"' in page
    assert page.count("data-field-error=") == 1
    assert not ReplicationTask.objects.exists()


def test_edit_shows_the_task_and_saves_a_change(admin_client, task):
    page = admin_client.get(f"{LIST}{task.pk}/edit/").content.decode()
    assert 'value="backup/home"' in page
    response = admin_client.post(f"{LIST}{task.pk}/edit/", {**FORM, "keep_value": "6"})
    assert response["Location"] == f"{LIST}{task.pk}/"
    task.refresh_from_db()
    assert (task.keep_value, task.keep_unit) == (6, "month")


def test_the_task_page_says_its_settings_and_has_no_runs_yet(admin_client, task):
    page = html.unescape(page_of(admin_client, task))
    assert "To another pool on this box" in page
    assert "those named <code>auto-%Y-%m-%d_%H-%M</code>" in page
    assert "every snapshot that arrives" in page
    assert "No runs yet" in page
    assert 'data-testid="run-now"' in page
    assert 'data-testid="refusal-box"' not in page


def test_the_runs_are_listed_newest_first_in_human_units(admin_client, task):
    ReplicationRun.objects.create(task=task, result="failed", message="older, failed")
    ReplicationRun.objects.create(
        task=task, result="sent", sent_bytes=3 << 30, resumed=True,
        arrived=["backup/home@auto-1", "backup/home@auto-2"], message="newest",
    )  # fmt: skip
    page = page_of(admin_client, task)
    assert page.index("newest") < page.index("older, failed")
    assert "3.0 GiB" in page
    assert "2 arrived" in page
    assert ">resumed<" in page


def test_run_now_starts_a_replication_job_and_the_page_shows_it(admin_client, task):
    response = admin_client.post(f"{LIST}{task.pk}/run/")
    assert response["Location"] == f"{LIST}{task.pk}/"
    job = Job.objects.get()
    assert (job.kind, job.arguments) == ("replication.run", {"task_id": task.pk})
    assert said(response) == ["Replication of tank/home to backup/home started."]
    page = page_of(admin_client, task)
    assert f'id="job-{job.pk}"' in page
    assert 'data-testid="run-now"' not in page  # not twice
    assert admin_client.get(f"{LIST}{task.pk}/run/").status_code == 405


def test_run_now_of_a_running_task_says_why_not(admin_client, task):
    ReplicationRun.objects.create(task=task)
    response = admin_client.post(f"{LIST}{task.pk}/run/")
    assert said(response) == ["This task is already running or waiting to run."]
    assert not Job.objects.exists()


def refused(task: ReplicationTask) -> ReplicationTask:
    task.refusal = "The target has changed since auto-1: data was written to it."
    task.refusal_choice = "rollback"
    task.save()
    return task


def test_a_refusal_is_shown_with_its_choice(admin_client, task):
    page = page_of(admin_client, refused(task))
    assert "needs your answer" in admin_client.get(LIST).content.decode()
    assert 'data-testid="refusal-box"' in page
    assert "data was written to it" in page
    assert f'href="{LIST}{task.pk}/consent/"' in page
    assert "Roll the target back to the common snapshot…" in page


def test_consent_says_what_it_destroys_and_needs_the_target_typed(admin_client, task):
    refused(task)
    url = f"{LIST}{task.pk}/consent/"
    page = admin_client.get(url).content.decode()
    assert "rolls backup/home back" in page
    assert "Type backup/home to confirm" in page
    wrong = admin_client.post(url, {"choice": "rollback", "confirm": "backup"})
    assert wrong.status_code == 400
    assert 'data-field-error="confirm"' in wrong.content.decode()
    other = admin_client.post(url, {"choice": "replace", "confirm": "backup/home"})
    assert 'data-field-error="choice"' in other.content.decode()
    task.refresh_from_db()
    assert task.consent == ""
    agreed = admin_client.post(url, {"choice": "rollback", "confirm": "backup/home"})
    assert agreed["Location"] == f"{LIST}{task.pk}/"
    task.refresh_from_db()
    assert task.consent == "rollback"
    assert "You agreed" in page_of(admin_client, task)
    assert "you agreed: the next run goes ahead" in admin_client.get(LIST).content.decode()


def test_consent_without_a_refusal_goes_back(admin_client, task):
    response = admin_client.get(f"{LIST}{task.pk}/consent/")
    assert response["Location"] == f"{LIST}{task.pk}/"
    assert "nothing to agree to" in said(response)[0]


def test_delete_asks_first(admin_client, task):
    page = page_of(admin_client, task, "delete/")
    assert "stays on backup/home" in page
    assert ReplicationTask.objects.exists()
    response = admin_client.post(f"{LIST}{task.pk}/delete/")
    assert response["Location"] == LIST
    assert not ReplicationTask.objects.exists()
    assert admin_client.get(f"{LIST}{task.pk}/").status_code == 404


def test_a_running_task_is_not_deleted(admin_client, task):
    ReplicationRun.objects.create(task=task)
    response = admin_client.post(f"{LIST}{task.pk}/delete/")
    assert response.status_code == 400
    assert "This task is running" in response.content.decode()
    assert ReplicationTask.objects.exists()


@pytest.mark.parametrize("tail", ["", "add/", "1/", "1/edit/", "1/consent/", "1/delete/"])
def test_anonymous_is_sent_to_log_in(client, tail):
    response = client.get(f"{LIST}{tail}")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_anonymous_starts_nothing(client, task):
    assert client.post(f"{LIST}{task.pk}/run/")["Location"].startswith("/login/")
    assert not Job.objects.exists()
