"""Reads of signed-in sessions: a user's live ones (Django's session not ended or expired)."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from access.sessions.models import SignedIn


def sessions_of(user: Any) -> QuerySet[SignedIn]:
    """The user's sessions that still open the panel, last seen first (the ended are dropped)."""
    rows = SignedIn.objects.filter(user_id=user.pk)
    live = Session.objects.filter(
        session_key__in=rows.values("session_key"), expire_date__gt=timezone.now()
    ).values("session_key")
    rows.exclude(session_key__in=live).delete()
    return SignedIn.objects.filter(user_id=user.pk)
