"""SSH connection URLs: list, add, one connection and its actions; the connections API."""

from __future__ import annotations

from django.urls import URLPattern, path

from replication.connections import api, views

urlpatterns = [
    path("connections/", views.connection_list, name="connections"),
    path("connections/add/", views.connection_create, name="connection-create"),
    path("connections/pair/", views.connection_pair, name="connection-pair"),
    path("connections/<int:pk>/", views.connection_detail, name="connection"),
    path("connections/<int:pk>/rename/", views.connection_rename, name="connection-rename"),
    path("connections/<int:pk>/check/", views.connection_check, name="connection-check"),
    path("connections/<int:pk>/repin/", views.connection_repin, name="connection-repin"),
    path("connections/<int:pk>/delete/", views.connection_delete, name="connection-delete"),
]
api_routes = [("connections", api.SshConnectionViewSet, "ssh-connection")]
api_urlpatterns: list[URLPattern] = [
    path("pairing/", api.PairingView.as_view(), name="pairing"),
]
