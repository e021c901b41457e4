"""A periodic task's runs and pruning on real OpenZFS: only its own expired snapshots go.

The task's run (Django, beat) is tested in the fast lane; here its two halves that meet ZFS run
on the real engine over several runs an hour apart: each run takes a snapshot named by the
schema for its slot and stamped with the task's id (nasui:task), then prunes with
storage.zfs.pruning what has expired. A user's snapshot, another task's, a hand-named one carrying
the stamp, a held one and a cloned one must all survive.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from storage.zfs import naming, pruning
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.snapshots import TASK_PROPERTY

POOL = "prunepool"
SCHEMA = naming.DEFAULT_SCHEMA
KEEP = timedelta(hours=2)


def run(engine: CliZfsEngine, dataset: str, task: str, slot: datetime) -> str:
    """What a task's run does to ZFS: one stamped snapshot for the slot, then the pruning."""
    short = naming.render(SCHEMA, slot)
    engine.create_snapshot(f"{dataset}@{short}", properties={TASK_PROPERTY: task})
    found = engine.list_snapshots(dataset)
    for name, old in pruning.expired(
        found, task_id=task, schema=SCHEMA, keep=KEEP, now=slot
    ).items():
        engine.destroy_snapshots(name, old)
    return short


def test_several_runs_prune_exactly_the_tasks_own_expired_snapshots(
    engine: CliZfsEngine, module_pool: Callable[..., str], all_disks: list[str]
) -> None:
    module_pool(POOL, PoolLayout.single("stripe", all_disks[4:5]))
    dataset = f"{POOL}/home"
    engine.create_dataset(dataset)
    start = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    engine.create_snapshot(f"{dataset}@before-upgrade")  # a user's own
    engine.create_snapshot(f"{dataset}@by-hand", properties={TASK_PROPERTY: "7"})
    other = run(engine, dataset, "8", start - timedelta(hours=10))  # another task's, long expired
    names = []
    for hour in range(6):
        names.append(run(engine, dataset, "7", start + timedelta(hours=hour)))
        if hour == 0:
            engine.hold(f"{dataset}@{names[0]}", "keep")
        if hour == 1:
            engine.clone(f"{dataset}@{names[1]}", f"{POOL}/restore")
    left = [s.short_name for s in engine.list_snapshots(dataset)]
    print(f"\nleft after 6 runs: {left}")
    # Runs at 06..11 keep 2 hours: at 11:00 only 10 and 11 are younger; 06 is held and 07
    # cloned, so they stay; 08 and 09 went.
    assert left == ["before-upgrade", "by-hand", other, names[0], names[1], *names[4:]]
    engine.destroy_dataset(f"{POOL}/restore")
    engine.release(f"{dataset}@{names[0]}", "keep")
