"""Monitoring writes: store one sample per cycle, build rollups, prune old rows."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max

from monitoring import rollup
from monitoring.collectors import Sources, take_sample
from monitoring.models import Rollup, Sample
from monitoring.sources import local_sources

log = logging.getLogger(__name__)
COUNTERS_KEY = "monitoring:counters"
# Counters older than this give a misleading average (the worker was down): no rates then.
MAX_RATE_GAP = 120.0


def _compact(value: float) -> float | int:
    """Fewer digits in the JSON: whole numbers as ints, others to 4 decimals."""
    return int(value) if float(value).is_integer() else round(value, 4)


def _previous_counters(now: float) -> tuple[dict[str, int] | None, float]:
    """The last cycle's counters (kept in Redis) and how long ago they were read."""
    try:
        previous: dict[str, Any] | None = cache.get(COUNTERS_KEY)
    except Exception:  # without Redis there are no rates, but still a sample
        log.warning("monitoring: cannot read the previous counters", exc_info=True)
        return None, 0.0
    if not previous or not 0 < now - previous["t"] <= MAX_RATE_GAP:
        return None, 0.0
    return previous["counters"], now - previous["t"]


def _keep_counters(now: float, counters: dict[str, int]) -> None:
    """Keep this cycle's counters for the next cycle's rates."""
    try:
        cache.set(COUNTERS_KEY, {"t": now, "counters": counters}, timeout=int(MAX_RATE_GAP) * 2)
    except Exception:  # a sample without rates next time beats no sample
        log.warning("monitoring: cannot keep the counters", exc_info=True)


def sample_record(*, sources: Sources | None = None, now: float | None = None) -> Sample:
    """Run every collector once and store the batch as one row."""
    now = time.time() if now is None else now
    previous, seconds = _previous_counters(now)
    result = take_sample(sources or local_sources(), previous, seconds)
    _keep_counters(now, result.counters)
    values = {name: _compact(value) for name, value in result.values.items()}
    info = {"health": result.health, "unavailable": result.unavailable}
    return Sample.objects.create(t=now, values=values, info=info)


def _roll(resolution: int, start: float, end: int) -> int:
    """Summarize the finished buckets in [start, end) from the next finer level."""
    if resolution == Rollup.MINUTE:
        rows = Sample.objects.filter(t__gte=start, t__lt=end).values_list("t", "values")
        groups = rollup.group_by_bucket(rows, resolution)
        made = {t: rollup.summarize(g) for t, g in groups.items()}  # type: ignore[arg-type]
    else:
        finer = Rollup.objects.filter(resolution=Rollup.MINUTE, t__gte=start, t__lt=end)
        groups = rollup.group_by_bucket(finer.values_list("t", "values"), resolution)
        made = {t: rollup.merge(g) for t, g in groups.items()}  # type: ignore[arg-type]
    Rollup.objects.bulk_create(
        [Rollup(resolution=resolution, t=t, values=v) for t, v in made.items()],
        ignore_conflicts=True,
    )
    return len(made)


def rollups_build(*, now: float) -> int:
    """Summarize every finished minute and quarter-hour not summarized yet."""
    made = 0
    for resolution in (Rollup.MINUTE, Rollup.QUARTER):
        last = Rollup.objects.filter(resolution=resolution).aggregate(m=Max("t"))["m"]
        start = 0.0 if last is None else last + resolution
        made += _roll(resolution, start, rollup.bucket(now, resolution))
    return made


def samples_prune(*, now: float) -> int:
    """Delete raw samples older than an hour and rollups past their retention."""
    deleted = Sample.objects.filter(t__lt=now - rollup.RAW_KEEP).delete()[0]
    for resolution, keep in ((Rollup.MINUTE, rollup.MINUTE_KEEP), (900, rollup.QUARTER_KEEP)):
        old = Rollup.objects.filter(resolution=resolution, t__lt=now - keep)
        deleted += old.delete()[0]
    return deleted


def monitoring_maintain(*, now: float | None = None) -> tuple[int, int]:
    """Build the rollups, then prune: the database stays at a bounded size."""
    now = time.time() if now is None else now
    with transaction.atomic():
        made = rollups_build(now=now)
        pruned = samples_prune(now=now)
    return made, pruned
