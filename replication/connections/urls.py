"""SSH connection URLs: the connections API."""

from __future__ import annotations

from django.urls import URLPattern

from replication.connections import api

urlpatterns: list[URLPattern] = []
api_routes = [("connections", api.SshConnectionViewSet, "ssh-connection")]
api_urlpatterns: list[URLPattern] = []
