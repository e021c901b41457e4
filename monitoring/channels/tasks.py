"""The channels' round, started by name after each alert check."""

from __future__ import annotations

from celery import shared_task

from monitoring.channels.services import delivery


@shared_task(name="monitoring.channels_deliver", ignore_result=True)
def channels_deliver() -> None:
    """Queue the alert events due and send them through the channels."""
    delivery.deliver_pending()
