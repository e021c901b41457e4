"""Advisor API routes (mounted at /api/advisor/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from advisor import api as views

router = DefaultRouter()
router.register("runs", views.RunViewSet, basename="run")
router.register("estimates", views.EstimateViewSet, basename="estimate")
router.register("benchmarks", views.BenchmarkViewSet, basename="benchmark")
router.register("fio", views.FioViewSet, basename="fio")
urlpatterns: list[URLPattern | URLResolver] = [
    path("compare/", views.CompareView.as_view(), name="compare"),
    path("sources/", views.SourcesView.as_view(), name="sources"),
    *router.urls,
]
