"""A snapshot of the host for the dashboard (psutil; no Django)."""

from __future__ import annotations

import platform
import socket
import time
from dataclasses import dataclass

import psutil


@dataclass(frozen=True)
class HostSummary:
    """What the dashboard's host card shows."""

    hostname: str
    kernel: str
    uptime_seconds: int
    cpu_count: int
    load_1m: float
    memory_total: int
    memory_available: int
    swap_total: int
    swap_used: int

    @property
    def memory_used_percent(self) -> float:
        """Share of RAM not available to new work."""
        if not self.memory_total:
            return 0.0
        return 100.0 * (self.memory_total - self.memory_available) / self.memory_total


def host_summary() -> HostSummary:
    """Read the host's name, uptime, load, memory and swap."""
    memory = psutil.virtual_memory()
    swap = psutil.swap_memory()
    return HostSummary(
        hostname=socket.gethostname(),
        kernel=platform.release(),
        uptime_seconds=int(time.time() - psutil.boot_time()),
        cpu_count=psutil.cpu_count() or 1,
        load_1m=psutil.getloadavg()[0],
        memory_total=memory.total,
        memory_available=memory.available,
        swap_total=swap.total,
        swap_used=swap.used,
    )
