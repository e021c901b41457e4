"""Writes of the audit log: a row per change or sign-in, and pruning what is older than kept."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from access.audit.models import AuditEntry, AuditSettings

RESULTS = {2: AuditEntry.Result.DONE, 3: AuditEntry.Result.DONE, 4: AuditEntry.Result.REFUSED}


def result_of(status: int) -> str:
    """done (2xx, 3xx), refused (4xx: the rule, the input or the role said no), failed (5xx)."""
    return RESULTS.get(status // 100, AuditEntry.Result.FAILED)


def record(
    *,
    user: Any,
    username: str,
    address: str | None,
    via: str,
    method: str,
    action: str,
    target: str,
    path: str,
    result: str,
    status: int | None = None,
) -> AuditEntry:
    """One row, its fields cut to their columns' lengths."""
    return AuditEntry.objects.create(
        user=user if getattr(user, "pk", None) else None,
        username=username[:150],
        address=address or None,
        via=via,
        method=method[:8],
        action=action[:120],
        target=target[:300],
        path=path[:500],
        result=result,
        status=status,
    )


def prune(now: Any = None) -> int:
    """Remove the rows older than the kept days; how many went."""
    keep = AuditSettings.load().keep_days
    cutoff = (now or timezone.now()) - timedelta(days=keep)
    deleted, _ = AuditEntry.objects.filter(at__lt=cutoff).delete()
    return deleted


def keep_days_set(*, keep_days: int) -> AuditSettings:
    """How long rows are kept (1 to 3650 days)."""
    if not 1 <= keep_days <= 3650:
        raise ValidationError({"keep_days": "Keep the log from 1 to 3650 days."})
    row = AuditSettings.load()
    row.keep_days = keep_days
    row.save(update_fields=["keep_days"])
    return row
