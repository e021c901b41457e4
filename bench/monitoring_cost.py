#!/usr/bin/env python3
"""What monitoring costs: CPU per sampling cycle, rows after a simulated week, series latency.

    .venv/bin/python bench/monitoring_cost.py              # this host (sandbox engine, no ZFS)
    .venv/bin/python bench/monitoring_cost.py --pools 4    # with four sandbox pools sampled

Uses a throw-away data directory (SQLite in WAL mode, as the panel runs) and a local-memory
cache. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PERIOD = 2.0  # seconds between samples, the default NASUI_SAMPLE_SECONDS
CYCLES = 200


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
    from monitoring import services
    from monitoring.collectors import take_sample
    from monitoring.sources import local_sources

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


def simulate_week() -> dict[str, float]:
    """A week of 2 s samples with the hourly maintenance the beat entry does every minute."""
    from django.db import connection

    from monitoring import services
    from monitoring.models import Rollup, Sample

    template = dict(Sample.objects.order_by("-t").values_list("values", flat=True)[0])
    Sample.objects.all().delete()
    start = time.time() - 7 * 86400
    per_hour = int(3600 / PERIOD)
    w0 = time.perf_counter()
    for hour in range(7 * 24):
        base = start + hour * 3600
        Sample.objects.bulk_create(
            Sample(t=base + i * PERIOD, values=template, info={}) for i in range(per_hour)
        )
        services.monitoring_maintain(now=base + 3600)
    seconds = time.perf_counter() - w0
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = Path(connection.settings_dict["NAME"])
    return {
        "samples_per_week": 7 * 24 * per_hour,
        "raw_rows": Sample.objects.count(),
        "minute_rows": Rollup.objects.filter(resolution=Rollup.MINUTE).count(),
        "quarter_rows": Rollup.objects.filter(resolution=Rollup.QUARTER).count(),
        "db_mib": db.stat().st_size / 2**20,
        "metrics_per_sample": len(template),
        "simulate_s": seconds,
    }


def bench_series() -> dict[str, float]:
    """Latency of the series read behind /api/monitoring/series/: 1 h raw, 1 year of rollups."""
    from monitoring import selectors
    from monitoring.models import Rollup

    last = Rollup.objects.filter(resolution=Rollup.QUARTER).order_by("-t").first()
    assert last is not None
    # fill the rest of the year with quarter-hour rollups like the week's
    Rollup.objects.bulk_create(
        Rollup(resolution=Rollup.QUARTER, t=last.t - (i + 1000) * 900, values=last.values)
        for i in range(365 * 96 - 1000)
    )
    metrics = ["cpu.user", "cpu.system", "cpu.iowait"]
    out = {}
    for key in ("1h", "1d", "1y"):
        times = []
        for _ in range(7):
            w0 = time.perf_counter()
            body = selectors.series(metrics, key)
            times.append(time.perf_counter() - w0)
        out[f"series_{key}_ms"] = statistics.median(times) * 1000
        out[f"series_{key}_points"] = len(body["series"][0]["points"])
    return out


def main() -> None:
    """Run the three measurements and print them."""
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
    week = simulate_week()
    took = f"{week['simulate_s']:.0f} s"
    print(f"simulated week ({week['samples_per_week']} samples of "
          f"{week['metrics_per_sample']} metrics, maintained hourly; {took}):")  # fmt: skip
    size = f"{week['db_mib']:.1f} MiB"
    print(f"  raw rows {week['raw_rows']}, 1-minute rollups {week['minute_rows']}, "
          f"15-minute rollups {week['quarter_rows']}, database {size}")  # fmt: skip
    series = bench_series()
    print("series read, 3 metrics (median of 7):")
    for key, label in (("1h", "1 hour raw"), ("1d", "1 day of 1-min"), ("1y", "1 year of 15-min")):
        print(f"  {label:18s} {series[f'series_{key}_ms']:7.1f} ms, "
              f"{series[f'series_{key}_points']} points")  # fmt: skip


if __name__ == "__main__":
    main()
