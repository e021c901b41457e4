#!/usr/bin/env python3
"""What monitoring costs: CPU per sampling cycle, rows after a simulated year, series latency.

    .venv/bin/python bench/monitoring_cost.py              # this host (sandbox engine, no ZFS)
    .venv/bin/python bench/monitoring_cost.py --pools 4    # with four sandbox pools sampled

Uses a throw-away data directory (SQLite in WAL mode, as the panel runs) and a local-memory
cache. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PERIOD = 2.0  # seconds between samples, the default NASUI_SAMPLE_SECONDS
CYCLES = 200
REPEATS = 7
EARLIER_DAYS = 358  # the year before the simulated week
LEVEL_NAMES = {0: "raw", 60: "1-min", 900: "15-min", 10800: "3-hour"}
# What a range read before the 3-hour level existed, timed too for the ratio in the same run.
EARLIER_LEVEL = {"1y": 900}


def setup_django(pools: int) -> None:
    """Settings on a temporary data dir, migrated, with sandbox pools to sample."""
    data = tempfile.mkdtemp(prefix="nasui-bench-")
    os.environ.update(NASUI_DATA_DIR=data, NASUI_ZFS_ENGINE="sandbox", NASUI_HTTPS="0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.management import call_command

    from storage.engine import get_engine
    from storage.zfs.base import PoolLayout

    call_command("migrate", verbosity=0)
    engine = get_engine()
    disks = engine.list_disks()
    for i, disk in enumerate(d.name for d in disks[:pools]):
        engine.create_pool(f"pool{i}", PoolLayout.single("stripe", [disk]))


def bench_cycle() -> dict[str, float]:
    """CPU and wall time of one sampling cycle: collectors alone, and with the row stored."""
    from monitoring.metrics.sources import local_sources

    from monitoring.metrics import services
    from monitoring.metrics.engine import take_sample

    sources = local_sources()
    collect_cpu, cycle_cpu, cycle_wall = [], [], []
    for _ in range(CYCLES):
        c0 = time.process_time()
        take_sample(sources)
        collect_cpu.append(time.process_time() - c0)
        c0, w0 = time.process_time(), time.perf_counter()
        services.sample_record(sources=sources)
        cycle_cpu.append(time.process_time() - c0)
        cycle_wall.append(time.perf_counter() - w0)
    cpu = statistics.median(cycle_cpu)
    return {
        "collect_cpu_ms": statistics.median(collect_cpu) * 1000,
        "cycle_cpu_ms": cpu * 1000,
        "cycle_wall_ms": statistics.median(cycle_wall) * 1000,
        "core_percent": 100 * cpu / PERIOD,
    }


def _quarter_summary(template: dict[str, float]) -> dict[str, list[float]]:
    """A quarter-hour rollup as maintenance would store it: 450 jittered samples summarized."""
    from monitoring.metrics.engine import rollup

    n = int(900 / PERIOD)
    # spread over +-20% in a scrambled order: averages with as many digits as real ones have
    samples = [
        {name: value * (0.8 + 0.4 * (i * 7919 % n) / n) for name, value in template.items()}
        for i in range(n)
    ]
    return rollup.summarize(samples)


def _simulate_earlier(start: float, template: dict[str, float]) -> None:
    """The 51 weeks before `start` as the quarter-hour rows their maintenance left behind.

    Their raw samples and minute rows are long pruned; writing the quarter-hours directly saves
    ~45 minutes of simulated sampling. Maintenance runs after each day, as the beat would.
    """
    from monitoring.metrics import services
    from monitoring.metrics.engine import rollup
    from monitoring.models import Rollup

    summary = _quarter_summary(template)
    # ends where the quarter-hour holding `start` begins: the week's own minute rows build it
    first = rollup.bucket(start, Rollup.QUARTER) - EARLIER_DAYS * 86400
    for day in range(EARLIER_DAYS):
        base = int(first + day * 86400)
        Rollup.objects.bulk_create(
            Rollup(resolution=Rollup.QUARTER, t=base + i * 900, values=summary) for i in range(96)
        )
        services.monitoring_maintain(now=base + 86400)


def _simulate_week(start: float, template: dict[str, float]) -> None:
    """A week of 2 s samples from `start`, with maintenance after each hour."""
    from monitoring.metrics import services
    from monitoring.models import Sample

    per_hour = int(3600 / PERIOD)
    for hour in range(7 * 24):
        base = start + hour * 3600
        Sample.objects.bulk_create(
            Sample(t=base + i * PERIOD, values=template, info={}) for i in range(per_hour)
        )
        services.monitoring_maintain(now=base + 3600)


def simulate_year() -> dict[str, float]:
    """A year of monitoring: 51 weeks of quarter-hour rollups, then a week of 2 s samples."""
    from django.db import connection

    from monitoring.models import Rollup, Sample

    template = dict(Sample.objects.order_by("-t").values_list("values", flat=True)[0])
    Sample.objects.all().delete()
    start = time.time() - 7 * 86400  # the week ends now: the raw hour is there to read
    w0 = time.perf_counter()
    _simulate_earlier(start, template)
    w1 = time.perf_counter()
    _simulate_week(start, template)
    w2 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = Path(connection.settings_dict["NAME"])
    rows = {r: Rollup.objects.filter(resolution=r).count() for r, _ in Rollup.RESOLUTIONS}
    return {
        "samples_per_week": 7 * 24 * int(3600 / PERIOD),
        "raw_rows": Sample.objects.count(),
        "minute_rows": rows[Rollup.MINUTE],
        "quarter_rows": rows[Rollup.QUARTER],
        "hours_rows": rows[Rollup.HOURS],
        "db_mib": db.stat().st_size / 2**20,
        "metrics_per_sample": len(template),
        "earlier_s": w1 - w0,
        "week_s": w2 - w1,
        "end": start + 7 * 86400,
    }


def _time_series(metrics: list[str], key: str, resolution: int | None = None) -> tuple[float, int]:
    """Median ms of series() over a range (at another level if given), and its points."""
    from monitoring.metrics import selectors

    chosen = selectors.RANGES[key]
    if resolution is not None:
        chosen = dataclasses.replace(chosen, resolution=resolution)
    times = []
    with mock.patch.dict(selectors.RANGES, {key: chosen}):
        for _ in range(REPEATS):
            w0 = time.perf_counter()
            body = selectors.series(metrics, key)
            times.append(time.perf_counter() - w0)
    return statistics.median(times) * 1000, len(body["series"][0]["points"])


def bench_series() -> list[dict[str, Any]]:
    """Latency of the series read behind /api/monitoring/series/, every range, 3 metrics."""
    from monitoring.metrics import selectors

    metrics = ["cpu.user", "cpu.system", "cpu.iowait"]
    out = []
    for key, chosen in selectors.RANGES.items():
        ms, points = _time_series(metrics, key)
        row = {"key": key, "level": chosen.resolution, "ms": ms, "points": points}
        if key in EARLIER_LEVEL:
            row["before_ms"], row["before_points"] = _time_series(metrics, key, EARLIER_LEVEL[key])
        out.append(row)
    return out


def bench_upgrade(end: float) -> dict[str, float]:
    """The first maintenance after migrating: the 3-hour level built from a year of quarters."""
    from monitoring.metrics import services
    from monitoring.models import Rollup

    hours = Rollup.objects.filter(resolution=Rollup.HOURS)
    kept = list(hours.order_by("t").values_list("t", "values"))
    hours.delete()
    w0 = time.perf_counter()
    made, _ = services.monitoring_maintain(now=end)
    seconds = time.perf_counter() - w0
    same = list(hours.order_by("t").values_list("t", "values")) == kept
    return {"made": made, "seconds": seconds, "same": same}


def _level(resolution: int) -> str:
    """A level's name as the bench prints it."""
    return LEVEL_NAMES[resolution]


