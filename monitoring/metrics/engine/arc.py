"""The ZFS ARC from /proc/spl/kstat/zfs/arcstats: sizes as gauges, hits and misses as counters."""

from __future__ import annotations

from collections.abc import Mapping

from monitoring.metrics.engine.base import Metrics, Reading
from storage.zfs.parse import parse_arcstats

ARCSTATS = "/proc/spl/kstat/zfs/arcstats"
# Counters shown as rates (per second); the names are arcstats' own.
RATE_COUNTERS = (
    "hits",
    "misses",
    "demand_data_hits",
    "demand_data_misses",
    "demand_metadata_hits",
    "demand_metadata_misses",
)
L2_COUNTERS = ("l2_hits", "l2_misses")


def read_arcstats(text: str) -> Reading:
    """arcstats text -> arc.size, arc.target (c), arc.c_min, arc.c_max (+ L2ARC when present)."""
    stats = parse_arcstats(text)
    gauges: Metrics = {
        "arc.size": float(stats.size),
        "arc.target": float(stats.c),
        "arc.c_min": float(stats.c_min),
        "arc.c_max": float(stats.c_max),
    }
    names = list(RATE_COUNTERS)
    # An L2ARC (cache device) exists when it holds data or has ever been asked.
    if stats.l2_size or stats.l2_hits or stats.l2_misses:
        gauges["arc.l2_size"] = float(stats.l2_size)
        names += L2_COUNTERS
    counters = {f"arc.{name}": int(stats.raw.get(name, 0)) for name in names}
    return Reading(gauges=gauges, counters=counters)


def hit_ratio(deltas: Mapping[str, int]) -> Metrics:
    """Hit ratio in percent over the interval; nothing when the ARC was not asked at all."""
    hits, misses = deltas.get("arc.hits"), deltas.get("arc.misses")
    if hits is None or misses is None or hits + misses == 0:
        return {}
    return {"arc.hit_ratio": 100.0 * hits / (hits + misses)}
