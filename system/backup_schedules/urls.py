"""Backup schedule URLs: its form on the backup page, and the API."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.backup_schedules import api, views

urlpatterns = [path("backup/schedule/", views.schedule_page, name="backup-schedule")]
api_routes: list[Route] = []
api_urlpatterns = [
    path("backup/schedule/", api.BackupScheduleView.as_view(), name="backup-schedule")
]
