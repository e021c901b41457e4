"""Who may use the API: a panel user who has chosen their own password, for what their role
allows (access.users.engine.roles; a read-only token acts as read-only whatever its owner)."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from access.twofactor.selectors import setup_due
from access.users.engine import roles
from access.users.selectors import role_of, shared_dataset
from nasui import selectors
from nasui.access import CHOOSE_YOURS_FIRST, SET_UP_TWO_FACTOR_FIRST
from nasui.models import ApiToken


class RoleAllows(BasePermission):
    """The request's user may use the panel, and their role (or token's) allows the request."""

    message = ""

    def has_permission(self, request: Request, view: Any) -> bool:
        role = role_of(request.user)
        if role is not None and isinstance(request.auth, ApiToken):
            role = roles.narrower(role, request.auth.read_only)
        method = request.method or "GET"
        shared = roles.about_a_dataset(role, method, request.path) and shared_dataset(
            getattr(view, "kwargs", {}) or {}, request.data
        )
        verdict = roles.may(role, method, request.path, shared_dataset=shared)
        if not verdict.allowed:
            self.message = verdict.reason
            return False
        if selectors.password_change_due(request.user):
            self.message = CHOOSE_YOURS_FIRST
            return False
        if setup_due(request.user):
            self.message = SET_UP_TWO_FACTOR_FIRST
            return False
        return True
