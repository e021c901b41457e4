#!/usr/bin/env python3
"""Load on the REST API's list endpoints: N concurrent token clients for a fixed time.

    .venv/bin/python bench/api_load.py                     # 20 clients, 60 s, as the appliance
    .venv/bin/python bench/api_load.py --layouts 1x4,2x2   # two layouts, one after the other
    .venv/bin/python bench/api_load.py --keep-alive        # clients talk to gunicorn directly

Starts its own Redis and gunicorn over a fresh data directory with the sandbox engine, fills
a pool with datasets and zvols and an iSCSI target, then prints requests per second, p50 /
p95 / p99 latency per endpoint and in all, the errors (any non-200 or failed request), and the web
processes' CPU time per request (less sensitive to a busy machine than the latencies).

By default each request opens its own connection to gunicorn, as the appliance's nginx does (no
upstream keep-alive): gunicorn's workers then share the requests between them. With
`--keep-alive` each client keeps one connection, which one worker holds until the end.
Asserts nothing; loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nasui.lib.net import free_loopback_port  # noqa: E402

ENDPOINTS = (
    "/api/storage/pools/",
    "/api/storage/datasets/",
    "/api/storage/zvols/",
    "/api/sharing/iscsi/targets/",
    "/api/sharing/iscsi/extents/",
    "/api/jobs/",
    "/api/monitoring/alerts/",
)
SETUP = """
from django.contrib.auth.models import User
from nasui import services
from sharing.iscsi import services as sharing
from storage.datasets import services as storage
from storage.engine import get_engine
from storage.zfs.base import PoolLayout

user = User.objects.create_superuser("bench", password="a bench passphrase")
get_engine().create_pool("tank", PoolLayout.single("raidz1", ["sda", "sdb", "sdc"]))
for i in range({count}):
    storage.dataset_create(parent="tank", name=f"ds{{i:03d}}", compression="lz4")
    storage.zvol_create(parent="tank", name=f"vol{{i:03d}}", size="16M", sparse=True)
portal = sharing.portal_create(addresses=["127.0.0.1"])
target = sharing.target_create(name="bench", groups=[{{"portal": portal}}])
extent = sharing.extent_create(name="bench", zvol="tank/vol000")
sharing.association_create(target=target, extent=extent)
print(services.api_token_create(user=user, name="bench")[1])
"""


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    """Until something accepts connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).connect()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


@dataclass(frozen=True)
class Layout:
    """gunicorn's process and thread counts, written `2x2`."""

    workers: int
    threads: int

    @classmethod
    def parse(cls, text: str) -> Layout:
        workers, threads = (int(part) for part in text.lower().split("x"))
        return cls(workers, threads)

    def __str__(self) -> str:
        return f"{self.workers} x {self.threads} threads" + (
            " (--preload)" if self.workers > 1 else ""
        )


@dataclass
class Result:
    """What one layout's run measured."""

    requests: int
    p95_ms: float


class Panel:
    """Redis and gunicorn over a throw-away data directory."""

    def __init__(self, layout: Layout) -> None:
        self.data = Path(tempfile.mkdtemp(prefix="nasui-bench-"))
        self.port = free_loopback_port()
        redis_port = free_loopback_port()
        self.env = {
            **os.environ,
            "NASUI_DATA_DIR": str(self.data),
            "NASUI_ZFS_ENGINE": "sandbox",
            "NASUI_ISCSI_ENGINE": "tgt",
            "NASUI_HTTPS": "0",
            "NASUI_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        }
        redis = ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""]
        self.redis = subprocess.Popen(redis, stdout=subprocess.DEVNULL, cwd=self.data)
        wait_for_port(redis_port)
        self.layout = layout
        self.web: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        """Run manage.py in the bench's environment and return what it printed."""
        argv = [sys.executable, str(ROOT / "manage.py"), *args]
        done = subprocess.run(argv, env=self.env, capture_output=True, text=True, check=True)
        return done.stdout

    def start(self, datasets: int) -> str:
        """Migrate, fill, start gunicorn; return a token."""
        self.manage("migrate", "--noinput", "-v", "0")
        token = self.manage("shell", "-c", SETUP.format(count=datasets)).strip().splitlines()[-1]
        gunicorn = Path(sys.executable).with_name("gunicorn")
        argv = [str(gunicorn), "nasui.wsgi", "--bind", f"127.0.0.1:{self.port}"]
        argv += ["--workers", str(self.layout.workers), "--threads", str(self.layout.threads)]
        argv += ["--preload"] if self.layout.workers > 1 else []
        self.web = subprocess.Popen(argv, env=self.env, cwd=ROOT, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)
        return token

    def web_processes(self) -> list[psutil.Process]:
        """gunicorn's master and its workers."""
        assert self.web is not None
        master = psutil.Process(self.web.pid)
        return [master, *master.children(recursive=True)]

    def web_cpu_seconds(self) -> float:
        """User + system CPU time of gunicorn's processes so far."""
        return sum(sum(proc.cpu_times()[:2]) for proc in self.web_processes())

    def web_memory_mib(self) -> tuple[float, float]:
        """RSS and PSS of gunicorn's processes together (PSS counts shared pages once)."""
        infos = [proc.memory_full_info() for proc in self.web_processes()]
        return sum(i.rss for i in infos) / 2**20, sum(i.pss for i in infos) / 2**20

    def stop(self) -> None:
        """Stop both and remove the data directory."""
        for proc in (self.web, self.redis):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=15)
        shutil.rmtree(self.data, ignore_errors=True)


