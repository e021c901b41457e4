"""Snapshot URLs: list, take, destroy, roll back, clone, compare; the snapshots API."""

from __future__ import annotations

from django.urls import URLPattern, path

from storage.snapshots import api, views

urlpatterns = [
    path("snapshots/", views.snapshot_list, name="snapshots"),
    path("snapshots/create/", views.snapshot_create, name="snapshot-create"),
    path("snapshots/destroy/", views.snapshot_destroy, name="snapshot-destroy"),
    path("snapshots/destroy-range/", views.snapshot_destroy_range, name="snapshot-range"),
    path("snapshots/<path:name>/rollback/", views.snapshot_rollback, name="snapshot-rollback"),
    path("snapshots/<path:name>/clone/", views.snapshot_clone, name="snapshot-clone"),
    path("snapshots/<path:name>/diff/", views.snapshot_diff, name="snapshot-diff"),
]
api_routes = [("snapshots", api.SnapshotViewSet, "snapshot")]
api_urlpatterns: list[URLPattern] = []
