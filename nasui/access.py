"""Who may use the panel: until roles exist, its administrators only (Django's staff), and only
once they have chosen their own password.

A signed-in user who is not an administrator gets a page (or, from the API, a 403) saying so:
the panel can destroy pools, and no one else may touch it. An administrator whose password the
machine chose (shown on the console) is sent to choose one first; the API refuses them meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode

from nasui import selectors

ADMINISTRATORS_ONLY = "Only an administrator of this NAS may use its panel and its API."
CHOOSE_YOURS_FIRST = (
    "Choose your own password first: log in to the panel, which asks for it. The password this"
    " NAS made for you (shown on its screen) opens nothing else until then."
)
# What an administrator whose password is due may still open: the change itself and the way out.
# A box being rebuilt on a blank stick: its owner restores the config backup (which brings
# back their own password) without first choosing one to throw away.
RESTORE_VIEWS = ("system:restore", "system:restore-prepare", "system:restore-confirm",
                 "system:restore-cancel")  # fmt: skip
OPEN_WHILE_PASSWORD_DUE = frozenset({"password_change", "logout", *RESTORE_VIEWS})


def is_administrator(user: Any) -> bool:
    """A signed-in, active member of the staff."""
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


class LoginPageMiddleware:
    """Runs `refuse` before every view that needs a login (the others pass untouched)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        """The refusal for a view that needs a login, else None."""
        if not getattr(view, "login_required", True):
            return None
        return self.refuse(request)

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        """A response instead of the page, or None to let it through."""
        raise NotImplementedError


class AdministratorsOnlyMiddleware(LoginPageMiddleware):
    """Refuse pages to signed-in users who are not administrators (the API checks on its own:
    its views are marked login_not_required and authenticate tokens themselves)."""

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        """403 for a signed-in non-administrator on any page that needs a login."""
        if request.user.is_authenticated and not is_administrator(request.user):
            context = {"message": ADMINISTRATORS_ONLY}
            return render(request, "registration/not_administrator.html", context, status=403)
        return None


class PasswordChangeDueMiddleware(LoginPageMiddleware):
    """Send an administrator still on the machine's password to choose their own (the API
    refuses them through nasui.api.permissions)."""

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        """A redirect to the password page, keeping where the user was going."""
        view_name = request.resolver_match.view_name if request.resolver_match else None
        if view_name in OPEN_WHILE_PASSWORD_DUE or not selectors.password_change_due(request.user):
            return None
        going = {"next": request.get_full_path()} if request.method == "GET" else {}
        target = reverse("password_change") + ("?" + urlencode(going) if going else "")
        return redirect(target)
