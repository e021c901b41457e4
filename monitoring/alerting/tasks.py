"""The periodic alert check: evaluate every source, then send the mails that are due."""

from __future__ import annotations

import logging

from celery import shared_task

from monitoring.alerting.services import lifecycle, outbox
from nasui.health import record_worker_heartbeat

log = logging.getLogger(__name__)


@shared_task(name="monitoring.alerts_evaluate", ignore_result=True)
def alerts_evaluate() -> None:
    """Raise, refresh and clear alerts, then deliver their mails under the hourly limit."""
    # this task running proves a worker is alive: the worker alert must not rise from here
    record_worker_heartbeat()
    outcome = lifecycle.evaluate()
    for source, error in outcome.failed.items():
        log.warning("alert source %s could not answer: %s", source, error)
    outbox.deliver_pending()