def _print_year(year: dict[str, float]) -> None:
    """The simulated year's row counts, size and time."""
    took = f"{year['earlier_s']:.0f} s + {year['week_s']:.0f} s"
    print(f"simulated year (51 weeks of 15-min rollups, then {year['samples_per_week']} "
          f"samples of {year['metrics_per_sample']} metrics; maintained as the beat would; "
          f"{took}):")  # fmt: skip
    size = f"{year['db_mib']:.1f} MiB"
    print(f"  raw rows {year['raw_rows']}, 1-minute rollups {year['minute_rows']}, "
          f"15-minute rollups {year['quarter_rows']}, 3-hour rollups {year['hours_rows']}, "
          f"database {size}")  # fmt: skip


def _print_series(rows: list[dict[str, Any]]) -> None:
    """One line per range; ranges with an earlier level also show it and the speed-up."""
    print(f"series read, 3 metrics (median of {REPEATS}):")
    for r in rows:
        line = f"  {r['key']:4s} {_level(r['level']):8s} {r['ms']:7.1f} ms, {r['points']} points"
        if "before_ms" in r:
            line += (f"   (was {_level(EARLIER_LEVEL[r['key']])}: {r['before_ms']:.1f} ms, "
                     f"{r['before_points']} points; {r['before_ms'] / r['ms']:.1f}x)")  # fmt: skip
        print(line)


def main() -> None:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=2, help="sandbox pools to sample")
    args = parser.parse_args()
    setup_django(args.pools)
    cycle = bench_cycle()
    print(f"sampling cycle ({args.pools} sandbox pools, median of {CYCLES}):")
    print(f"  collectors only     {cycle['collect_cpu_ms']:6.2f} ms CPU")
    print(f"  collect + store     {cycle['cycle_cpu_ms']:6.2f} ms CPU, "
          f"{cycle['cycle_wall_ms']:.2f} ms wall")  # fmt: skip
    print(f"  at one cycle per {PERIOD:g} s: {cycle['core_percent']:.2f}% of one core")
    year = simulate_year()
    _print_year(year)
    _print_series(bench_series())
    upgrade = bench_upgrade(year["end"])
    print(f"first maintenance after the 3-hour migration: {upgrade['made']:.0f} rows from a year "
          f"of 15-min rollups in {upgrade['seconds']:.1f} s; same rows as built day by day: "
          f"{'yes' if upgrade['same'] else 'NO'}")  # fmt: skip


if __name__ == "__main__":
    main()
