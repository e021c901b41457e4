"""Restore URLs: a task's restore form and test restore, and the same through the API."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from replication.restores import api, views

urlpatterns = [
    path("tasks/<int:pk>/restore/", views.restore, name="task-restore"),
    path("tasks/<int:pk>/test-restore/", views.restore_test, name="task-test-restore"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("tasks/<int:pk>/restore/", api.RestoreView.as_view(), name="task-restore"),
    path("tasks/<int:pk>/test-restore/", api.RestoreTestView.as_view(), name="task-test-restore"),
]
