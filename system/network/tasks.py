"""The network's worker half: a change on probation put in force after its answer has left,
and the beat's undoing of a change nobody confirmed in time."""

from __future__ import annotations

import time

from celery import shared_task

from system.network import services


@shared_task(name="system.network_apply", ignore_result=True)
def network_apply(names: list[str], delay: float = 0.0) -> bool:
    """Put the pending change in force, `delay` seconds from now: the answer to the request
    that made it must have left through the address it may take away."""
    time.sleep(delay)
    return services.network_apply_pending(names)


@shared_task(name="system.network_revert_due", ignore_result=True)
def network_revert_due() -> bool:
    """Undo the pending change if its confirmation is overdue."""
    return services.network_revert_due()
