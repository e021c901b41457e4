"""Monitoring pages: live graphs over a chosen range, and the alerts card (thin views)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from monitoring.metrics import selectors
from nasui.htmx import template_for


def _range(request: HttpRequest) -> str:
    """The ?range= asked for, or the default when absent or unknown."""
    key = request.GET.get("range", selectors.DEFAULT_RANGE)
    return key if key in selectors.RANGES else selectors.DEFAULT_RANGE


def index(request: HttpRequest) -> HttpResponse:
    """Every graph of the host and of each pool; htmx swaps only the graphs on a range change."""
    context = {
        **selectors.page_charts(_range(request)),
        "alerts": selectors.alert_list(settings.NASUI_DDT_ALERT_SHARE),
        "sample_ms": int(settings.NASUI_SAMPLE_SECONDS * 1000),
    }
    return render(request, template_for(request, "monitoring/index.html", "graphs"), context)


def pool_graphs(request: HttpRequest, name: str) -> HttpResponse:
    """One pool's graphs (the card on the pool page, swapped on a range change)."""
    context = {
        **selectors.page_charts(_range(request), pool=name),
        "pool_name": name,
        "sample_ms": int(settings.NASUI_SAMPLE_SECONDS * 1000),
    }
    return render(request, "monitoring/pool_graphs.html", context)


def alerts(request: HttpRequest) -> HttpResponse:
    """The alerts card alone, for polling."""
    found = selectors.alert_list(settings.NASUI_DDT_ALERT_SHARE)
    return render(request, "monitoring/_alerts.html", {"alerts": found})
