"""File-sharing URLs above the protocols: the overview, the wizards, a folder's owner."""

from __future__ import annotations

from django.urls import URLPattern, path

from nasui.api.routes import Route
from sharing.files import api, views

urlpatterns = [
    path("files/", views.files_index, name="files"),
    path("files/wizard/", views.share_wizard, name="files-wizard"),
    path("files/permissions/<path:dataset>/", views.permissions_page, name="permissions"),
    path("files/<str:kind>/<int:pk>/delete/", views.files_delete, name="files-delete"),
]
api_routes: list[Route] = []
api_urlpatterns: list[URLPattern] = [
    path("smb/wizard/", api.SmbShareWizardView.as_view(), name="smb-wizard"),
    path("wizard/", api.ShareWizardView.as_view(), name="share-wizard"),
    path("permissions/", api.PermissionsView.as_view(), name="permissions"),
]