def client(port: int, token: str, until: float, offset: int, out: dict[str, list[float]],
           errors: list[str], keep_alive: bool) -> None:  # fmt: skip
    """One client cycling over the endpoints until the deadline."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Host": "127.0.0.1"}
    i = offset
    while time.monotonic() < until:
        path = ENDPOINTS[i % len(ENDPOINTS)]
        i += 1
        start = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            if not keep_alive:
                conn.close()  # as nginx does; the next request connects again
            if response.status != 200:
                errors.append(f"{path}: {response.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{path}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        out[path].append((time.perf_counter() - start) * 1000)


def report(latencies: dict[str, list[float]], errors: list[str], seconds: float) -> Result:
    """Print the figures; return the ones layouts are compared by."""
    every = [ms for values in latencies.values() for ms in values]
    print(f"{len(every)} requests in {seconds:.0f} s: {len(every) / seconds:.0f} req/s, "
          f"{len(errors)} errors")  # fmt: skip
    print(f"{'endpoint':34} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for path, values in [*sorted(latencies.items()), ("all", every)]:
        if values:
            print(f"{path:34} {len(values):6d} {statistics.median(values):8.1f} "
                  f"{percentile(values, 0.95):8.1f} {percentile(values, 0.99):8.1f}")  # fmt: skip
    for error in sorted(set(errors))[:10]:
        print("error:", error)
    return Result(len(every), percentile(every, 0.95) if every else float("nan"))


def run(layout: Layout, args: argparse.Namespace) -> Result:
    """Start a panel in this layout, load it, print its figures."""
    panel = Panel(layout)
    try:
        token = panel.start(args.datasets)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        cpu_before, own_before = panel.web_cpu_seconds(), sum(os.times()[:2])
        until = time.monotonic() + args.seconds
        threads = [
            threading.Thread(
                target=client,
                args=(panel.port, token, until, i, latencies, errors, args.keep_alive),
            )
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        connections = "one connection per client" if args.keep_alive else "a connection per request"
        print(f"\n{args.clients} clients ({connections}), gunicorn {layout}, "
              f"{args.datasets} datasets + {args.datasets} zvols (sandbox)")  # fmt: skip
        result = report(latencies, errors, args.seconds)
        served = result.requests
        cpu_ms = (panel.web_cpu_seconds() - cpu_before) * 1000 / max(1, served)
        own_ms = (sum(os.times()[:2]) - own_before) * 1000 / max(1, served)
        print(f"web CPU per request: {cpu_ms:.2f} ms (user + system of every gunicorn process)")
        print(f"load generator CPU per request: {own_ms:.2f} ms (this script's clients)")
        print(
            "web memory after the load: RSS {:.0f} MiB, PSS {:.0f} MiB".format(
                *panel.web_memory_mib()
            )
        )
        return result
    finally:
        panel.stop()


def main() -> None:
    """Parse the options, run the load on each layout, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--layouts",
        default="2x2",
        help="gunicorn processes x threads, comma-separated (appliance: 2x2)",
    )
    parser.add_argument("--keep-alive", action="store_true", help="one connection per client")
    parser.add_argument("--datasets", type=int, default=50, help="datasets and as many zvols")
    args = parser.parse_args()
    layouts = [Layout.parse(text) for text in args.layouts.split(",")]
    results = [run(layout, args) for layout in layouts]
    if len(results) > 1:
        first = results[0]
        print(f"\ncompared with {layouts[0]}:")
        for layout, result in zip(layouts[1:], results[1:], strict=True):
            print(f"  {layout}: requests x{result.requests / max(1, first.requests):.2f}, "
                  f"p95 x{result.p95_ms / first.p95_ms:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
