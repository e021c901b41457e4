"""Who may use the panel: until roles exist, its administrators only (Django's staff).

A signed-in user who is not an administrator gets a page (or, from the API, a 403) saying so:
the panel can destroy pools, and no one else may touch it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

ADMINISTRATORS_ONLY = "Only an administrator of this NAS may use its panel and its API."


def is_administrator(user: Any) -> bool:
    """A signed-in, active member of the staff."""
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


class AdministratorsOnlyMiddleware:
    """Refuse pages to signed-in users who are not administrators (the API checks on its own:
    its views are marked login_not_required and authenticate tokens themselves)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        """403 for a signed-in non-administrator on any page that needs a login."""
        if not getattr(view, "login_required", True):
            return None
        if request.user.is_authenticated and not is_administrator(request.user):
            context = {"message": ADMINISTRATORS_ONLY}
            return render(request, "registration/not_administrator.html", context, status=403)
        return None
