"""The beat's check of the backup schedule: a due slot (claimed once) writes one archive."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from storage.periodic import claimed_slots
from system.backup_schedules import selectors, services

log = logging.getLogger(__name__)


@shared_task(name="system.backup_due", ignore_result=True)
def backup_due() -> str:
    """Write the scheduled archive if its slot has come; the file written ("" if none)."""
    row = selectors.schedule_get()
    for _, _slot in claimed_slots([row], selectors.schedule_of, timezone.now()):
        try:
            return str(services.schedule_run(row))
        except Exception:  # kept on the row (last_error) for the page and the alert
            log.exception("the scheduled config backup failed")
    return ""
