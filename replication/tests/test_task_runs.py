"""A replication task's runs on the sandbox engine, as the worker runs them: job, run rows, task
state, refusals and the user's consent, the target's retention."""

from __future__ import annotations

from pathlib import Path

import pytest

from nasui.models import Job
from replication.models import ReplicationRun, ReplicationTask
from replication.replications import services
from replication.restores import services as restore_services
from replication.tests.local import SCHEMA, run, snapshot, stamp, target_snaps
from storage.engine import get_engine

pytestmark = pytest.mark.django_db


def test_runs_send_in_full_then_what_is_new_and_record_each_run(task: ReplicationTask) -> None:
    snapshot(1)
    first = run(task)
    assert first.status == Job.Status.SUCCEEDED, first.error
    assert target_snaps() == [stamp(1)]
    snapshot(2)
    snapshot(3)
    assert run(task).status == Job.Status.SUCCEEDED
    assert target_snaps() == [stamp(1), stamp(2), stamp(3)]
    quiet = run(task)
    assert quiet.result is not None
    assert quiet.result["result"] == "nothing"
    runs = list(task.runs.order_by("id"))
    assert [r.result for r in runs] == ["sent", "sent", "nothing"]
    assert runs[1].arrived == [stamp(2), stamp(3)]
    assert runs[0].sent_bytes > 0
    assert task.newest_snapshot == f"backup/home@{stamp(3)}"
    copy = Path(get_engine().get_dataset("backup/home").mountpoint or "")
    assert (copy / "day3.txt").read_text() == "written on day 3\n"


def test_a_refusal_waits_for_consent_then_the_next_run_goes(task: ReplicationTask) -> None:
    snapshot(1)
    run(task)
    get_engine().create_snapshot("backup/home@mine")
    snapshot(2)
    refused = run(task)
    assert refused.status == Job.Status.FAILED
    assert "mine" in refused.error
    assert task.refusal_choice == "rollback"
    assert latest_result(task) == ReplicationRun.Result.REFUSED
    assert "mine" in target_snaps()
    services.replication_task_consent(task=task, choice="rollback")
    assert run(task).status == Job.Status.SUCCEEDED
    assert target_snaps() == [stamp(1), stamp(2)]
    assert (task.refusal, task.refusal_choice, task.consent) == ("", "", "")


def test_the_target_keeps_its_own_lifetime(task: ReplicationTask) -> None:
    for day in (1, 2, 3):
        snapshot(day)
    services.replication_task_update(task=task, keep_value=1, keep_unit="day")
    job = run(task)
    assert job.status == Job.Status.SUCCEEDED, job.error
    # All are older than a day (January 2026), but the newest is the next run's base.
    assert target_snaps() == [stamp(3)]
    assert job.result is not None
    assert job.result["pruned"] == [f"backup/home@{stamp(1)}", f"backup/home@{stamp(2)}"]


def test_a_missing_source_fails_in_words_and_is_recorded(task: ReplicationTask) -> None:
    services.replication_task_update(task=task, source="tank/gone")
    job = run(task)
    assert job.status == Job.Status.FAILED
    assert "tank/gone" in job.error
    assert task.last_error
    assert latest_result(task) == ReplicationRun.Result.FAILED


def latest_result(task: ReplicationTask) -> str:
    latest = task.runs.first()
    assert latest is not None
    return latest.result


def test_deleting_a_task_releases_its_holds_here(task: ReplicationTask) -> None:
    snapshot(1)
    assert run(task).status == Job.Status.SUCCEEDED
    engine = get_engine()
    tag = f"nasui-repl-{task.pk}"
    held = [f"tank/home@{stamp(1)}", f"backup/home@{stamp(1)}"]
    assert engine.hold_tags(held) == {name: [tag] for name in held}
    assert sorted(services.replication_task_delete(task=task)) == sorted(held)
    assert engine.hold_tags(held) == {}
    engine.destroy_snapshots("tank/home", [stamp(1)])  # nothing keeps it any more


def test_a_recursive_task_copies_the_children_but_not_those_left_out(pools: None) -> None:
    engine = get_engine()
    for child in ("kids", "tmp"):
        engine.create_dataset(f"tank/home/{child}")
    task = services.replication_task_create(
        name="tree", direction="local", source="tank/home", target="backup/home", recursive=True,
        exclude=["tank/home/tmp"], naming_schema=SCHEMA, trigger="manual",
    )  # fmt: skip
    engine.create_snapshot(f"tank/home@{stamp(1)}", recursive=True)
    job = run(task)
    assert job.status == Job.Status.SUCCEEDED, job.error
    copied = {d.name for d in engine.list_datasets("backup")}
    assert copied == {"backup", "backup/home", "backup/home/kids"}
    assert [s.short_name for s in engine.list_snapshots("backup/home/kids")] == [stamp(1)]
    restore = restore_services.restore_start(task=task, into="tank/back")
    restore.refresh_from_db()
    assert restore.status == Job.Status.SUCCEEDED, restore.error
    assert {"tank/back", "tank/back/kids"} <= {d.name for d in engine.list_datasets("tank")}
