"""How a replication task runs: its two sides, the datasets it pairs, the run and its record.

Each run is one row (ReplicationRun) whatever its end: sent, nothing new, refused (in words,
with the choice that would let the next run go ahead) or failed (the side's own words).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.utils import timezone

from nasui.validation import fail
from replication.connections.engine.errors import SshError
from replication.connections.selectors import remote
from replication.models import ReplicationRun, ReplicationTask
from replication.replications import selectors
from replication.replications.engine import chain
from replication.replications.engine.errors import ReplicationRefused
from replication.replications.engine.pump import Limits, TransferFailed
from replication.replications.engine.runner import Job, Moved, Outcome, replicate
from replication.replications.engine.sides import Side, SideError, over_ssh
from replication.replications.engine.target_retention import expired_on_target
from replication.replications.validation import inside
from storage.datasets.selectors import held_snapshots
from storage.engine import get_engine, is_sandbox
from storage.zfs.errors import ZfsError

Report = Callable[[int, str], None]  # percent, message
Pair = tuple[str, str]  # (source dataset, target dataset)
MIB = 1 << 20
HOLD_PREFIX = "nasui-repl-"
STOPPED = "Stopped before the end; the next run resumes where this one stopped."
# What a side, the pump or ssh raise when a run cannot go on: the run fails in their words.
RUN_ERRORS = (SideError, TransferFailed, SshError, ValueError)


def local_zfs() -> list[str]:
    """The zfs command here: OpenZFS's, or the sandbox's stand-in on a box without ZFS."""
    if is_sandbox():
        return [sys.executable, "-m", "storage.zfs.sandbox.zfs_cli",
                "--root", str(settings.NASUI_SANDBOX_DIR),
                "--disks", str(settings.NASUI_SANDBOX_DISKS),
                "--disk-gib", str(settings.NASUI_SANDBOX_DISK_GIB)]  # fmt: skip
    return ["zfs"]


@contextmanager
def sides_of(task: ReplicationTask) -> Iterator[tuple[Side, Side]]:
    """(source, target) of the task: this box and, over its connection, the other one."""
    here = Side(zfs=local_zfs())
    if task.direction == ReplicationTask.Direction.LOCAL or task.connection is None:
        yield here, here
        return
    with over_ssh(remote(task.connection), compression=task.wire_compression) as there:
        yield (here, there) if task.direction == ReplicationTask.Direction.PUSH else (there, here)


def dataset_pairs(task: ReplicationTask, source: Side) -> list[Pair]:
    """The datasets the task copies, parents first: the source, and its children if recursive."""
    names = source.descendants(task.source) if task.recursive else [task.source]
    kept = [n for n in names if not any(inside(n, gone) for gone in task.exclude)]
    return [(name, task.target + name[len(task.source) :]) for name in kept]


def release_local_holds(task: ReplicationTask) -> list[str]:
    """Release the task's holds on this box's side(s) (the other box's wait for `zfs release`:
    it may not answer now); the snapshots released."""
    tag = f"{HOLD_PREFIX}{task.pk}"
    here = {
        ReplicationTask.Direction.LOCAL: [task.source, task.target],
        ReplicationTask.Direction.PUSH: [task.source],
        ReplicationTask.Direction.PULL: [task.target],
    }[ReplicationTask.Direction(task.direction)]
    released = []
    for dataset in here:
        try:
            held = held_snapshots(dataset)
        except ZfsError:
            continue  # the dataset is gone: so are its holds
        for snapshot in (name for name, tags in held.items() if tag in tags):
            get_engine().release(snapshot, tag)
            released.append(snapshot)
    return released


def replication_run(*, task: ReplicationTask, job_id: int | None, report: Report) -> dict[str, Any]:
    """Run the task once and record it; the run's figures, or a ValidationError in words."""
    run = ReplicationRun.objects.create(task=task, job_id=job_id)
    consent = task.consent or None
    try:
        with sides_of(task) as (source, target):
            pairs = dataset_pairs(task, source)
            outcomes = [
                replicate(source, target, _job(task, p, consent), meter(report)) for p in pairs
            ]
            pruned = _prune_target(task, source, target, pairs)
    except ReplicationRefused as refused:
        _finish(run, task, ReplicationRun.Result.REFUSED, refused.message, refused.choice)
        raise fail("task", refused.message) from refused
    except RUN_ERRORS as error:
        _finish(run, task, ReplicationRun.Result.FAILED, str(error))
        raise fail("task", str(error)) from error
    except BaseException:  # cancelled, or the worker is stopping: the row must not stay running
        _finish(run, task, ReplicationRun.Result.FAILED, STOPPED)
        raise
    return _succeeded(run, task, outcomes, pruned)


