"""Restores and test restores of a replication task on the sandbox engine, as the worker runs
them: the copy comes back beside the original or in its place, up to a chosen snapshot, and
a test restore reads everything back and names what differs. Services, API and pages."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError

from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask
from replication.restores import services
from replication.tests.local import run, snapshot, stamp
from storage.datasets import services as datasets
from storage.engine import get_engine

pytestmark = pytest.mark.django_db


def finished(job: Job) -> Job:
    job.refresh_from_db()
    return job


def result(job: Job) -> dict[str, Any]:
    assert job.result is not None
    return job.result


def files(dataset: str) -> dict[str, str]:
    folder = Path(get_engine().get_dataset(dataset).mountpoint or "")
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def names() -> set[str]:
    return {d.name for d in get_engine().list_all_datasets()}


@pytest.fixture
def copied(task: ReplicationTask) -> ReplicationTask:
    snapshot(1)
    snapshot(2)
    assert run(task).status == Job.Status.SUCCEEDED
    return task


def test_a_restore_comes_back_beside_the_original_writable_with_its_snapshots(copied) -> None:
    job = finished(services.restore_start(task=copied))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result == {"into": "tank/home-restored", "snapshot": stamp(2),
                          "sent_bytes": result(job)["sent_bytes"]}  # fmt: skip
    assert files("tank/home-restored") == files("tank/home")
    engine = get_engine()
    restored = [s.short_name for s in engine.list_snapshots("tank/home-restored")]
    assert restored == [stamp(1), stamp(2)]
    assert engine.get_properties("tank/home-restored", ["readonly"])["readonly"].value == "off"
    # A restore holds nothing: its snapshots go when the user deletes them.
    engine.destroy_snapshots("tank/home-restored", [stamp(1), stamp(2)])
    latest = copied.runs.first()
    assert (latest.kind, latest.result) == (ReplicationRun.Kind.RESTORE, "sent")


def test_a_restore_stops_at_the_chosen_snapshot(copied) -> None:
    job = finished(services.restore_start(task=copied, into="tank/old", snapshot=stamp(1)))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert files("tank/old") == {"day1.txt": "written on day 1\n"}


def test_a_restore_never_overwrites_and_names_what_is_missing(copied) -> None:
    before = files("tank/home")
    job = finished(services.restore_start(task=copied, into="tank/home"))
    assert job.status == Job.Status.FAILED
    assert "tank/home already exists" in job.error
    assert files("tank/home") == before
    job = finished(services.restore_start(task=copied, snapshot="nope"))
    assert job.status == Job.Status.FAILED
    assert "no snapshot named nope" in job.error
    assert "tank/home-restored" not in names()
    results = [(r.kind, r.result) for r in copied.runs.all()[:2]]
    assert results == [("restore", "failed"), ("restore", "failed")]
    assert copied.runs.filter(kind="replicate").count() == 1  # the task's own state untouched
    copied.refresh_from_db()
    assert copied.last_error == ""


def test_the_original_comes_back_in_place_and_the_chain_goes_on(copied) -> None:
    # As the user does it: the task's hold on its base released with the destroy, as asked.
    datasets.dataset_destroy(
        name="tank/home", confirm="tank/home", recursive=True, release_holds=True
    )
    job = finished(services.restore_start(task=copied, into="tank/home"))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert files("tank/home") == {
        "day1.txt": "written on day 1\n",
        "day2.txt": "written on day 2\n",
    }
    snapshot(3)
    again = run(copied)
    assert again.status == Job.Status.SUCCEEDED, again.error
    assert result(again)["arrived"] == [stamp(3)]  # an increment: the restored chain is the same


def test_a_test_restore_reads_everything_back_and_leaves_nothing(copied) -> None:
    before = names()
    job = finished(services.restore_test_start(task=copied))
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert result(job)["snapshot"] == stamp(2)
    assert result(job)["files"] == 2
    assert result(job)["compared_bytes"] == len("written on day 1\n") * 2
    assert names() == before
    test = copied.runs.first()
    assert (test.kind, test.result) == ("test", "sent")
    assert "read back identical (2 files" in test.message


def test_a_test_restore_names_a_file_that_differs(copied) -> None:
    # The copy's stored snapshot changed behind ZFS's back (the sandbox keeps it as files).
    stored = Path(settings.NASUI_SANDBOX_DIR) / "pools/backup/ds/home/snaps" / stamp(2)
    changed = stored / "day2.txt"
    was = changed.stat()
    changed.write_text("written on day 9\n")  # same size and time: only the bytes tell
    os.utime(changed, ns=(was.st_atime_ns, was.st_mtime_ns))
    before = names()
    job = finished(services.restore_test_start(task=copied))
    assert job.status == Job.Status.FAILED
    assert "day2.txt: the contents differ from offset 0" in job.error
    assert names() == before
    assert copied.runs.first().result == "failed"


def test_nothing_to_test_before_the_first_run(task: ReplicationTask) -> None:
    job = finished(services.restore_test_start(task=task))
    assert job.status == Job.Status.FAILED
    assert "backup/home does not exist on this box" in job.error


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"into": "tank/bad name!"}, "into", "letters"),
        ({"into": "tank"}, "into", "not a pool"),
        ({"into": "backup/home/restored"}, "into", "not inside it"),
        ({"snapshot": "a b"}, "snapshot", "short name"),
    ],
)
def test_a_restore_refuses_bad_fields_before_any_job(
    task: ReplicationTask,
    values: dict[str, str],
    field: str,
    words: str,
) -> None:
    with pytest.raises(ValidationError) as refused:
        services.restore_start(
            task=task, into=values.get("into", ""), snapshot=values.get("snapshot", "")
        )
    assert field in refused.value.message_dict
    assert words in " ".join(refused.value.message_dict[field])
    assert not Job.objects.filter(kind__startswith="replication.restore").exists()


def test_one_job_at_a_time_per_task(task: ReplicationTask) -> None:
    Job.objects.create(kind="replication.run", title="t", arguments={"task_id": task.pk})
    for start in (services.restore_start, services.restore_test_start):
        with pytest.raises(ValidationError) as refused:
            start(task=task)
        assert "running or waiting" in str(refused.value)


def test_the_api_starts_restores_as_jobs_and_refuses_on_the_field(copied, admin_client) -> None:
    base = f"/api/replication/tasks/{copied.pk}"
    answer = admin_client.post(
        f"{base}/restore/", {"into": "tank/x"}, content_type="application/json"
    )
    assert answer.status_code == 202, answer.content
    assert Job.objects.get(pk=answer.json()["id"]).status == Job.Status.SUCCEEDED
    assert "tank/x" in names()
    bad = admin_client.post(
        f"{base}/restore/", {"into": "tank/x y"}, content_type="application/json"
    )
    assert bad.status_code == 400
    assert "into" in bad.json()["fields"]
    test = admin_client.post(f"{base}/test-restore/")
    assert test.status_code == 202
    runs = admin_client.get(f"{base}/runs/").json()["results"]
    assert [r["kind"] for r in runs[:2]] == ["test", "restore"]
    assert admin_client.post("/api/replication/tasks/999/restore/", {}).status_code == 404


def test_the_pages_restore_and_test(copied, admin_client) -> None:
    page = admin_client.get(f"/replication/tasks/{copied.pk}/")
    assert b'data-testid="test-restore"' in page.content
    form = admin_client.get(f"/replication/tasks/{copied.pk}/restore/")
    assert form.status_code == 200
    assert b'value="tank/home-restored"' in form.content
    bad = admin_client.post(f"/replication/tasks/{copied.pk}/restore/", {"into": "tank"})
    assert bad.status_code == 400
    assert b"not a pool" in bad.content
    done = admin_client.post(f"/replication/tasks/{copied.pk}/restore/", {"into": "tank/y"})
    assert done.status_code == 302
    assert "tank/y" in names()
    tested = admin_client.post(f"/replication/tasks/{copied.pk}/test-restore/")
    assert tested.status_code == 302
    page = admin_client.get(f"/replication/tasks/{copied.pk}/")
    assert b'data-testid="last-test"' in page.content
    assert b"read back identical" in page.content


def test_no_restore_buttons_before_a_copy_exists(task: ReplicationTask, admin_client) -> None:
    page = admin_client.get(f"/replication/tasks/{task.pk}/")
    assert b'data-testid="test-restore"' not in page.content
    assert b'data-testid="restore"' not in page.content
