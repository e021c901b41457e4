"""Update URLs: the page (at /system/update/) and the API (at /api/system/update/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.updates import api, views

urlpatterns = [
    path("update/", views.update_page, name="update"),
    path("update/roll-back/", views.update_roll_back, name="update-roll-back"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("update/", api.UpdateView.as_view(), name="update"),
    path("update/roll-back/", api.RollBackView.as_view(), name="update-roll-back"),
]
