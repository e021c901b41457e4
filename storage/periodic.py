"""What periodic tasks share: the panel's time zone and claiming a scheduled slot once."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models


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
