"""Which snapshots a task may prune: its own, by name and stamp, expired by the slot in the name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from storage.zfs import naming, pruning
from storage.zfs.snapshots import Snapshot

SCHEMA = naming.DEFAULT_SCHEMA
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def snap(short: str, task: str = "7", **kw: object) -> Snapshot:
    return Snapshot(name=f"tank/d@{short}", created=0, used=0, referenced=0, task=task, **kw)  # type: ignore[arg-type]


def test_only_the_tasks_own_expired_free_snapshots_are_chosen() -> None:
    old, young = "auto-2026-11-23_09-00", "auto-2026-11-23_11-00"
    found = [
        snap(old),
        snap(young),
        snap("auto-2026-11-23_08-00", holds=1),
        snap("auto-2026-11-23_08-30", clones=("tank/c",)),
        snap("auto-2026-11-23_07-00", task="8"),
        snap("auto-2026-11-23_07-30", task=""),
        snap("by-hand"),
    ]
    chosen = pruning.expired(found, task_id="7", schema=SCHEMA, keep=timedelta(hours=2), now=NOW)
    assert chosen == {"tank/d": [old]}


def test_the_slot_in_the_name_is_read_in_utc() -> None:
    assert naming.slot_of(SCHEMA, "auto-2026-11-23_10-00") == datetime(2026, 11, 23, 10, tzinfo=UTC)
    assert naming.slot_of(SCHEMA, "before-upgrade") is None
    edge = [snap("auto-2026-11-23_10-00")]
    assert pruning.expired(edge, task_id="7", schema=SCHEMA, keep=timedelta(hours=2), now=NOW)
