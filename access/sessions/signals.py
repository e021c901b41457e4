"""Sign-ins and sign-outs keep the list of where each user is signed in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver

from access.sessions import services
from access.sessions.models import SignedIn


@receiver(user_logged_in)
def noted(sender: Any, request: Any, user: Any, **_: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        services.signed_in(
            user=user,
            session_key=key,
            address=request.META.get("REMOTE_ADDR"),
            browser=request.META.get("HTTP_USER_AGENT", ""),
        )


@receiver(user_logged_out)
def gone(sender: Any, request: Any, user: Any, **_: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        SignedIn.objects.filter(session_key=key).delete()
