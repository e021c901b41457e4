"""Monitoring reads shared by pages and the API: the latest sample, series over a range."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.fields.json import KeyTransform
from django.db.models.sql.compiler import SQLCompiler

from monitoring.metrics.engine import alerts, charts, rollup
from monitoring.metrics.engine.labels import describe_unavailable, label_of
from monitoring.metrics.engine.units import unit_of
from monitoring.models import Rollup, Sample


@dataclass(frozen=True)
class Range:
    """A graph range: how far back, and which table answers it (0 = raw samples)."""

    key: str
    label: str
    seconds: int
    resolution: int


RANGES = {
    r.key: r
    for r in (
        Range("10m", "10 min", 600, 0),
        Range("1h", "1 hour", 3600, 0),
        Range("1d", "1 day", 86400, Rollup.MINUTE),
        Range("1w", "1 week", 7 * 86400, Rollup.QUARTER),
        Range("1y", "1 year", 365 * 86400, Rollup.HOURS),
    )
}
DEFAULT_RANGE = "10m"
MAX_POINTS = 720  # more than a chart is wide: neighbours are averaged beyond that
# The last sampling cycle's raw counters ({"t": ..., "counters": {...}}), kept for the next
# cycle's rates (and read as counters by the /metrics exporter).
COUNTERS_KEY = "monitoring:counters"


def latest_sample() -> Sample | None:
    """The newest stored sample."""
    return Sample.objects.order_by("-t").first()


def latest_counters() -> dict[str, int]:
    """The raw counters of the last sampling cycle (ARC hits and misses, CPU ticks...), or {}
    when none are kept (no worker lately, or no cache)."""
    try:
        kept: dict[str, Any] | None = cache.get(COUNTERS_KEY)
    except Exception:  # a scrape without counters beats a failed scrape
        return {}
    return dict(kept["counters"]) if kept else {}


def current() -> dict[str, Any]:
    """The newest sample as plain data: time, age, values with units, health, unavailable."""
    sample = latest_sample()
    if sample is None:
        return {"t": None, "age_seconds": None, "values": {}, "units": {}, "health": {},
                "unavailable": {}}  # fmt: skip
    return {
        "t": sample.t,
        "age_seconds": max(time.time() - sample.t, 0.0),
        "values": sample.values,
        "units": {name: unit_of(name) for name in sample.values},
        "health": sample.info.get("health", {}),
        "unavailable": sample.info.get("unavailable", {}),
    }


def pool_names() -> list[str]:
    """Pools seen in the newest sample."""
    sample = latest_sample()
    return sorted(sample.info.get("health", {})) if sample else []


class JsonNumber(KeyTransform):
    """A number inside a JSON column, read with one JSON_EXTRACT on SQLite.

    Django's KeyTransform there also asks JSON_TYPE first (to tell JSON true/false/null from
    text), which parses every row's JSON twice per metric; a metric's value is a number or
    absent. Other databases keep KeyTransform's SQL.
    """

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> Any:
        """JSON_EXTRACT(column, path): NULL when the metric is absent."""
        lhs, params, keys = self.preprocess_lhs(compiler, connection)
        return f"JSON_EXTRACT({lhs}, %s)", (*params, _json_path(keys))


def _json_path(keys: list[str]) -> str:
    """$."name"[1]: keys as quoted members, whole numbers as array indexes."""
    return "$" + "".join(f"[{k}]" if k.isdigit() else f".{json.dumps(k)}" for k in keys)


def _points(
    metrics: list[str], start: float, resolution: int
) -> dict[str, list[tuple[float, float | None]]]:
    """(t, value) per metric from raw samples, or (bucket start, average) from rollups."""
    aliases = {f"m{i}": name for i, name in enumerate(metrics)}
    if resolution:
        rows: Any = Rollup.objects.filter(resolution=resolution, t__gt=start)
        # [min, avg, max, n]: index 1 is the average, extracted by the database
        exprs = {a: JsonNumber("1", KeyTransform(n, "values")) for a, n in aliases.items()}
    else:
        rows = Sample.objects.filter(t__gt=start)
        exprs = {a: JsonNumber(n, "values") for a, n in aliases.items()}
    table = rows.order_by("t").annotate(**exprs).values_list("t", *aliases)
    out: dict[str, list[tuple[float, float | None]]] = {name: [] for name in metrics}
    for row in table:
        for name, value in zip(metrics, row[1:], strict=True):
            out[name].append((float(row[0]), value))
    return out


def series(metrics: list[str], range_key: str, since: float | None = None) -> dict[str, Any]:
    """Points of each metric over a range (raw or rollup), only those after `since` if given."""
    chosen = RANGES[range_key]
    start = time.time() - chosen.seconds
    if since is not None:
        start = max(start, since)
    points = _points(metrics, start, chosen.resolution)
    return {
        "range": chosen.key,
        "resolution": chosen.resolution,
        "seconds": chosen.seconds,
        "series": [
            {"metric": name, "label": label_of(name), "unit": unit_of(name),
             "points": rollup.downsample(points[name], MAX_POINTS)}
            for name in metrics
        ],
    }  # fmt: skip


# A growth rate measured over less than this is noise (a single transaction group).
MIN_GROWTH_WINDOW = 300.0


def alert_list(share: float) -> list[dict[str, str]]:
    """Alerts from the newest sample, with DDT growth measured over the raw hour."""
    newest = latest_sample()
    if newest is None:
        return []
    values, health = newest.values, newest.info.get("health", {})
    pools = sorted(health)
    oldest = Sample.objects.filter(t__lte=newest.t - MIN_GROWTH_WINDOW).order_by("t").first()
    growth = (
        alerts.growth_per_second(values, oldest.values, newest.t - oldest.t, pools)
        if oldest
        else {}
    )
    found = [
        *alerts.pool_alerts(values, health, newest.info.get("disks")),
        *alerts.swap_alert(values),
        *alerts.ddt_alerts(values, pools, share, growth),
    ]
    return [alert.as_dict() for alert in found]


def page_charts(
    range_key: str, *, pool: str | None = None, dashboard: bool = False
) -> dict[str, Any]:
    """Charts for a page (the monitoring page, the dashboard, or one pool's page)."""
    now = current()
    unavailable, values = now["unavailable"], now["values"]
    if pool is not None:
        host: tuple[charts.Chart, ...] = ()
        pools = {pool: charts.pool_charts(pool)}
    else:
        host = charts.DASHBOARD_CHARTS if dashboard else charts.HOST_CHARTS
        if not dashboard and "ups.charge" in values:
            host += charts.UPS_CHARTS
        pools = {p: charts.pool_charts(p, brief=dashboard) for p in pool_names()}
    return {
        "range": range_key,
        "ranges": list(RANGES.values()),
        "host_charts": charts.chart_context(host, range_key, unavailable, values),
        "pool_charts": {
            p: charts.chart_context(c, range_key, unavailable, values) for p, c in pools.items()
        },
        "unavailable": describe_unavailable(unavailable),
    }
