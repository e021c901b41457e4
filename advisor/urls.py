"""Advisor pages: "Try it on my data"."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor import views

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
