"""Session URLs: an administrator's view of a user's sessions (one's own are on Settings,
ended at /settings/sessions/<id>/end/, in nasui.urls)."""

from __future__ import annotations

from django.urls import URLPattern, path

from access.sessions import views
from nasui.api.routes import Route

urlpatterns = [path("users/<int:pk>/sessions/", views.user_sessions, name="user-sessions")]
api_routes: list[Route] = []
api_urlpatterns: list[URLPattern] = []
