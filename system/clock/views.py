"""The clock page: the time now, whether NTP keeps it, and the zone and servers form."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from nasui.pages import form_page
from system.clock import selectors, services
from system.clock.forms import ClockForm


def clock_page(request: HttpRequest) -> HttpResponse:
    """GET: the form as set and the clock's state; POST: save and apply."""
    row = selectors.clock_get()
    initial = {"time_zone": row.time_zone, "ntp_servers": " ".join(row.servers())}
    return form_page(
        request,
        ClockForm(request.POST or None, initial=initial),
        save=lambda data: services.clock_update(**data),
        template="system/clock.html",
        context={"row": row, "status": selectors.clock_status(row)},
        done=lambda saved: f"The box keeps {saved.time_zone} time.",
        then="system:clock",
    )
