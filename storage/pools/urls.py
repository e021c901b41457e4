"""Pool URLs: the storage overview, create, import, a pool's page and its actions."""

from __future__ import annotations

from django.urls import URLPattern, path

from storage.pools import api, views

urlpatterns = [
    path("", views.index, name="index"),
    path("pools/create/", views.pool_create, name="pool-create"),
    path("pools/create/capacity/", views.pool_capacity, name="pool-capacity"),
    path("pools/import/", views.pool_import, name="pool-import"),
    path("pools/<str:name>/", views.pool_detail, name="pool"),
    path("pools/<str:name>/scrub/", views.pool_scrub, name="pool-scrub"),
    path("pools/<str:name>/export/", views.pool_export, name="pool-export"),
    path("pools/<str:name>/destroy/", views.pool_destroy, name="pool-destroy"),
]
api_routes = [("pools", api.PoolViewSet, "pool")]
api_urlpatterns: list[URLPattern] = []
