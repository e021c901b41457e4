"""Config backup URLs: the pages (at /system/backup/ and /system/restore/) and the API (at
/api/system/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.backups import api, views

urlpatterns = [
    path("backup/", views.backup_page, name="backup"),
    path("backup/download/", views.backup_download, name="backup-download"),
    # The restore's pages are open on the first login too (nasui.access): a box being rebuilt
    # gets its owner's password back from the archive.
    path("restore/", views.restore_page, name="restore"),
    path("restore/check/", views.restore_prepare, name="restore-prepare"),
    path("restore/confirm/", views.restore_confirm, name="restore-confirm"),
    path("restore/cancel/", views.restore_cancel, name="restore-cancel"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("backup/", api.BackupView.as_view(), name="backup"),
    path("restore/inspect/", api.InspectView.as_view(), name="restore-inspect"),
    path("restore/", api.RestoreView.as_view(), name="restore"),
]
