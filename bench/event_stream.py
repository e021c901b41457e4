#!/usr/bin/env python3
"""The event stream under many open clients: memory of the web process over time.

    .venv/bin/python bench/event_stream.py                  # 50 clients, 10 minutes
    .venv/bin/python bench/event_stream.py --clients 20 --minutes 2

Starts Redis and a gunicorn laid out as the appliance's nasui-events (one process of 64
threads, 60 streams allowed) over a fresh data directory, opens N Server-Sent Events clients
on /api/events/, and publishes events at a steady rate (as jobs and alerts would) for the
given time. Prints the web's RSS and PSS at the start and every minute, each client's count of
events received, and the errors. Asserts nothing; loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from api_load import Layout, Panel  # noqa: E402

PUBLISH = """
import os, time
from nasui import events
rate, seconds = float(os.environ["BENCH_RATE"]), float(os.environ["BENCH_SECONDS"])
end, n = time.monotonic() + seconds, 0
while time.monotonic() < end:
    n += 1
    events.publish("job", id=n % 7, status="running", progress=n % 100, message="step")
    time.sleep(1 / rate)
print(n)
"""


def reader(
    port: int, token: str, counts: list[int], slot: int, stop: threading.Event, errors: list[str]
) -> None:
    """One client reading the stream until told to stop; reconnects as EventSource would."""
    while not stop.is_set():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": f"Token {token}", "Accept": "text/event-stream"}
        try:
            conn.request("GET", "/api/events/", headers=headers)
            answer = conn.getresponse()
            if answer.status != 200:
                errors.append(f"client {slot}: {answer.status}")
                time.sleep(3)
                continue
            while not stop.is_set():
                line = answer.fp.readline()
                if not line:
                    break
                if line.startswith(b"event: "):
                    counts[slot] += 1
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"client {slot}: {exc!r}")
        finally:
            conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=5.0, help="events published per second")
    args = parser.parse_args()
    os.environ["NASUI_EVENT_STREAMS"] = "60"
    panel = Panel(Layout(1, 64))
    try:
        token = panel.start(datasets=1)
        counts, stop = [0] * args.clients, threading.Event()
        errors: list[str] = []
        threads = [
            threading.Thread(
                target=reader, args=(panel.port, token, counts, i, stop, errors), daemon=True
            )
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        time.sleep(3)
        seconds = args.minutes * 60
        argv = [sys.executable, str(BENCH.parent / "manage.py"), "shell", "-c", PUBLISH]
        env = {**panel.env, "BENCH_RATE": str(args.rate), "BENCH_SECONDS": str(seconds)}
        publisher = subprocess.Popen(
            argv, env=env, cwd=BENCH.parent, stdout=subprocess.PIPE, text=True
        )
        print(f"{args.clients} clients, {args.rate:g} events/s for {args.minutes:g} min")
        print("minute  rss MiB  pss MiB  events received (all clients)")
        start = time.monotonic()
        minute = 0
        while time.monotonic() - start < seconds + 2:
            rss, pss = panel.web_memory_mib()
            print(f"{minute:6d}  {rss:7.1f}  {pss:7.1f}  {sum(counts)}", flush=True)
            minute += 1
            time.sleep(60)
        stop.set()
        published = publisher.communicate(timeout=60)[0]
        print(
            f"published: {(published.split() or ['?'])[-1]} events; per client received: "
            f"min {min(counts)}, max {max(counts)}"
        )
        print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    finally:
        panel.stop()


if __name__ == "__main__":
    main()
