"""The time zone the panel lives in: where it sets the box's clock (NASUI_CLOCK=systemd), the
box's own zone, read live from /etc/localtime (System -> Time changes it while the panel runs);
elsewhere the process's TIME_ZONE (TZ, else UTC).

Schedules are read in it (a snapshot "at 3" runs at 3 in the family's zone), and each request
shows its times in it.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

LOCALTIME = Path("/etc/localtime")  # systemd names the zone by this link's target


def box_zone() -> ZoneInfo:
    """The zone schedules and pages use now."""
    if settings.NASUI_CLOCK == "systemd":
        return machine_zone(LOCALTIME)
    return ZoneInfo(settings.TIME_ZONE)


def machine_zone(localtime: Path) -> ZoneInfo:
    """The zone /etc/localtime links to (…/zoneinfo/Europe/Paris), else UTC."""
    try:
        target = str(localtime.readlink())
    except OSError:
        return ZoneInfo("UTC")
    _, found, name = target.partition("zoneinfo/")
    try:
        return ZoneInfo(name) if found else ZoneInfo("UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


class BoxZoneMiddleware:
    """Show each request's times in the box's zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.activate(box_zone())
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
