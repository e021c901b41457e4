"""Monitoring writes: store one sample per cycle, build rollups, prune old rows."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max

from monitoring.metrics.engine import Sources, rollup, take_sample
from monitoring.metrics.engine.pool_io import IOSTAT_INTERVAL
from monitoring.metrics.selectors import COUNTERS_KEY
from monitoring.models import Rollup, Sample
from nasui import events
from storage.engine import get_engine
from storage.smart.selectors import cached_temperatures

log = logging.getLogger(__name__)
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
    info = {"health": result.health, "disks": result.disks, "unavailable": result.unavailable}
    before = Sample.objects.order_by("-t").values_list("info", flat=True).first()
    sample = Sample.objects.create(t=now, values=values, info=info)
    _announce_pool_changes((before or {}).get("health", {}), result.health)
    return sample


def _announce_pool_changes(before: dict[str, str], now: dict[str, str]) -> None:
    """Tell the event stream of each pool whose health changed, came or went since last cycle."""
    for pool in sorted(set(before) | set(now)):
        if before.get(pool) != now.get(pool):
            events.publish(
                "pool", pool=pool, health=now.get(pool, "GONE"), was=before.get(pool, "")
            )


@dataclass(frozen=True)
class Level:
    """A rollup level: its bucket width, the finer level it is built from (0 = raw), retention."""

    resolution: int
    source: int
    keep: int


# Built in this order: a coarser bucket is summarized in the same pass that finishes the finer
# buckets inside it, so it never misses its last minutes.
LEVELS = (
    Level(Rollup.MINUTE, 0, rollup.MINUTE_KEEP),
    Level(Rollup.QUARTER, Rollup.MINUTE, rollup.QUARTER_KEEP),
    Level(Rollup.HOURS, Rollup.QUARTER, rollup.HOURS_KEEP),
)


def _summaries(level: Level, start: float, end: int) -> dict[int, dict[str, rollup.Summary]]:
    """The buckets of `level` in [start, end), summarized from raw samples or merged rollups."""
    if not level.source:
        rows = Sample.objects.filter(t__gte=start, t__lt=end).values_list("t", "values")
        groups = rollup.group_by_bucket(rows, level.resolution)
        return {t: rollup.summarize(g) for t, g in groups.items()}  # type: ignore[arg-type]
    finer = Rollup.objects.filter(resolution=level.source, t__gte=start, t__lt=end)
    groups = rollup.group_by_bucket(finer.values_list("t", "values"), level.resolution)
    return {t: rollup.merge(g) for t, g in groups.items()}  # type: ignore[arg-type]


def _roll(level: Level, start: float, end: int) -> int:
    """Store the finished buckets of `level` in [start, end); returns how many."""
    made = _summaries(level, start, end)
    Rollup.objects.bulk_create(
        [Rollup(resolution=level.resolution, t=t, values=v) for t, v in made.items()],
        ignore_conflicts=True,
    )
    return len(made)


def rollups_build(*, now: float) -> int:
    """Summarize every finished bucket of every level not summarized yet."""
    made = 0
    for level in LEVELS:
        last = Rollup.objects.filter(resolution=level.resolution).aggregate(m=Max("t"))["m"]
        start = 0.0 if last is None else last + level.resolution
        # a level new after an upgrade starts at its retention horizon, not at the epoch
        start = max(start, rollup.bucket(now - level.keep, level.resolution))
        made += _roll(level, start, rollup.bucket(now, level.resolution))
    return made


def samples_prune(*, now: float) -> int:
    """Delete raw samples older than an hour and rollups past their retention."""
    deleted = Sample.objects.filter(t__lt=now - rollup.RAW_KEEP).delete()[0]
    for level in LEVELS:
        old = Rollup.objects.filter(resolution=level.resolution, t__lt=now - level.keep)
        deleted += old.delete()[0]
    return deleted


def monitoring_maintain(*, now: float | None = None) -> tuple[int, int]:
    """Build the rollups, then prune: the database stays at a bounded size."""
    now = time.time() if now is None else now
    with transaction.atomic():
        made = rollups_build(now=now)
        pruned = samples_prune(now=now)
    return made, pruned


# Gauges other apps measure, registered when they start (the system app's UPS): monitoring
# samples and graphs them without knowing those apps.
_extra_sources: dict[str, Callable[[], dict[str, float]]] = {}


def register_source(name: str, read: Callable[[], dict[str, float]]) -> None:
    """Sample `read()`'s gauges with every cycle ({} when there is nothing to measure)."""
    _extra_sources[name] = read


def local_sources() -> Sources:
    """Sources for the sampler: the real /proc files and the configured ZFS engine."""
    engine = get_engine()
    return Sources(
        pools=engine,
        iostat=lambda: engine.pool_iostat(IOSTAT_INTERVAL),
        disk_temperatures=cached_temperatures,
        extra=dict(_extra_sources),
    )
