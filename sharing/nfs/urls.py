"""NFS URLs: exports and the server's settings, as pages and through the API."""

from __future__ import annotations

from django.urls import URLPattern, path

from nasui.api.routes import Route
from sharing.nfs import api, views

urlpatterns = [
    path("files/nfs/add/", views.nfs_share_form, name="nfs-share-add"),
    path("files/nfs/<int:pk>/", views.nfs_share_form, name="nfs-share-edit"),
    path("files/nfs/settings/", views.nfs_settings_page, name="nfs-settings"),
]
api_routes: list[Route] = [("nfs/shares", api.NfsShareViewSet, "nfs-share")]
api_urlpatterns: list[URLPattern] = [
    path("nfs/settings/", api.NfsSettingsView.as_view(), name="nfs-settings"),
]
