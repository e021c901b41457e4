"""UPS URLs: the page (at /system/ups/) and the API (at /api/system/ups/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.ups import api, views

urlpatterns = [path("ups/", views.ups_page, name="ups")]
api_routes: list[Route] = []
api_urlpatterns = [path("ups/", api.UpsView.as_view(), name="ups")]
