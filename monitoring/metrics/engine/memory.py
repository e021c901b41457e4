"""Memory and swap from /proc/meminfo and /proc/vmstat, with the ARC as its own band."""

from __future__ import annotations

from collections.abc import Mapping

from monitoring.metrics.engine.base import Metrics, Reading, parse_key_values

PAGE_SIZE = 4096  # /proc/vmstat counts swap traffic in pages


def parse_meminfo(text: str) -> dict[str, int]:
    """/proc/meminfo -> {field: bytes}."""
    return parse_key_values(text, scale={"kB": 1024})


def memory_metrics(meminfo: Mapping[str, int], arc_size: int | None) -> Metrics:
    """Total, used by programs, ARC, cache and available bytes.

    The kernel counts the ARC as used memory (it is not page cache), yet it shrinks when programs
    need the RAM: it is taken out of "used" and shown as its own band.
    """
    total = meminfo["MemTotal"]
    cached = meminfo.get("Cached", 0) + meminfo.get("Buffers", 0)
    cached += meminfo.get("SReclaimable", 0)
    used = max(total - meminfo.get("MemFree", 0) - cached, 0)
    arc = min(arc_size or 0, used)
    metrics: Metrics = {
        "mem.total": float(total),
        "mem.used": float(used - arc),
        "mem.cached": float(cached),
        "mem.free": float(meminfo.get("MemFree", 0)),
        "mem.available": float(meminfo.get("MemAvailable", meminfo.get("MemFree", 0))),
    }
    if arc_size is not None:
        metrics["mem.arc"] = float(arc)
    return metrics


def read_memory(meminfo_text: str, arc_size: int | None) -> Reading:
    """/proc/meminfo text (and the ARC size when ZFS is loaded) -> memory and swap gauges."""
    meminfo = parse_meminfo(meminfo_text)
    gauges = memory_metrics(meminfo, arc_size)
    gauges["swap.total"] = float(meminfo.get("SwapTotal", 0))
    gauges["swap.used"] = float(meminfo.get("SwapTotal", 0) - meminfo.get("SwapFree", 0))
    return Reading(gauges=gauges)


def read_vmstat(text: str) -> Reading:
    """/proc/vmstat -> swap-in/out counters in bytes (pages moved to or from swap)."""
    values = parse_key_values(text)
    return Reading(
        counters={
            "swap.in": values.get("pswpin", 0) * PAGE_SIZE,
            "swap.out": values.get("pswpout", 0) * PAGE_SIZE,
        }
    )
