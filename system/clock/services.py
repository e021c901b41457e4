"""The clock's settings: saved, written to the data partition and applied as one change.

Where the panel sets the box's clock (NASUI_CLOCK=systemd), the zone goes to timedatectl and
the servers to systemd-timesyncd; if either refuses, the row, the files and the system are put
back as they were.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from django.conf import settings
from django.db import transaction

from nasui.validation import fail
from system.clock import selectors
from system.clock.engine import clock
from system.models import ClockSettings

Choice = tuple[str, list[str]]  # a zone and its servers


def clock_update(
    *, time_zone: str | None = None, ntp_servers: list[str] | str | None = None
) -> ClockSettings:
    """Change the zone and/or the servers (a list, or text split on spaces and commas);
    refusals name their field and change nothing."""
    row = selectors.clock_get()
    before: Choice = (row.time_zone, row.servers())
    try:
        zone = before[0] if time_zone is None else clock.check_zone(time_zone)
        servers = before[1] if ntp_servers is None else clock.check_servers(_split(ntp_servers))
    except clock.ClockError as exc:
        raise fail(exc.field, str(exc)) from exc
    with transaction.atomic():
        row.time_zone, row.ntp_servers = zone, " ".join(servers)
        row.save()
        try:
            _apply((zone, servers), before)
        except clock.ClockError as exc:
            with contextlib.suppress(clock.ClockError):
                _apply(before, (zone, servers))
            raise fail(exc.field, str(exc)) from exc  # and the row's save is rolled back
    return row


def _apply(choice: Choice, current: Choice) -> None:
    """Write the files of `choice`; set what differs from `current` where the panel sets the
    clock."""
    zone, servers = choice
    written = clock.files(zone, servers)
    clock.write_files(Path(settings.DATA_DIR), written)
    if settings.NASUI_CLOCK != "systemd":
        return
    if zone != current[0]:
        clock.set_zone(zone)
    if servers != current[1]:
        clock.restart_timesyncd(written[clock.TIMESYNCD_FILE])


def _split(servers: list[str] | str) -> list[str]:
    if isinstance(servers, str):
        return [part for part in re.split(r"[\s,]+", servers) if part]
    return list(servers)
