"""Clock URLs: the page (at /system/clock/) and the API (at /api/system/clock/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.clock import api, views

urlpatterns = [path("clock/", views.clock_page, name="clock")]
api_routes: list[Route] = []
api_urlpatterns = [path("clock/", api.ClockView.as_view(), name="clock")]
