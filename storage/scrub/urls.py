"""Scrub URLs: a pool's scrub schedule, as a page and through the API."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from storage.scrub import api, views

urlpatterns = [
    path("pools/<str:name>/scrub-schedule/", views.scrub_schedule, name="scrub-schedule"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path(
        "pools/<str:name>/scrub-schedule/",
        api.ScrubScheduleView.as_view(),
        name="scrub-schedule",
    ),
]
