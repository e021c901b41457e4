"""Who may use the API: an administrator who has chosen their own password (nasui.access)."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request

from nasui import selectors
from nasui.access import ADMINISTRATORS_ONLY, CHOOSE_YOURS_FIRST


class IsAdministrator(IsAdminUser):
    """Staff only, as Django's IsAdminUser, and not while the machine's password is theirs."""

    message = ADMINISTRATORS_ONLY

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        if selectors.password_change_due(request.user):
            self.message = CHOOSE_YOURS_FIRST
            return False
        return True
