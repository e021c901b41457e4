"""What periodic tasks share: the panel's time zone and claiming a scheduled slot once."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol, TypeVar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models

from storage import validation as v

M = TypeVar("M", bound=models.Model)


class Periodic(Protocol):
    """A task row with a primary key and the slot its last run was for."""

    pk: int
    last_slot: datetime | None


def zone() -> ZoneInfo:
    """The time zone schedules are read in (TIME_ZONE, the machine's)."""
    return ZoneInfo(settings.TIME_ZONE)


def claim(model: type[models.Model], task: Periodic, slot: datetime) -> bool:
    """Mark the slot taken, unless another run took it first (two workers, a catch-up)."""
    rows = model._default_manager.filter(pk=task.pk, last_slot=task.last_slot)
    if rows.update(last_slot=slot) != 1:
        return False
    task.last_slot = slot
    return True


def save_changes(
    task: M, values: Mapping[str, Any], fields: Iterable[str], check: Callable[[M], None]
) -> M:
    """Check the changed task on a copy, then save it: a refusal leaves `task` as it was."""
    allowed = set(fields)
    candidate = copy.copy(task)
    for key, value in values.items():
        if key not in allowed:
            raise v.fail(key, "Unknown field.")
        setattr(candidate, key, value.strip() if isinstance(value, str) else value)
    check(candidate)
    for key in values:
        setattr(task, key, getattr(candidate, key))
    task.save()
    return task
