"""The exporter's periodic work: keep the dataset figures a scrape reads (zfs list once a
minute, only while /metrics is on)."""

from __future__ import annotations

from celery import shared_task

from monitoring.exporter import services


@shared_task(name="monitoring.exporter_datasets", ignore_result=True)
def exporter_datasets() -> None:
    """Refresh the cached dataset listing."""
    services.exporter_datasets_refresh()
