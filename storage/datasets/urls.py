"""Dataset and zvol URLs: create, edit, delete; the datasets and zvols API."""

from __future__ import annotations

from django.urls import URLPattern, path

from storage.datasets import api, views

urlpatterns = [
    path("datasets/create/", views.dataset_create, name="dataset-create"),
    path("datasets/<path:name>/edit/", views.dataset_edit, name="dataset-edit"),
    path("datasets/<path:name>/delete/", views.dataset_delete, name="dataset-delete"),
    path("zvols/create/", views.zvol_create, name="zvol-create"),
    path("zvols/<path:name>/edit/", views.zvol_edit, name="zvol-edit"),
]
api_routes = [
    ("datasets", api.DatasetViewSet, "dataset"),
    ("zvols", api.ZvolViewSet, "zvol"),
]
api_urlpatterns: list[URLPattern] = []
