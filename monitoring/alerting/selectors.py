"""Reads of alerts shared by the pages, the API and the navigation badge."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import QuerySet

from monitoring.alerting import lifecycle
from monitoring.alerting.models import AlertRecord

HISTORY_LENGTH = 100
WORKER_CHECK_KEY = "alerting-worker-check"
WORKER_CHECK_SECONDS = 30


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


def refresh_worker_alert() -> None:
    """Check the worker from the web side too: a dead worker cannot raise its own alert.

    At most once per WORKER_CHECK_SECONDS; its mail goes out when a worker runs again.
    """
    try:
        due = cache.add(WORKER_CHECK_KEY, 1, WORKER_CHECK_SECONDS)
    except Exception:  # Redis down: that is just what the worker alert should say
        due = True
    if due:
        lifecycle.evaluate(only={"worker"})
