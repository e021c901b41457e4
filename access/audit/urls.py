"""Audit log URLs: the page (at /access/audit/), its CSV, and the API (/api/access/audit/)."""

from __future__ import annotations

from django.urls import URLPattern, path

from access.audit import api, views
from nasui.api.routes import Route

urlpatterns = [
    path("audit/", views.audit_page, name="audit"),
    path("audit/export.csv", views.audit_csv, name="audit-csv"),
    path("audit/keep/", views.keep_page, name="audit-keep"),
]
api_routes: list[Route] = [("audit", api.AuditEntryViewSet, "audit-entry")]
api_urlpatterns: list[URLPattern] = []
