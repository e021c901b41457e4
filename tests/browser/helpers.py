"""Small helpers shared by the browser tests."""

from __future__ import annotations


def wait_for_jobs(page) -> None:
    """Wait until every job row on the page has succeeded (rows update live over htmx)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('tr[data-status]')].every("
        "r => r.dataset.status === 'succeeded')",
        timeout=30_000,
    )
