"""What periodic tasks share: the panel's time zone, their due slots (each claimed once), the
next ones for the pages, and saving an edit checked on a copy."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, Protocol, TypeVar
from zoneinfo import ZoneInfo

from django.db import models
from django.utils import timezone

from nasui.timezones import box_zone
from nasui.validation import fail
from storage.schedule import Schedule, due

M = TypeVar("M", bound=models.Model)


class Periodic(Protocol):
    """A task row with a primary key and the slot its last run was for."""

    pk: int
    last_slot: datetime | None


class Scheduled(Periodic, Protocol):
    """A periodic task row that can be switched off and runs only for slots after its creation."""

    enabled: bool
    created_at: datetime


S = TypeVar("S", bound=Scheduled)


def zone() -> ZoneInfo:
    """The time zone schedules are read in: the box's (nasui.timezones)."""
    return box_zone()


def claim(model: type[models.Model], task: Periodic, slot: datetime) -> bool:
    """Mark the slot taken, unless another run took it first (two workers, a catch-up)."""
    rows = model._default_manager.filter(pk=task.pk, last_slot=task.last_slot)
    if rows.update(last_slot=slot) != 1:
        return False
    task.last_slot = slot
    return True


def claimed_slots(
    tasks: Iterable[S], schedule_of: Callable[[S], Schedule], now: datetime
) -> Iterator[tuple[S, datetime]]:
    """The enabled tasks whose slot has come at `now`, each slot claimed for this run."""
    for task in tasks:
        if not task.enabled:
            continue
        slot = due(
            schedule_of(task), last_run=task.last_slot, since=task.created_at, now=now, tz=zone()
        )
        if slot is not None and claim(type(task), task, slot):  # type: ignore[arg-type]
            yield task, slot


def next_slots(schedule: Schedule, count: int = 1) -> list[datetime]:
    """The schedule's next slots from now, for the pages and the API."""
    return schedule.upcoming(timezone.now(), zone(), count)


def save_changes(
    task: M, values: Mapping[str, Any], fields: Iterable[str], check: Callable[[M], None]
) -> M:
    """Check the changed task on a copy, then save it: a refusal leaves `task` as it was."""
    allowed = set(fields)
    candidate = copy.copy(task)
    for key, value in values.items():
        if key not in allowed:
            raise fail(key, "Unknown field.")
        setattr(candidate, key, value.strip() if isinstance(value, str) else value)
    check(candidate)
    for key in values:
        setattr(task, key, getattr(candidate, key))
    task.save()
    return task
