"""The target's own retention: its expired snapshots of the schema, never the base nor held ones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from replication.replications.engine.chain import SnapStamp
from replication.replications.engine.target_retention import expired_on_target
from storage import schedule
from storage.zfs import naming

SCHEMA = naming.DEFAULT_SCHEMA
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TWO_WEEKS = schedule.lifetime(2, "week")


def name(moment: datetime) -> str:
    return naming.render(SCHEMA, moment)


def ago(**delta: float) -> str:
    return name(NOW - timedelta(**delta))


def stamps(*names: str, prefix: str = "guid") -> list[SnapStamp]:
    """Snapshots in the order they were made."""
    return [SnapStamp(each, f"{prefix}-{each}", index) for index, each in enumerate(names)]


def expired(
    on_target: list[SnapStamp],
    on_source: list[SnapStamp] | None = None,
    keep: timedelta = TWO_WEEKS,
    held: tuple[str, ...] = (),
) -> list[str]:
    return expired_on_target(
        on_target,
        source=on_target if on_source is None else on_source,
        schema=SCHEMA,
        keep=keep,
        now=NOW,
        held=held,
    )


def test_expired_snapshots_of_the_schema_are_destroyed_oldest_first() -> None:
    old, older, young = ago(days=15), ago(days=20), ago(days=3)
    assert expired(stamps(older, old, young)) == [older, old]


def test_the_newest_common_base_is_kept_however_old() -> None:
    base, newer = ago(days=40), ago(days=30)
    on_target = stamps(ago(days=50), base, newer)
    on_source = stamps(base)  # the source pruned the rest; `newer` is the target's alone
    assert expired(on_target, on_source) == [ago(days=50)]


def test_held_snapshots_are_kept() -> None:
    held, free = ago(days=30), ago(days=20)
    assert expired(stamps(held, free, ago(days=1)), held=(held,)) == [free]


def test_the_users_own_snapshots_on_the_target_are_never_touched() -> None:
    assert expired(stamps("before-upgrade", "auto-garbage", ago(days=30), ago(days=1))) == [
        ago(days=30)
    ]


def test_the_newest_of_the_schema_is_kept_when_the_source_stopped_sending() -> None:
    old, oldest = ago(days=60), ago(days=90)
    gone = stamps("elsewhere", prefix="other")  # no snapshot in common any more
    assert expired(stamps(oldest, old, "by-hand"), gone) == [oldest]


def test_a_snapshot_exactly_at_its_lifetime_has_expired() -> None:
    at, inside = ago(weeks=2), ago(weeks=2, minutes=-1)
    assert expired(stamps(at, inside, ago(days=1))) == [at]


def test_a_month_is_thirty_days_not_a_calendar_month() -> None:
    month = schedule.lifetime(1, "month")
    assert month == timedelta(days=30)
    # 1 February to 1 March is a calendar month but 28 days: still kept.
    calendar_month = name(datetime(2026, 2, 1, 12, 0, tzinfo=UTC))
    thirty_days = ago(days=30)
    on_target = stamps(thirty_days, calendar_month, ago(hours=1))
    assert expired(on_target, keep=month) == [thirty_days]


def test_lifetimes_in_hours_and_years() -> None:
    names = [ago(days=366), ago(days=364), ago(hours=3), ago(hours=1)]
    on_target = stamps(*names)
    assert expired(on_target, keep=schedule.lifetime(2, "hour")) == names[:3]
    assert expired(on_target, keep=schedule.lifetime(1, "year")) == [ago(days=366)]


def test_a_name_made_unique_expires_with_its_slot() -> None:
    slot = ago(days=20)
    assert expired(stamps(slot, f"{slot}-2", ago(days=1))) == [slot, f"{slot}-2"]
