"""Exporter pages: /metrics itself (its own token, no session), and the settings card."""

from __future__ import annotations

import time

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from prometheus_client import CONTENT_TYPE_LATEST

from monitoring.exporter import selectors, services
from monitoring.exporter.engine import render as render_metrics
from monitoring.exporter.forms import ExporterForm
from nasui.htmx import template_for

PAGE = "monitoring/exporter.html"
OFF = "The /metrics endpoint is off (Settings -> Prometheus metrics).\n"
NO_TOKEN = "Send the exporter's token: Authorization: Bearer <token>.\n"  # noqa: S105


def _bearer(request: HttpRequest) -> str:
    """The token of an `Authorization: Bearer <token>` header ("" when there is none)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


# Outside the session login, the roles, two-factor and CSRF (a GET; the middlewares pass views
# marked login_not_required) and the audit (reads are not recorded): the token is its guard.
@login_not_required
@require_GET
@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The panel's figures in Prometheus' text format: 404 while off, 401 without the token."""
    row = selectors.exporter_settings()
    if not row.enabled:
        return HttpResponse(OFF, status=404, content_type="text/plain")
    if not selectors.token_matches(row, _bearer(request)):
        response = HttpResponse(NO_TOKEN, status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="nasui metrics"'
        return response
    body = render_metrics(selectors.snapshot(time.time()))
    services.exporter_scraped()
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def _card(request: HttpRequest, new_token: str = "", status: int = 200) -> HttpResponse:
    """The card (htmx) or the page holding it."""
    scheme = "https" if request.is_secure() else "http"
    context = {"exporter": selectors.card(request.get_host(), scheme, new_token)}
    return render(request, template_for(request, PAGE, "card"), context, status=status)


def exporter(request: HttpRequest) -> HttpResponse:
    """The /metrics settings on a page of their own (the Settings page shows the same card)."""
    return _card(request)


@require_POST
def exporter_enabled(request: HttpRequest) -> HttpResponse:
    """Turn /metrics on or off."""
    form = ExporterForm(request.POST)
    form.is_valid()  # a missing or odd box is "off"
    services.exporter_update(enabled=form.cleaned_data.get("enabled", False))
    return _card(request)


@require_POST
@never_cache
def exporter_token(request: HttpRequest) -> HttpResponse:
    """Make a new token and show it this once."""
    _row, key = services.exporter_token_create()
    return _card(request, new_token=key)
