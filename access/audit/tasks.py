"""The audit log's hourly pruning (beat starts it by name)."""

from __future__ import annotations

from celery import shared_task

from access.audit import services


@shared_task(name="access.audit_prune")
def audit_prune() -> int:
    """Remove the rows older than the kept days."""
    return services.prune()
