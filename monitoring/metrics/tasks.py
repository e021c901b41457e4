"""Metrics' periodic work: sample every few seconds, roll up and prune every minute."""

from __future__ import annotations

from celery import shared_task

from monitoring.metrics import services


@shared_task(name="monitoring.sample", ignore_result=True)
def sample() -> None:
    """Run the collectors and store one batch."""
    services.sample_record()


@shared_task(name="monitoring.maintain", ignore_result=True)
def maintain() -> None:
    """Roll samples up into 1-minute, 15-minute and 3-hour summaries and prune old rows."""
    services.monitoring_maintain()
