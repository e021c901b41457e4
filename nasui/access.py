"""Who may use the panel: its users (each with a role, access.users), and only once they have
chosen their own password.

A signed-in user who is no panel user gets a page (or, from the API, a 403) saying so; one whose
role may not make a change gets a 403 page naming the rule, and the buttons for such changes
are not in the pages they see (access.users.controls). A user whose password the machine chose
(shown on the console) is sent to choose one first; the API refuses them meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode

from access.twofactor.selectors import setup_due
from access.users import controls
from access.users.engine import roles
from access.users.selectors import role_of, shared_dataset
from nasui import selectors

ADMINISTRATORS_ONLY = roles.NOT_A_PANEL_USER
ONLY_ADMINISTRATORS = "Only an administrator of this NAS may do this."
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
    """A signed-in, active user with the administrator's role."""
    return role_of(user) == roles.ADMIN


def is_panel_user(user: Any) -> bool:
    """A signed-in, active user with any role in the panel."""
    return role_of(user) is not None


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


class RolesMiddleware(LoginPageMiddleware):
    """Refuse pages to signed-in users without a role, and changes their role does not allow
    (the API checks on its own: its views are marked login_not_required and authenticate
    tokens themselves); strip the pages of the buttons for such changes."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        role = role_of(getattr(request, "user", None))
        if role not in (None, roles.ADMIN) and not request.path.startswith("/api/"):
            controls.strip_refused(request, response, role)
        return response

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        """403 for a signed-in user on a page their role may not use or change."""
        if not request.user.is_authenticated:
            return None
        role, method = role_of(request.user), request.method or "GET"
        shared = roles.about_a_dataset(role, method, request.path) and shared_dataset(
            request.resolver_match.kwargs if request.resolver_match else {}, request.POST
        )
        verdict = roles.may(role, method, request.path, shared_dataset=shared)
        if verdict.allowed:
            return None
        template = "registration/not_administrator.html"
        return render(request, template, {"message": verdict.reason}, status=403)


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


# What a user who must set up two-factor sign-in may still open: its page and the way out.
OPEN_WHILE_SETUP_DUE = frozenset(
    {"access:two-factor", "access:two-factor-action", "logout", "password_change"}
)
SET_UP_TWO_FACTOR_FIRST = (
    "Set up two-factor sign-in first: an administrator requires it for you (Settings →"
    " Two-factor sign-in in the panel)."
)


class TwoFactorSetupDueMiddleware(LoginPageMiddleware):
    """Send a user who must sign in with a code, and has none yet, to set it up (the API
    refuses them through nasui.api.permissions)."""

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        view_name = request.resolver_match.view_name if request.resolver_match else None
        if view_name in OPEN_WHILE_SETUP_DUE or not setup_due(request.user):
            return None
        return redirect("access:two-factor")
