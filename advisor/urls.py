"""Advisor URLs: "Try it on my data" pages (at /advisor/) and API (at /api/advisor/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from advisor import api, views

app_name = "advisor"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("estimate/", views.estimate_start, name="estimate-start"),
    path("benchmark/", views.benchmark_start, name="benchmark-start"),
    path("fio/", views.fio_start, name="fio-start"),
    path("runs/<int:pk>/", views.run_detail, name="run"),
    path("runs/<int:pk>/row/", views.run_row, name="run-row"),
    path("compare/", views.compare, name="compare"),
]

_router = DefaultRouter()
_router.register("runs", api.RunViewSet, basename="run")
_router.register("estimates", api.EstimateViewSet, basename="estimate")
_router.register("benchmarks", api.BenchmarkViewSet, basename="benchmark")
_router.register("fio", api.FioViewSet, basename="fio")
api_urlpatterns: list[URLPattern | URLResolver] = [
    path("compare/", api.CompareView.as_view(), name="compare"),
    path("sources/", api.SourcesView.as_view(), name="sources"),
    *_router.urls,
]
