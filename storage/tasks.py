"""Storage's Celery tasks: the sandbox's space rescan here, every sub-domain's by import.

The worker finds tasks in each app's `tasks` module; the sub-domains' own are imported here
so that it registers them too (they are started by name, never imported by services).
"""

from __future__ import annotations

from celery import shared_task

from storage.disks import tasks as disks  # noqa: F401
from storage.engine import get_engine
from storage.ownership import tasks as ownership  # noqa: F401
from storage.pools import tasks as pools  # noqa: F401
from storage.scrub import tasks as scrub  # noqa: F401
from storage.smart import tasks as smart  # noqa: F401
from storage.snapshot_tasks import tasks as snapshot_tasks  # noqa: F401


@shared_task(name="storage.sandbox_rescan", ignore_result=True)
def sandbox_rescan() -> None:
    """Recompute the sandbox's space figures from what was written since the last scan."""
    get_engine().settle()
