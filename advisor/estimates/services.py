"""Writes of the advisor: starting an estimate of compression and dedup on the user's data."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError

from advisor.sources import Problems, check_sample, check_source, source_choices
from nasui import services as jobs
from nasui.models import Job

TIME_MIN = 5
TIME_MAX = 4 * 3600

__all__ = ["estimate_start", "source_choices"]


def estimate_start(
    *,
    user: User | AnonymousUser | None,
    source_kind: str,
    source: str,
    sample_bytes: int,
    time_seconds: int,
    run_zdb: bool = False,
) -> Job:
    """Check the input and queue an estimate of compression and dedup on it (cancellable)."""
    problems: Problems = {}
    resolved = check_source(problems, source_kind, source)
    check_sample(problems, sample_bytes)
    if not TIME_MIN <= time_seconds <= TIME_MAX:
        problems["time_seconds"] = [
            f"The time budget must be between {TIME_MIN} s and {TIME_MAX // 3600} hours."
        ]
    if run_zdb and resolved is not None and not resolved.pool:
        problems["run_zdb"] = ["zdb -S simulates dedup on a pool: pick a dataset or a zvol."]
    if problems:
        raise ValidationError(problems)
    arguments: dict[str, Any] = {
        "source_kind": source_kind,
        "source": source,
        "sample_bytes": sample_bytes,
        "time_seconds": time_seconds,
        "run_zdb": run_zdb,
    }
    return jobs.job_start(
        kind="advisor.estimate",
        title=f"Estimate compression and dedup on {source}",
        task="advisor.estimate",
        user=user,
        cancellable=True,
        **arguments,
    )
