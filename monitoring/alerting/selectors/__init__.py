"""Reads of alerts shared by the pages, the API and the navigation badge."""

from __future__ import annotations

from django.db.models import QuerySet

from monitoring.models import AlertRecord

HISTORY_LENGTH = 100


def active() -> QuerySet[AlertRecord]:
    """Open alerts not dismissed, the worst first."""
    return AlertRecord.objects.filter(cleared_at=None, dismissed_at=None).order_by(
        "level", "-raised_at"
    )  # "danger" sorts before "warning"


def dismissed() -> QuerySet[AlertRecord]:
    """Open alerts the user has dismissed."""
    return AlertRecord.objects.filter(cleared_at=None).exclude(dismissed_at=None)


def history() -> QuerySet[AlertRecord]:
    """Cleared alerts, newest first."""
    return AlertRecord.objects.exclude(cleared_at=None).order_by("-cleared_at", "-id")


def badge_count() -> int:
    """Open, undismissed alerts: the number on the navigation entry."""
    return active().count()
