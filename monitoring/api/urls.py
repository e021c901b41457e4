"""The monitoring API (mounted at /api/monitoring/)."""

from django.urls import path

from monitoring.api import views

urlpatterns = [
    path("", views.MonitoringRoot.as_view(), name="api-root"),
    path("current/", views.CurrentView.as_view(), name="current"),
    path("series/", views.SeriesView.as_view(), name="series"),
    path("alerts/", views.AlertsView.as_view(), name="alerts"),
]
