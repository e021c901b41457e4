"""Which snapshots a task may prune: its own, by name and stamp, expired by the slot in the name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from storage.zfs import naming, pruning
from storage.zfs.errors import DatasetExists
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


def test_a_name_made_unique_keeps_the_slot_of_its_time() -> None:
    slot = datetime(2026, 11, 23, 10, tzinfo=UTC)
    assert naming.slot_of(SCHEMA, "auto-2026-11-23_10-00-2") == slot
    assert naming.slot_of(SCHEMA, "auto-2026-11-23_10-00-17") == slot
    assert naming.slot_of(SCHEMA, "auto-2026-11-23_10-00-x") is None
    assert naming.slot_of(SCHEMA, "auto-2026-11-23_10-00-0") is None  # never made: -2 first


def test_a_suffixed_snapshot_of_the_task_is_pruned_with_its_slot() -> None:
    found = [snap("auto-2026-11-23_09-00"), snap("auto-2026-11-23_09-00-2")]
    chosen = pruning.expired(found, task_id="7", schema=SCHEMA, keep=timedelta(hours=2), now=NOW)
    assert chosen == {"tank/d": ["auto-2026-11-23_09-00", "auto-2026-11-23_09-00-2"]}


def test_take_unique_adds_the_first_free_suffix() -> None:
    taken = {"auto-x", "auto-x-2"}

    def create(name: str) -> None:
        if name in taken:
            raise DatasetExists(f"cannot create snapshot 'tank/d@{name}': dataset already exists")
        taken.add(name)

    assert naming.take_unique("auto-x", create) == "auto-x-3"
    assert naming.take_unique("auto-y", create) == "auto-y"
    # The suffix goes after the time: a reader of the time at the start (Samba's
    # shadow_copy2 with shadow:format) sees the same time in both names.
    assert "auto-x-3".startswith("auto-x")
