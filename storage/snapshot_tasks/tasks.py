"""Beat's run of the periodic snapshot tasks whose slot has come."""

from __future__ import annotations

from celery import shared_task

from storage.snapshot_tasks.services import run_due_tasks


@shared_task(name="storage.periodic_snapshots", ignore_result=True)
def periodic_snapshots() -> list[str]:
    """Run the periodic snapshot tasks whose slot has come (a missed one once, at start)."""
    return run_due_tasks()
