"""Writes of signed-in sessions: note a sign-in, its last use, and end sessions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.core.exceptions import ValidationError

from access.sessions.models import SignedIn


def signed_in(*, user: Any, session_key: str, address: str | None, browser: str) -> None:
    """Note a new sign-in (the session key is the one login() made)."""
    SignedIn.objects.update_or_create(
        session_key=session_key,
        defaults={"user": user, "address": address or None, "browser": browser[:200]},
    )


def seen(*, session_key: str, at: datetime) -> None:
    """The session was used at `at`."""
    SignedIn.objects.filter(session_key=session_key).update(last_seen_at=at)


def session_renamed(*, old: str, new: str) -> None:
    """The session goes on under a new key (Django cycles it when the password changes)."""
    if old and new and old != new:
        SignedIn.objects.filter(session_key=old).update(session_key=new)


def session_end(*, user: Any, pk: int) -> SignedIn:
    """End one of `user`'s sessions: its browser is signed out at its next request."""
    row = SignedIn.objects.filter(pk=pk, user_id=user.pk).first()
    if row is None:
        raise ValidationError({"session": "No such session."})
    SessionStore(session_key=row.session_key).delete()
    row.delete()
    return row


def sessions_end(*, user: Any, keep: str = "") -> int:
    """End every session of `user` but the one with key `keep`; how many ended."""
    rows = SignedIn.objects.filter(user_id=user.pk).exclude(session_key=keep)
    count = 0
    for row in rows:
        SessionStore(session_key=row.session_key).delete()
        row.delete()
        count += 1
    return count
