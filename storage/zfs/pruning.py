"""Which snapshots a periodic task may prune (plain Python: the VM lane runs it on real ZFS).

Only the task's own: stamped with its id (the nasui:task property) and named by its schema;
never one with a hold or a clone; expired when the slot in its name (UTC, as TrueNAS reads
its names) is older than the lifetime. A user's snapshot, another task's, or one renamed by
hand never matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from storage import schedule
from storage.zfs import naming
from storage.zfs.snapshots import Snapshot


def own_and_free(snapshot: Snapshot, task_id: str, schema: str) -> bool:
    """Made by this task (stamp and name), with nothing that keeps it."""
    return (
        snapshot.task == task_id
        and naming.matches(schema, snapshot.short_name)
        and not snapshot.holds
        and not snapshot.clones
    )


def expired(
    snapshots: Iterable[Snapshot], *, task_id: str, schema: str, keep: timedelta, now: datetime
) -> dict[str, list[str]]:
    """dataset -> short names of this task's snapshots past their lifetime at `now`."""
    slots: dict[str, list[tuple[str, datetime]]] = {}
    for snapshot in snapshots:
        slot = naming.slot_of(schema, snapshot.short_name)
        if slot is not None and own_and_free(snapshot, task_id, schema):
            slots.setdefault(snapshot.dataset, []).append((snapshot.short_name, slot))
    found = {dataset: schedule.expired(pairs, keep, now) for dataset, pairs in slots.items()}
    return {dataset: names for dataset, names in found.items() if names}
