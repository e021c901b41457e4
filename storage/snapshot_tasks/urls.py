"""Periodic snapshot task URLs: list, add, edit, delete; the tasks API."""

from __future__ import annotations

from django.urls import URLPattern, path

from storage.snapshot_tasks import api, views

urlpatterns = [
    path("snapshot-tasks/", views.task_list, name="snapshot-tasks"),
    path("snapshot-tasks/add/", views.task_create, name="snapshot-task-create"),
    path("snapshot-tasks/<int:pk>/edit/", views.task_edit, name="snapshot-task-edit"),
    path("snapshot-tasks/<int:pk>/delete/", views.task_delete, name="snapshot-task-delete"),
]
api_routes = [("snapshot-tasks", api.SnapshotTaskViewSet, "snapshot-task")]
api_urlpatterns: list[URLPattern] = []
