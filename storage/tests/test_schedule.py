"""Schedule arithmetic of periodic tasks: fields, windows, missed runs, retention, names."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from storage.schedule import (
    PRESETS,
    Schedule,
    ScheduleError,
    check_window,
    due,
    expired,
    in_words,
    lifetime,
    parse_field,
)
from storage.zfs import naming

TZ = ZoneInfo("Europe/Paris")


def at(text: str) -> datetime:
    """A Paris wall-clock time, aware."""
    return datetime.fromisoformat(text).replace(tzinfo=TZ)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*/15", {0, 15, 30, 45}),
        ("0,30", {0, 30}),
        ("5-7", {5, 6, 7}),
        (" 1 , 2 ", {1, 2}),
    ],
)
def test_minute_fields(text: str, expected: set[int]) -> None:
    assert parse_field("minutes", text, 0, 59) == expected


def test_days_take_names_and_ranges() -> None:
    assert parse_field(
        "days_of_week", "mon-fri", 0, 6, ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
    ) == {0, 1, 2, 3, 4}


@pytest.mark.parametrize(
    ("field", "text", "words"),
    [
        ("minutes", "60", "0 to 59"),
        ("minutes", "*/0", "step"),
        ("hours", "9-3", "low to high"),
        ("hours", "x", "not allowed"),
        ("minutes", "", "not allowed"),
    ],
)
def test_a_bad_field_is_named_with_its_rule(field: str, text: str, words: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        Schedule.from_fields(
            minutes=text if field == "minutes" else "0",
            hours=text if field == "hours" else "*",
            days="*",
        )
    assert caught.value.field == field
    assert words in caught.value.message


def test_a_window_must_end_after_it_begins() -> None:
    with pytest.raises(ScheduleError) as caught:
        Schedule.from_fields("0", "*", "*", begin=time(18), end=time(9))
    assert caught.value.field == "end"


def test_latest_finds_the_last_slot_inside_the_window() -> None:
    office = Schedule.from_fields("*/30", "*", "mon-fri", begin=time(9), end=time(17))
    # Monday 2026-11-23 08:10: the last slot was Friday 17:00.
    assert office.latest(at("2026-11-23T08:10"), TZ) == at("2026-11-20T17:00")
    assert office.latest(at("2026-11-23T09:44"), TZ) == at("2026-11-23T09:30")


def test_presets_are_plain_schedules() -> None:
    weekly = Schedule.from_fields(*PRESETS["weekly"])
    assert weekly.latest(at("2026-11-25T12:00"), TZ) == at("2026-11-22T00:00")  # a Sunday
    hourly = Schedule.from_fields(*PRESETS["hourly"])
    assert hourly.upcoming(at("2026-11-23T10:00"), TZ, 2) == [
        at("2026-11-23T11:00"),
        at("2026-11-23T12:00"),
    ]


def test_a_missed_run_is_taken_once_at_the_next_start() -> None:
    hourly = Schedule.from_fields(*PRESETS["hourly"])
    created = at("2026-11-20T00:00")
    last = at("2026-11-23T01:00")  # then the power went off until 06:20
    now = at("2026-11-23T06:20")
    assert due(hourly, last_run=last, since=created, now=now, tz=TZ) == at("2026-11-23T06:00")
    # Once taken, nothing more until 07:00.
    slot = at("2026-11-23T06:00")
    assert due(hourly, last_run=slot, since=created, now=now, tz=TZ) is None
    assert due(hourly, last_run=slot, since=created, now=at("2026-11-23T07:00"), tz=TZ) == at(
        "2026-11-23T07:00"
    )


def test_a_new_task_waits_for_its_first_slot() -> None:
    daily = Schedule.from_fields(*PRESETS["daily"])
    made = at("2026-11-23T10:00")
    assert due(daily, last_run=None, since=made, now=at("2026-11-23T23:59"), tz=TZ) is None
    assert due(daily, last_run=None, since=made, now=at("2026-11-24T00:00"), tz=TZ) == at(
        "2026-11-24T00:00"
    )


def test_slots_follow_the_wall_clock_across_a_dst_change() -> None:
    daily = Schedule.from_fields("30", "2", "*")
    # 2026-10-25: Paris falls back at 03:00 CEST to 02:00 CET; 02:30 happens (at least) once.
    slot = daily.latest(datetime(2026, 10, 25, 3, 0, tzinfo=UTC), TZ)
    assert slot is not None
    assert (slot.hour, slot.minute) == (2, 30)


def test_retention() -> None:
    keep = lifetime(2, "week")
    assert keep == timedelta(days=14)
    now = at("2026-11-23T00:00")
    pairs = [("old", now - timedelta(days=15)), ("edge", now - keep), ("new", now)]
    assert expired(pairs, keep, now) == ["old", "edge"]
    with pytest.raises(ScheduleError) as caught:
        lifetime(0, "day")
    assert caught.value.field == "lifetime_value"
    with pytest.raises(ScheduleError):
        lifetime(1, "fortnight")


def test_naming_schemas_make_unique_valid_names_and_recognise_their_own() -> None:
    assert naming.schema_problem(naming.DEFAULT_SCHEMA) is None
    name = naming.render(naming.DEFAULT_SCHEMA, at("2026-11-23T06:00"))
    assert name == "auto-2026-11-23_06-00"
    assert naming.matches(naming.DEFAULT_SCHEMA, name)
    assert not naming.matches(naming.DEFAULT_SCHEMA, "before-upgrade")
    assert "%M" in (naming.schema_problem("daily-%Y-%m-%d_%H") or "")
    assert "cannot be used" in (naming.schema_problem("x-%Y%m%d%H%M-%A") or "")
    assert "not valid" in (naming.schema_problem("my snap %Y%m%d%H%M") or "")


def test_a_window_that_begins_when_it_ends_is_refused_on_end() -> None:
    with pytest.raises(ScheduleError) as caught:
        check_window(time(9), time(9))
    assert caught.value.field == "end"
    assert "same time" in caught.value.message
    check_window(time(9), time(9, 1))  # one minute is a window


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (("0", "*", "*"), "Every hour, on the hour, every day"),
        (("30", "2", "sun"), "At 02:30 on Sunday"),
        (("*/15", "*", "*"), "Every 15 minutes, every day"),
        (
            ("0,30", "9-17", "mon-fri"),
            "At minutes 0 and 30 during hours 09 to 17, Monday to Friday",
        ),
        (("0", "*/6", "*"), "At 00:00, 06:00, 12:00 and 18:00, every day"),
        (("0", "*/2", "*"), "Every 2 hours, on the hour, every day"),
        (("15", "*", "sat,sun"), "Every hour, at 15 past, at weekends"),
        (("0", "8,20", "mon,wed,fri"), "At 08:00 and 20:00 on Monday, Wednesday and Friday"),
    ],
)
def test_a_schedule_is_said_in_words_not_cron(fields, words):
    assert in_words(*fields) == words