def _job(task: ReplicationTask, pair: Pair, consent: str | None) -> Job:
    """What the engine needs for one dataset of the task."""
    return Job(
        source=pair[0],
        target=pair[1],
        eligible=chain.named_by(selectors.schema_of(task)),
        tag=f"{HOLD_PREFIX}{task.pk}",
        choice=consent,
        limits=limits_of(task),
    )


def limits_of(task: ReplicationTask) -> Limits:
    """The task's bandwidth limit and stall time, for every transfer it makes."""
    return Limits(bandwidth=task.bandwidth_kib * 1024, stall_after=float(task.stall_seconds))


def meter(report: Report) -> Callable[[Moved], None]:
    """The engine's progress as the job's percent and sentence."""

    def tell(moved: Moved) -> None:
        percent = int(100 * moved.sent / moved.total) if moved.total else 0
        left = (moved.total - moved.sent) / moved.rate if moved.rate and moved.total else None
        text = (
            f"{moved.sent / MIB:.1f} of {moved.total / MIB:.1f} MiB at {moved.rate / MIB:.1f} MiB/s"
        )
        if left is not None:
            text += f", about {max(0, int(left))} s left"
        report(min(99, percent), f"{text} (step {moved.step})")

    return tell


def _prune_target(
    task: ReplicationTask, source: Side, target: Side, pairs: list[Pair]
) -> list[str]:
    """The target's own retention: its expired snapshots of the task's schema, destroyed."""
    keep = selectors.keep_of(task)
    if keep is None:
        return []
    pruned = []
    for source_name, target_name in pairs:
        there = target.snapshots(target_name) or ()
        doomed = expired_on_target(
            there, source=source.snapshots(source_name) or (), schema=selectors.schema_of(task),
            keep=keep, now=timezone.now(),
        )  # fmt: skip
        target.destroy_snapshots(target_name, doomed)
        pruned += [f"{target_name}@{name}" for name in doomed]
    return pruned


def _succeeded(
    run: ReplicationRun, task: ReplicationTask, outcomes: list[Outcome], pruned: list[str]
) -> dict[str, Any]:
    """Record a run that went through (even with nothing new to send)."""
    sent = sum(o.sent for o in outcomes)
    arrived = [name for o in outcomes for name in o.arrived]
    moved = any(o.kind != "nothing" for o in outcomes) or sent > 0
    result = ReplicationRun.Result.SENT if moved else ReplicationRun.Result.NOTHING
    run.sent_bytes, run.arrived, run.pruned = sent, arrived, pruned
    run.resumed = any(o.resumed for o in outcomes)
    newest = outcomes[0].base if outcomes else None
    if newest:
        task.newest_snapshot = f"{task.target}@{newest}"
        task.newest_at = timezone.now() if moved or task.newest_at is None else task.newest_at
    words = (
        f"Sent {sent / MIB:.1f} MiB, {len(arrived)} snapshots arrived"
        if moved
        else "Nothing new to send"
    )
    _finish(run, task, result, words)
    return {"sent_bytes": sent, "arrived": arrived, "pruned": pruned, "resumed": run.resumed,
            "result": result}  # fmt: skip


def _finish(
    run: ReplicationRun, task: ReplicationTask, result: str, message: str, choice: str = ""
) -> None:
    """Close the run's row and keep the task's state in step with it."""
    run.result, run.message, run.finished_at = result, message, timezone.now()
    run.save()
    task.refusal = message if result == ReplicationRun.Result.REFUSED else ""
    task.refusal_choice = choice
    task.last_error = message if result == ReplicationRun.Result.FAILED else ""
    if result != ReplicationRun.Result.REFUSED:
        task.consent = ""  # used (or not needed): a later refusal asks again
    task.save(update_fields=["refusal", "refusal_choice", "last_error", "consent",
                             "newest_snapshot", "newest_at"])  # fmt: skip
