"""The loop of the panel's service daemons: check each runtime, log what it did, stop on exit."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Sequence

from nasui import events
from sharing.runtime import ApplyError, ServiceRuntime

Write = Callable[[str], object]


def check(server: ServiceRuntime, *, first: bool, out: Write, err: Write) -> bool:
    """One supervision step of `server`; False (the refusal on stderr) to try again later."""
    try:
        done = server.supervise(first=first)
    except ApplyError as exc:
        err(str(exc))
        events.publish("service", name=server.name, label=server.label, error=str(exc))
        return False
    if done is not None:
        out(f"{server.label} service: {done}")
        # what the supervisor did on its own (a daemon that died brought back) is news too
        events.publish("service", name=server.name, label=server.label, did=done)
    return True


def supervise(servers: Sequence[ServiceRuntime], interval: float, out: Write, err: Write) -> None:
    """Check every server each `interval` seconds until SIGINT or SIGTERM, then shut them down.

    Each server's first check (a full apply, "start at boot") is repeated until it works.
    """
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    applied: set[str] = set()
    try:
        while not done.is_set():
            for server in servers:
                if check(server, first=server.name not in applied, out=out, err=err):
                    applied.add(server.name)
            done.wait(interval)
    finally:
        # Stopping the panel stops its daemons: nothing is left running behind it.
        for server in servers:
            stopped = server.shutdown()
            if stopped is not None:
                out(f"{server.label} service: {stopped}")
