"""Celery tasks of SMART: refresh every disk's report and temperature, start scheduled tests."""

from __future__ import annotations

from celery import shared_task

from storage.smart import selectors, services


@shared_task(name="storage.smart_refresh", ignore_result=True)
def smart_refresh() -> None:
    """Read every disk's SMART (the page's cache and the temperature graph)."""
    selectors.smart_refresh()


@shared_task(name="storage.smart_test_check", ignore_result=True)
def smart_test_check() -> None:
    """Start the scheduled self-tests whose slot has come."""
    services.run_due_smart_tests()
