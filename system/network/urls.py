"""Network URLs: the pages (at /system/network/) and the API (at /api/system/network/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.network import api, views

urlpatterns = [
    path("network/", views.network_page, name="network"),
    path("network/confirm/<str:token>/", views.network_confirm_page, name="network-confirm"),
    path("network/undo/", views.network_undo, name="network-undo"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("network/", api.NetworkView.as_view(), name="network"),
    path("network/confirm/", api.NetworkConfirmView.as_view(), name="network-confirm"),
    path("network/undo/", api.NetworkUndoView.as_view(), name="network-undo"),
]
