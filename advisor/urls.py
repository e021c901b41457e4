"""Advisor pages."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "advisor"

urlpatterns: list[URLPattern] = []
