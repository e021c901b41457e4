"""When periodic tasks run: cron-like fields, a daily time window, and how long results live.

Plain Python (no Django): the snapshot tasks and the scrub schedules both use it, and the
arithmetic (missed runs, retention) is unit-tested on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # Python's weekday() order
# Presets a home user picks from; the cron-like fields behind each (minutes, hours, days).
PRESETS = {
    "hourly": ("0", "*", "*"),
    "daily": ("0", "0", "*"),
    "weekly": ("0", "0", "sun"),
}
LIFETIME_UNITS = {
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "month": timedelta(days=30),
    "year": timedelta(days=365),
}
# Snapshots kept longer than a century are kept forever in all but name; a longer lifetime
# overflows the date arithmetic of every run.
LIFETIME_MAX = timedelta(days=100 * 365)
# A schedule that matches nothing would scan this far back before saying so.
_LOOKBACK = timedelta(days=8)
_STEP = re.compile(r"\*/(\d+)")
_RANGE = re.compile(r"(\w+)-(\w+)")


class ScheduleError(ValueError):
    """A schedule field is wrong; `field` names it for the form and the API."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def parse_field(
    field: str, text: str, low: int, high: int, names: tuple[str, ...] = ()
) -> frozenset[int]:
    """'*', '*/15', '0,30', '9-17', 'mon-fri' -> the values in low..high it allows."""
    values: set[int] = set()
    for part in text.replace(" ", "").lower().split(","):
        values |= _parse_part(field, part, low, high, names)
    if not values:
        raise ScheduleError(field, f"Give at least one value from {low} to {high}.")
    return frozenset(values)


def _parse_part(field: str, part: str, low: int, high: int, names: tuple[str, ...]) -> set[int]:
    """One comma-separated part of a field."""
    if part == "*":
        return set(range(low, high + 1))
    step = _STEP.fullmatch(part)
    if step:
        every = int(step.group(1))
        if not 1 <= every <= high - low + 1:
            raise ScheduleError(field, f"“{part}”: the step must be 1 to {high - low + 1}.")
        return set(range(low, high + 1, every))
    span = _RANGE.fullmatch(part)
    if span:
        first, last = (_value(field, v, low, high, names) for v in span.groups())
        if first > last:
            raise ScheduleError(field, f"“{part}”: a range goes from low to high.")
        return set(range(first, last + 1))
    return {_value(field, part, low, high, names)}


def _value(field: str, text: str, low: int, high: int, names: tuple[str, ...]) -> int:
    """A number, or a day name, within low..high."""
    if text in names:
        return names.index(text) + low
    if not text.isdigit() or not low <= int(text) <= high:
        allowed = f"{low} to {high}" + (f" or {', '.join(names)}" if names else "")
        raise ScheduleError(field, f"“{text}” is not allowed here: use {allowed}, '*' or '*/N'.")
    return int(text)


def check_window(begin: time, end: time) -> None:
    """A daily window runs from `begin` to a later `end` the same day; ScheduleError on `end`.

    Equal times are refused when a task is saved: such a window is either empty or one
    minute long, and neither is what a user means by "between".
    """
    if begin == end:
        raise ScheduleError(
            "end", "Begin and end are the same time: make the window end after it begins."
        )
    if begin > end:
        raise ScheduleError("end", "The window must end after it begins (same day).")


@dataclass(frozen=True)
class Schedule:
    """Minutes, hours and days of the week on which a task runs, within a daily window."""

    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]  # 0 = Monday
    begin: time = time(0, 0)
    end: time = time(23, 59)

    @classmethod
    def from_fields(
        cls, minutes: str, hours: str, days: str, begin: time = time(0, 0), end: time = time(23, 59)
    ) -> Schedule:
        """Build from the text fields of a form or the API; ScheduleError names the field."""
        if begin > end:
            raise ScheduleError("end", "The window must end after it begins (same day).")
        return cls(
            minutes=parse_field("minutes", minutes, 0, 59),
            hours=parse_field("hours", hours, 0, 23),
            days=parse_field("days_of_week", days, 0, 6, DAY_NAMES),
            begin=begin,
            end=end,
        )

    def matches(self, moment: datetime) -> bool:
        """True when the task runs at this minute (wall-clock time of `moment`)."""
        clock = moment.time().replace(second=0, microsecond=0)
        return (
            moment.minute in self.minutes
            and moment.hour in self.hours
            and moment.weekday() in self.days
            and self.begin <= clock <= self.end
        )

    def latest(self, now: datetime, tz: ZoneInfo) -> datetime | None:
        """The last scheduled minute at or before `now` (within 8 days), in UTC-aware form."""
        local = now.astimezone(tz).replace(second=0, microsecond=0)
        floor = local - _LOOKBACK
        while local > floor:
            if local.weekday() not in self.days or local.hour not in self.hours:
                # Skip to the last minute of the previous hour: nothing in this one matches.
                local = local.replace(minute=0) - timedelta(minutes=1)
                continue
            if self.matches(local):
                return local
            local -= timedelta(minutes=1)
        return None

    def upcoming(self, after: datetime, tz: ZoneInfo, count: int = 1) -> list[datetime]:
        """The next `count` scheduled minutes after `after` (within 8 days), for display."""
        local = after.astimezone(tz).replace(second=0, microsecond=0) + timedelta(minutes=1)
        found: list[datetime] = []
        ceiling = local + _LOOKBACK
        while local < ceiling and len(found) < count:
            if self.matches(local):
                found.append(local)
            local += timedelta(minutes=1)
        return found


