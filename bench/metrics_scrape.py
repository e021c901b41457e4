#!/usr/bin/env python3
"""What a Prometheus scrape of /metrics costs the panel: 1,000 datasets' cached figures, a
sample of four pools, jobs and alerts; the median time of N scrapes through Django's test
client (every middleware, the token check, the snapshot's queries, the text), and of the
snapshot and rendering alone.

    .venv/bin/python bench/metrics_scrape.py               # 1,000 datasets, 50 scrapes
    .venv/bin/python bench/metrics_scrape.py --datasets 5000 --scrapes 20

Uses a throw-away data directory (SQLite in WAL mode, as the panel runs) and a local-memory
cache. Prints figures; asserts nothing about time (the target is under 100 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

POOLS = ("tank", "backup", "fast", "cold")


def setup_django() -> None:
    """Settings on a temporary data dir, migrated, with a local-memory cache."""
    data = tempfile.mkdtemp(prefix="nasui-bench-")
    os.environ.update(NASUI_DATA_DIR=data, NASUI_ZFS_ENGINE="sandbox", NASUI_HTTPS="0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.ALLOWED_HOSTS = ["*"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(datasets: int) -> str:
    """The stored figures a scrape reads; returns the exporter's token."""
    from django.core.cache import cache
    from django.utils import timezone

    from monitoring.exporter import services
    from monitoring.models import AlertRecord, Sample
    from nasui.models import Job
    from storage.datasets.selectors import FIGURES_KEY

    values: dict[str, float] = {
        "arc.size": 2**33, "arc.target": 2**33, "cpu.busy": 12.0,
        "mem.total": 2**35, "mem.used": 2**33, "swap.total": 2**31,
    }  # fmt: skip
    for pool in POOLS:
        values |= {f"pool.{pool}.{f}": 2**40 for f in ("size", "allocated", "free")}
        values |= {f"pool.{pool}.fragmentation": 7, f"pool.{pool}.dedupratio": 1.0}
    values |= {f"disk.sd{chr(97 + i)}.temperature": 35 + i for i in range(12)}
    Sample.objects.create(
        t=time.time(), values=values, info={"health": dict.fromkeys(POOLS, "ONLINE")}
    )
    rows = [(f"{POOLS[i % 4]}/share{i:04d}", 10**9 + i, 10**9, 1.42) for i in range(datasets)]
    cache.set(FIGURES_KEY, {"t": time.time(), "datasets": rows}, None)
    Job.objects.bulk_create([Job(kind="pool.scrub", title="Scrub", status="succeeded")] * 200)
    now = timezone.now()
    AlertRecord.objects.create(key="k", source="s", level="warning", kind="k", subject="tank",
                               title="t", text="", raised_at=now, seen_at=now)  # fmt: skip
    services.exporter_update(enabled=True)
    return services.exporter_token_create()[1]


def median_ms(run: Callable[[], object], times: int) -> float:
    """Median wall time of `run()` in milliseconds."""
    spent = []
    for _ in range(times):
        t0 = time.perf_counter()
        run()
        spent.append(time.perf_counter() - t0)
    return statistics.median(spent) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--scrapes", type=int, default=50)
    args = parser.parse_args()
    setup_django()
    token = fill(args.datasets)
    from django.test import Client

    from monitoring.exporter import selectors
    from monitoring.exporter.engine import render

    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.get("/metrics")  # warm-up, and the size of an answer
    assert response.status_code == 200, response.status_code
    series = sum(1 for line in response.content.splitlines() if not line.startswith(b"#"))
    through_django = median_ms(lambda: client.get("/metrics"), args.scrapes)
    alone = median_ms(lambda: render(selectors.snapshot()), args.scrapes)
    print(f"/metrics with {args.datasets} datasets, {len(POOLS)} pools: {series} series, "
          f"{len(response.content) / 1024:.0f} KiB")  # fmt: skip
    print(f"scrape through Django (median of {args.scrapes}): {through_django:.1f} ms")
    print(f"snapshot + rendering alone (median of {args.scrapes}): {alone:.1f} ms")


if __name__ == "__main__":
    main()
