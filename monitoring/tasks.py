"""Celery tasks of the monitoring app: sample every few seconds, roll up and prune every minute."""

from __future__ import annotations

from celery import shared_task

from monitoring import services


@shared_task(name="monitoring.sample", ignore_result=True)
def sample() -> None:
    """Run the collectors and store one batch."""
    services.sample_record()


@shared_task(name="monitoring.maintain", ignore_result=True)
def maintain() -> None:
    """Roll samples up into 1-minute, 15-minute and 3-hour summaries and prune old rows."""
    services.monitoring_maintain()


# The alert check lives with the alerting modules; importing it registers it with the worker.
from monitoring.alerting.tasks import alerts_evaluate  # noqa: E402

__all__ = ["alerts_evaluate", "maintain", "sample"]
