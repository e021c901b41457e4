"""Exporter URLs: /metrics at the root, the settings card's page (under /monitoring/) and API
(under /api/monitoring/)."""

from __future__ import annotations

from django.urls import path

from monitoring.exporter import api, views

root_urlpatterns = [path("metrics", views.metrics, name="metrics")]
urlpatterns = [
    path("exporter/", views.exporter, name="exporter"),
    path("exporter/enabled/", views.exporter_enabled, name="exporter-enabled"),
    path("exporter/token/", views.exporter_token, name="exporter-token"),
]
api_urlpatterns = [
    path("exporter/", api.ExporterSettingsView.as_view(), name="exporter"),
    path("exporter/token/", api.ExporterTokenView.as_view(), name="exporter-token"),
]
