"""Replication task URLs: list, add, one task (run, consent, edit, delete); the tasks API."""

from __future__ import annotations

from django.urls import URLPattern, path

from replication.replications import api, views

urlpatterns = [
    path("tasks/", views.task_list, name="tasks"),
    path("tasks/add/", views.task_create, name="task-create"),
    path("tasks/<int:pk>/", views.task_detail, name="task"),
    path("tasks/<int:pk>/edit/", views.task_edit, name="task-edit"),
    path("tasks/<int:pk>/run/", views.task_run, name="task-run"),
    path("tasks/<int:pk>/consent/", views.task_consent, name="task-consent"),
    path("tasks/<int:pk>/delete/", views.task_delete, name="task-delete"),
]
api_routes = [("tasks", api.ReplicationTaskViewSet, "replication-task")]
api_urlpatterns: list[URLPattern] = []