def due(
    schedule: Schedule, *, last_run: datetime | None, since: datetime, now: datetime, tz: ZoneInfo
) -> datetime | None:
    """The scheduled time to run now, or None.

    One run covers every slot missed since the last one (after a power-off the task runs
    once at the next start, not once per missed slot); a task never runs for a slot from
    before it existed.
    """
    slot = schedule.latest(now, tz)
    if slot is None or slot < since.replace(second=0, microsecond=0):
        return None
    if last_run is not None and slot <= last_run:
        return None
    return slot


def lifetime(value: int, unit: str) -> timedelta:
    """How long a task's results are kept."""
    if unit not in LIFETIME_UNITS:
        raise ScheduleError("lifetime_unit", f"Use one of {', '.join(LIFETIME_UNITS)}.")
    if value < 1:
        raise ScheduleError("lifetime_value", "Keep snapshots for at least 1 unit.")
    per_unit = LIFETIME_UNITS[unit]
    if value > LIFETIME_MAX // per_unit:
        most = LIFETIME_MAX // per_unit
        raise ScheduleError("lifetime_value", f"Keep snapshots at most 100 years ({most} {unit}s).")
    return value * per_unit


def expired(created: Iterable[tuple[str, datetime]], keep: timedelta, now: datetime) -> list[str]:
    """Names of the (name, created) pairs older than `keep` at `now`."""
    return [name for name, when in created if when + keep <= now]


DAY_WORDS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def in_words(minutes: str, hours: str, days: str) -> str:
    """Cron-like fields as a sentence: ("30", "2", "sun") -> "At 02:30 on Sunday"."""
    mins = sorted(parse_field("minutes", minutes, 0, 59))
    hrs = sorted(parse_field("hours", hours, 0, 23))
    on = _days_in_words(sorted(parse_field("days_of_week", days, 0, 6, DAY_NAMES)))
    return f"{_times_in_words(minutes.strip(), mins, hours.strip(), hrs)}{on}"


def _times_in_words(minutes: str, mins: list[int], hours: str, hrs: list[int]) -> str:
    every_hour = len(hrs) == 24
    if len(mins) == 1 and len(hrs) <= 6:
        return "At " + _listed([f"{h:02d}:{mins[0]:02d}" for h in hrs])
    if len(mins) == 1:
        at = "on the hour" if mins[0] == 0 else f"at {mins[0]} past"
        step = _step_of(hours, 24)
        if step:
            return f"Every {step} hours, {at}"
        return f"Every hour, {at}{_during(hrs, every_hour)}"
    step = _step_of(minutes, 60)
    often = f"Every {step} minutes" if step else "At minutes " + _listed([str(m) for m in mins])
    if step == 1 or len(mins) == 60:
        often = "Every minute"
    return often + _during(hrs, every_hour)


def _step_of(text: str, size: int) -> int | None:
    """N for "*/N" (a step over the whole range), else None."""
    found = _STEP.fullmatch(text.replace(" ", ""))
    return int(found.group(1)) if found and size % int(found.group(1)) == 0 else None


def _during(hrs: list[int], every_hour: bool) -> str:
    if every_hour:
        return ""
    return " during hours " + _listed(_spans(hrs, lambda h: f"{h:02d}"))


def _days_in_words(days: list[int]) -> str:
    if len(days) == 7:
        return ", every day"
    if days == [0, 1, 2, 3, 4]:
        return ", Monday to Friday"
    if days == [5, 6]:
        return ", at weekends"
    return " on " + _listed(_spans(days, lambda d: DAY_WORDS[d]))


def _spans(values: list[int], name: Callable[[int], str]) -> list[str]:
    """[1, 2, 3, 7] -> ["1-3", "7"] with each end named by `name` (runs of three or more)."""
    spans: list[list[int]] = []
    for value in values:
        if spans and value == spans[-1][-1] + 1:
            spans[-1].append(value)
        else:
            spans.append([value])
    words = []
    for run in spans:
        if len(run) >= 3:
            words.append(f"{name(run[0])} to {name(run[-1])}")
        else:
            words += [name(v) for v in run]
    return words


def _listed(items: list[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
