"""SMB URLs: the service, its settings and shares, as pages and through the API."""

from __future__ import annotations

from django.urls import URLPattern, path

from nasui.api.routes import Route
from sharing.smb import api, views

urlpatterns = [
    path("files/service/<str:action>/", views.smb_service_control, name="smb-service"),
    path("files/settings/", views.smb_settings_page, name="smb-settings"),
    path("files/shares/add/", views.share_form, name="smb-share-add"),
    path("files/shares/<int:pk>/", views.share_form, name="smb-share-edit"),
]
api_routes: list[Route] = [("smb/shares", api.SmbShareViewSet, "smb-share")]
api_urlpatterns: list[URLPattern] = [
    path("smb/settings/", api.SmbSettingsView.as_view(), name="smb-settings"),
]
