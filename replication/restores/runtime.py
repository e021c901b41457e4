"""How a restore and a test restore run: from a task's copy back to where the data came from.

A restore sends the copy's snapshots, the oldest up to the chosen one, to the side the task
copies from, under the name given: the original's once it is gone, or a new one beside it.
There it is mounted and writable, as the original was (a copy is neither). Nothing that
exists is overwritten: a name in use is refused, unless it holds an interrupted restore,
which then resumes.

A test restore receives the copy's newest snapshot into a scratch dataset on this box,
compares it file by file (or a zvol byte for byte) with the same snapshot here (the source's;
a pull task's copy is the one here), and removes the scratch dataset whatever the result.
Each is one ReplicationRun of the task, of its kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from django.utils import timezone

from nasui.validation import fail
from replication.models import ReplicationRun, ReplicationTask
from replication.replications.engine.errors import ReplicationRefused
from replication.replications.engine.runner import Job, Outcome, replicate
from replication.replications.engine.sides import Side, SideError
from replication.replications.runtime import (
    MIB,
    RUN_ERRORS,
    Report,
    limits_of,
    local_zfs,
    meter,
    sides_of,
)
from replication.restores.engine.compare import Verdict, compare_devices, compare_trees
from storage.engine import get_engine
from storage.zfs.errors import DatasetNotFound, ZfsError

STOPPED = "Stopped before the end."
SCRATCH = "nasui-restore-test-{pk}"  # the test's received copy, beside the pool's datasets
REFERENCE = "nasui-restore-ref-{pk}"  # a clone of the snapshot it is compared with
Pair = tuple[str, str]  # (dataset of the copy, dataset restored)


def restore_run(
    *, task: ReplicationTask, snapshot: str, into: str, job_id: int | None, report: Report
) -> dict[str, Any]:
    """Bring the copy back under `into`, up to `snapshot` (the newest if ""); its figures."""
    run = ReplicationRun.objects.create(task=task, job_id=job_id, kind=ReplicationRun.Kind.RESTORE)
    with _recorded(run):
        with sides_of(task) as (source, copy):
            allowed = _up_to(copy, task.target, snapshot)
            pairs = _restore_pairs(task, copy, into)
            _check_free(source, pairs)
            outcomes = [
                _bring_back(copy, source, _restore_job(task, pair, allowed), report)
                for pair in pairs
            ]
        sent = sum(outcome.sent for outcome in outcomes)
        words = (f"Restored {task.target}@{allowed[-1]} as {into} on {source.where} "
                 f"({sent / MIB:.1f} MiB, {len(allowed)} snapshots)")  # fmt: skip
        _close(run, ReplicationRun.Result.SENT, words, sent=sent)
    return {"into": into, "snapshot": allowed[-1], "sent_bytes": sent}


def restore_test_run(
    *, task: ReplicationTask, job_id: int | None, report: Report
) -> dict[str, Any]:
    """Receive the newest copy into a scratch dataset, compare, remove; what was compared."""
    run = ReplicationRun.objects.create(task=task, job_id=job_id, kind=ReplicationRun.Kind.TEST)
    with _recorded(run):
        with sides_of(task) as (_source, copy):
            newest = _up_to(copy, task.target, "")[-1]
            pull = task.direction == ReplicationTask.Direction.PULL
            here_name = task.target if pull else task.source  # the dataset here holding it
            pool = here_name.split("/", 1)[0]
            scratch = f"{pool}/{SCRATCH.format(pk=task.pk)}"
            _remove(scratch)  # left by a test stopped midway
            try:
                job = _restore_job(task, (task.target, scratch), [newest])
                outcome = _bring_back(copy, Side(zfs=local_zfs()), job, report)
                reference = f"{here_name}@{newest}"
                verdict = _compare(reference, scratch, REFERENCE.format(pk=task.pk), report)
            finally:
                _remove(scratch)
        _judge(run, task, f"{task.target}@{newest}", verdict, outcome.sent)
    return {"snapshot": newest, "files": verdict.files, "compared_bytes": verdict.compared_bytes,
            "sent_bytes": outcome.sent}  # fmt: skip


@contextmanager
def _recorded(run: ReplicationRun) -> Iterator[None]:
    """End the run's row however the run ends; a failure as a ValidationError in words."""
    try:
        yield
    except ReplicationRefused as refused:
        _close(run, ReplicationRun.Result.REFUSED, refused.message)
        raise fail("task", refused.message) from refused
    except (*RUN_ERRORS, ZfsError) as error:
        _close(run, ReplicationRun.Result.FAILED, str(error))
        raise fail("task", str(error)) from error
    except BaseException:  # cancelled, or the worker is stopping: the row must not stay running
        if run.result == ReplicationRun.Result.RUNNING:
            _close(run, ReplicationRun.Result.FAILED, STOPPED)
        raise


