"""Metrics URLs: the live graphs and the alerts card as pages, and the monitoring API."""

from __future__ import annotations

from django.urls import path

from monitoring.metrics import api, views

urlpatterns = [
    path("", views.index, name="index"),
    path("alerts/", views.alerts, name="alerts"),
    path("pools/<str:name>/graphs/", views.pool_graphs, name="pool-graphs"),
]
api_urlpatterns = [
    path("", api.MonitoringRoot.as_view(), name="api-root"),
    path("current/", api.CurrentView.as_view(), name="current"),
    path("series/", api.SeriesView.as_view(), name="series"),
    path("alerts/", api.AlertsView.as_view(), name="alerts"),
]
