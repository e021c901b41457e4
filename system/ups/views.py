"""The UPS page: the UPS's status, the last shutdown, and the settings form."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from nasui.htmx import is_partial
from nasui.pages import form_page
from system.ups import selectors, services
from system.ups.forms import UpsForm

STATUS_SECONDS = 5


def ups_page(request: HttpRequest) -> HttpResponse:
    """GET: the status and the form as set (an htmx poll: the status card); POST: save."""
    row = selectors.ups_get()
    context = {"row": row, "reading": selectors.ups_reading(row), "status_seconds": STATUS_SECONDS}
    if is_partial(request) and request.method == "GET":
        return render(request, "system/ups.html#status", context)
    initial = {name: getattr(row, name) for name in services.FIELDS if name not in services.SECRETS}
    return form_page(
        request,
        UpsForm(request.POST or None, initial=initial),
        save=lambda data: services.ups_update(**data),
        template="system/ups.html",
        context={**context, "last_shutdown": selectors.shutdown_record()},
        done="UPS settings saved.",
        then="system:ups",
    )