def _close(run: ReplicationRun, result: str, message: str, *, sent: int = 0) -> None:
    run.result, run.message, run.sent_bytes = result, message, sent
    run.finished_at = timezone.now()
    run.save()


def _up_to(copy: Side, dataset: str, snapshot: str) -> list[str]:
    """The copy's snapshots, oldest first, up to `snapshot` (every one if "")."""
    stamps = copy.snapshots(dataset)
    if stamps is None:
        raise SideError(f"{dataset} does not exist on {copy.where}: there is no copy to restore.")
    names = [stamp.name for stamp in stamps]
    if not names:
        raise SideError(f"{dataset} on {copy.where} has no snapshot yet: run the task first.")
    if not snapshot:
        return names
    if snapshot not in names:
        raise SideError(f"{dataset} on {copy.where} has no snapshot named {snapshot}.")
    return names[: names.index(snapshot) + 1]


def _restore_pairs(task: ReplicationTask, copy: Side, into: str) -> list[Pair]:
    """The copy's datasets (its children too for a recursive task) and their restored names."""
    names = copy.descendants(task.target) if task.recursive else [task.target]
    return [(name, into + name[len(task.target) :]) for name in names]


def _check_free(side: Side, pairs: Sequence[Pair]) -> None:
    """Refuse a name in use on the restore's side, unless it holds an interrupted restore."""
    for _copy, name in pairs:
        state = side.target_state(name)
        if state.snapshots is not None and not state.resume_token:
            raise SideError(
                f"{name} already exists on {side.where}: restore under a new name beside it, "
                "or destroy it first (a restore never overwrites a dataset)."
            )


def _restore_job(task: ReplicationTask, pair: Pair, allowed: Sequence[str]) -> Job:
    names = frozenset(allowed)
    return Job(pair[0], pair[1], names.__contains__, tag="", restore=True, limits=limits_of(task))


def _bring_back(copy: Side, side: Side, job: Job, report: Report) -> Outcome:
    """One dataset from the copy to `side` (a restore holds no snapshot on either)."""
    return replicate(copy, side, job, meter(report))


def _compare(reference: str, scratch: str, clone_name: str, report: Report) -> Verdict:
    """The scratch dataset against a clone of `reference` (a snapshot's files are read there:
    a copy is never mounted, and a clone is, at no cost in space)."""
    engine = get_engine()
    pool = scratch.split("/", 1)[0]
    clone = f"{pool}/{clone_name}"
    _remove(clone)
    engine.clone(reference, clone, properties={"readonly": "on"})
    tell = _compare_meter(report)
    try:
        if engine.get_dataset(scratch).type == "volume":
            engine.settle(pool)
            return compare_devices(engine.zvol_path(clone), engine.zvol_path(scratch), tell)
        return compare_trees(_files_of(clone), _files_of(scratch), tell)
    finally:
        engine.destroy_dataset(clone)


def _files_of(dataset: str) -> Path:
    """Where a mounted file system's files are read."""
    values = get_engine().get_properties(dataset, ["mounted", "mountpoint"])
    if values["mounted"].value != "yes":
        raise SideError(f"{dataset} could not be mounted to read its files back.")
    return Path(values["mountpoint"].value)


def _compare_meter(report: Report) -> Any:
    def tell(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        report(min(99, percent), f"Compared {done / MIB:.1f} of {total / MIB:.1f} MiB")

    return tell


def _remove(dataset: str) -> None:
    """Destroy one of the test's own datasets, if there."""
    with suppress(DatasetNotFound):
        get_engine().destroy_dataset(dataset, recursive=True)


def _judge(
    run: ReplicationRun, task: ReplicationTask, copy: str, verdict: Verdict, sent: int
) -> None:
    """Record the comparison; a difference fails the run, named in words."""
    compared = f"{verdict.files} files, {verdict.compared_bytes / MIB:.1f} MiB"
    if verdict.same:
        words = f"{copy} restored and read back identical ({compared})"
        _close(run, ReplicationRun.Result.SENT, words, sent=sent)
        return
    more = verdict.different - len(verdict.differences)
    listed = "; ".join(verdict.differences) + (f"; and {more} more" if more else "")
    words = f"{copy} restored but differs from the original ({compared}): {listed}"
    _close(run, ReplicationRun.Result.FAILED, words, sent=sent)
    raise fail("task", words)
