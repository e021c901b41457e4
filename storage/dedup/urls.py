"""Dedup URLs: what dedup would cost, as a page and through the API."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from storage.dedup import api, views

urlpatterns = [
    path("dedup-estimate/", views.dedup_estimate, name="dedup-estimate"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("dedup-estimate/", api.DedupEstimateView.as_view(), name="dedup-estimate"),
]
