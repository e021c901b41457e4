#!/usr/bin/env python3
"""Time listing 1,000 datasets and zvols with their properties, and count the zfs processes.

    .venv/bin/python bench/storage_list.py            # sandbox engine, through the REST API
    python3 bench/storage_list.py --engine cli --disk /dev/vda bench   # real OpenZFS, engine only
    (in the VM: scripts/zfsvm.sh run python3 bench/storage_list.py --engine cli --disk /dev/vda)

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

COUNT = 1000
ROUNDS = 5


def timed(call: Callable[[], object], rounds: int = ROUNDS) -> tuple[float, float]:
    """Median and best wall time of `rounds` calls, in milliseconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def figures(median: float, best: float) -> str:
    """'median 12.3 ms, best 11.0 ms'."""
    return f"median {median:.1f} ms, best {best:.1f} ms"


def populate(engine: object, pool: str, count: int) -> None:
    """Half file systems, half sparse zvols, under one pool."""
    for i in range(count // 2):
        engine.create_dataset(f"{pool}/ds{i:04d}", properties={"compression": "lz4"})  # type: ignore[attr-defined]
        engine.create_zvol(f"{pool}/vol{i:04d}", size=1 << 20, sparse=True)  # type: ignore[attr-defined]


def bench_cli(pool: str, disk: str | None) -> None:
    """Real OpenZFS: time the engine's listing and count the commands it runs."""
    from storage.zfs.base import PoolLayout
    from storage.zfs.cli import CliZfsEngine
    from storage.zfs.runner import CommandResult, subprocess_runner

    calls: list[Sequence[str]] = []

    def counting(argv: Sequence[str], *, timeout: float, stdin: str | None = None) -> CommandResult:
        calls.append(list(argv))
        return subprocess_runner(argv, timeout=timeout, stdin=stdin)

    engine = CliZfsEngine(counting)
    if disk and pool not in {p.name for p in engine.list_pools()}:
        engine.create_pool(pool, PoolLayout.single("stripe", [disk]), force=True)
    if len(engine.list_datasets(pool)) < COUNT:
        t0 = time.perf_counter()
        populate(engine, pool, COUNT)
        print(f"created {COUNT} datasets and zvols in {time.perf_counter() - t0:.1f} s")
    calls.clear()
    found = engine.list_datasets(pool)
    per_listing = len(calls)
    median, best = timed(lambda: engine.list_datasets(pool))
    print(f"engine cli: {len(found)} datasets+zvols listed: {figures(median, best)}")
    print(f"zfs processes per listing: {per_listing} ({' '.join(calls[0][:3])} ...)")


def bench_api() -> None:
    """Sandbox engine behind the REST API, in-process through Django's test client."""
    data = tempfile.mkdtemp(prefix="nasui-bench-")
    os.environ.update(
        NASUI_DATA_DIR=data,
        NASUI_ZFS_ENGINE="sandbox",
        NASUI_HTTPS="0",
        NASUI_ALLOWED_HOSTS="testserver",
    )
    Path(data, "static").mkdir()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from storage.engine import get_engine
    from storage.zfs.base import PoolLayout

    call_command("migrate", verbosity=0)
    engine = get_engine()
    engine.create_pool("bench", PoolLayout.single("stripe", ["sda"]))
    t0 = time.perf_counter()
    populate(engine, "bench", COUNT)
    print(f"sandbox: created {COUNT} datasets and zvols in {time.perf_counter() - t0:.1f} s")
    client = Client()
    client.force_login(User.objects.create_superuser("bench", password="x" * 16))

    def listing() -> int:
        datasets = client.get("/api/storage/datasets/?pool=bench&page_size=1000").json()
        zvols = client.get("/api/storage/zvols/?pool=bench&page_size=1000").json()
        return int(datasets["count"]) + int(zvols["count"])

    total = listing()
    median, best = timed(listing)
    print(f"API (sandbox): {total} datasets+zvols in two requests: {figures(median, best)}")
    median, best = timed(lambda: engine.list_datasets("bench"))
    print(f"engine sandbox: one listing of {total + 1}: {figures(median, best)}")
    print("zfs processes per listing: 0 (the sandbox reads its state file)")


def main() -> None:
    """Parse arguments and run one of the two benches."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", choices=["sandbox", "cli"], default="sandbox")
    parser.add_argument("--disk", help="cli: create the pool on this blank disk first")
    parser.add_argument("pool", nargs="?", default="bench")
    args = parser.parse_args()
    if args.engine == "cli":
        bench_cli(args.pool, args.disk)
    else:
        bench_api()


if __name__ == "__main__":
    main()
