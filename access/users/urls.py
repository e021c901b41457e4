"""Panel user URLs: the pages (at /access/users/) and the API (at /api/access/users/)."""

from __future__ import annotations

from django.urls import URLPattern, path

from access.users import api, views
from nasui.api.routes import Route

urlpatterns = [
    path("users/", views.user_list, name="users"),
    path("users/add/", views.user_form, name="user-add"),
    path("users/<int:pk>/", views.user_form, name="user-edit"),
    path("users/<int:pk>/delete/", views.user_delete, name="user-delete"),
]
api_routes: list[Route] = [("users", api.PanelUserViewSet, "panel-user")]
api_urlpatterns: list[URLPattern] = []
