"""Replication task URLs: the tasks API."""

from __future__ import annotations

from django.urls import URLPattern

from replication.replications import api

urlpatterns: list[URLPattern] = []
api_routes = [("tasks", api.ReplicationTaskViewSet, "replication-task")]
api_urlpatterns: list[URLPattern] = []
