"""Sign-ins in the audit log: logins, failed logins (a wrong password or code), lock-outs,
sign-outs, and the tokens made from a user name and password."""

from __future__ import annotations

from typing import Any

from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver

from access.audit import services


def _sign_in(request: Any, user: Any, username: str, action: str, result: str) -> None:
    services.record(
        user=user,
        username=username,
        address=request.META.get("REMOTE_ADDR") if request is not None else None,
        via="sign-in",
        method=getattr(request, "method", "") or "",
        action=action,
        target="",
        path=getattr(request, "path", "") or "",
        result=result,
    )


@receiver(user_logged_in)
def logged_in(sender: Any, request: Any, user: Any, **_: Any) -> None:
    _sign_in(request, user, user.get_username(), "login", "done")


@receiver(user_login_failed)
def login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **_: Any) -> None:
    _sign_in(request, None, str(credentials.get("username", "")), "login", "refused")


@receiver(user_locked_out)
def locked_out(sender: Any, request: Any, username: str | None = None, **_: Any) -> None:
    _sign_in(request, None, username or "", "lock-out", "refused")


@receiver(user_logged_out)
def logged_out(sender: Any, request: Any, user: Any, **_: Any) -> None:
    if user is not None:
        _sign_in(request, user, user.get_username(), "logout", "done")
