"""Two-factor URLs: each user's own page (at /access/two-factor/), the administrator's policy
and their turning it off for someone; the sign-in's code step is /login/code/ (nasui.urls)."""

from __future__ import annotations

from django.urls import URLPattern, path

from access.twofactor import views
from nasui.api.routes import Route

urlpatterns = [
    path("two-factor/", views.own_page, name="two-factor"),
    path("two-factor/<str:action>/", views.own_action, name="two-factor-action"),
    path("policy/two-factor/", views.policy_page, name="two-factor-policy"),
    path("users/<int:pk>/two-factor/off/", views.user_turn_off, name="two-factor-off"),
]
api_routes: list[Route] = []
api_urlpatterns: list[URLPattern] = []
