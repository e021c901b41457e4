"""Which snapshots a replication task destroys on its target, under the target's own lifetime.

The target keeps its snapshots as long as its own lifetime says, separate from the source's
("keep 2 weeks here, 6 months there"). The lifetime is `storage.schedule.lifetime(count, unit)`,
the arithmetic of the source's periodic tasks: hours, days, weeks, months of 30 days and years
of 365 days (not calendar months). A snapshot has expired when the slot in its name (UTC, read
by the naming schema as the source's pruning reads it) plus the lifetime is at or before now.

An expired snapshot is destroyed unless it is
- not one the task's naming schema made: the user's own snapshots on the target are never touched;
- the newest snapshot in common with the source: the next run sends from it;
- held (user holds or clones: the caller lists them), which ZFS would refuse to destroy anyway;
- the newest snapshot of the schema on the target: a backup whose source stopped sending is
  never pruned away to nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from replication.replications.engine.chain import SnapStamp, by_age, newest_common
from storage import schedule
from storage.zfs import naming


def expired_on_target(
    target: Sequence[SnapStamp],
    *,
    source: Sequence[SnapStamp],
    schema: str,
    keep: timedelta,
    now: datetime,
    held: Collection[str] = (),
) -> list[str]:
    """Short names of the target snapshots to destroy at `now` (an aware time), oldest first."""
    spared = set(held) | _newest_of_schema(target, schema)
    base = newest_common(source, target)
    if base is not None:
        spared.add(base.target)
    slots = [
        (snap.name, slot)
        for snap in by_age(target)
        if snap.name not in spared and (slot := naming.slot_of(schema, snap.name)) is not None
    ]
    return schedule.expired(slots, keep, now)


def _newest_of_schema(target: Sequence[SnapStamp], schema: str) -> set[str]:
    """The newest target snapshot the schema made, as a set of at most one name."""
    made = [snap.name for snap in by_age(target) if naming.matches(schema, snap.name)]
    return set(made[-1:])
