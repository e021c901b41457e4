"""Reads of the core app shared by pages and the API."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, QuerySet

from nasui.models import ApiToken, Job, PasswordChangeDue


def job_list() -> QuerySet[Job]:
    """All jobs, newest first."""
    return Job.objects.select_related("created_by")


def job_recent(limit: int = 5) -> QuerySet[Job]:
    """The latest few jobs, for the dashboard."""
    return job_list()[:limit]


def api_token_list(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens, active ones first."""
    return ApiToken.objects.filter(user=user).order_by(
        F("revoked_at").asc(nulls_first=True), "-created_at"
    )


def password_change_due(user: User | AnonymousUser) -> bool:
    """True while a signed-in user still has the password the machine chose for them."""
    if not user.is_authenticated:
        return False
    return PasswordChangeDue.objects.filter(user_id=user.pk).exists()
