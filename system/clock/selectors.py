"""The clock as the panel shows it: the settings, the time now in the zone, systemd's view."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings

from system.clock.engine import clock
from system.models import ClockSettings


@dataclass(frozen=True)
class ClockStatus:
    """What the clock page and GET /api/system/clock/ show besides the settings."""

    now: datetime  # in the chosen zone
    applied: bool  # whether this panel sets the box's clock (NASUI_CLOCK=systemd)
    sync: clock.SyncState | None  # systemd's view where it applies


def clock_get() -> ClockSettings:
    """The clock's settings row."""
    return ClockSettings.load()


def clock_status(row: ClockSettings) -> ClockStatus:
    """The time now in the row's zone, and what systemd says where the panel sets the clock."""
    applied = settings.NASUI_CLOCK == "systemd"
    now = datetime.now(UTC).astimezone(zoneinfo.ZoneInfo(row.time_zone))
    return ClockStatus(now=now, applied=applied, sync=clock.sync_state() if applied else None)
