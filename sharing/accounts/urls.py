"""Local account URLs: users and groups, as pages and through the API."""

from __future__ import annotations

from django.urls import URLPattern, path

from nasui.api.routes import Route
from sharing.accounts import api, views

urlpatterns = [
    path("files/users/add/", views.user_form, name="user-add"),
    path("files/users/<int:pk>/", views.user_form, name="user-edit"),
    path("files/groups/add/", views.group_form, name="group-add"),
    path("files/groups/<int:pk>/", views.group_form, name="group-edit"),
]
api_routes: list[Route] = [
    ("users", api.LocalUserViewSet, "user"),
    ("groups", api.LocalGroupViewSet, "group"),
]
api_urlpatterns: list[URLPattern] = []
