"""Host families: ARC, CPU, load, memory, swap and disks, from the newest sample."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from monitoring.exporter.engine.snapshot import Snapshot

# (sample key, metric name, help, scale)
HOST_FIGURES = (
    ("arc.size", "nasui_arc_size_bytes", "ARC size.", 1.0),
    ("arc.target", "nasui_arc_target_bytes", "ARC target size (c).", 1.0),
    ("arc.c_min", "nasui_arc_min_bytes", "ARC minimum size.", 1.0),
    ("arc.c_max", "nasui_arc_max_bytes", "ARC maximum size.", 1.0),
    ("arc.hit_ratio", "nasui_arc_hit_ratio", "ARC hits over lookups, last cycle (0-1).", 0.01),
    ("cpu.busy", "nasui_cpu_busy_ratio", "Share of CPU time not idle, last cycle (0-1).", 0.01),
    ("load.1", "nasui_load1", "Load average over 1 minute.", 1.0),
    ("load.5", "nasui_load5", "Load average over 5 minutes.", 1.0),
    ("load.15", "nasui_load15", "Load average over 15 minutes.", 1.0),
    ("mem.total", "nasui_memory_total_bytes", "Physical memory.", 1.0),
    ("mem.used", "nasui_memory_used_bytes", "Memory used by programs (ARC apart).", 1.0),
    ("mem.arc", "nasui_memory_arc_bytes", "Memory held by the ARC.", 1.0),
    ("mem.cached", "nasui_memory_cached_bytes", "Page cache and buffers.", 1.0),
    ("mem.free", "nasui_memory_free_bytes", "Memory not used at all.", 1.0),
    ("mem.available", "nasui_memory_available_bytes", "Memory available to programs.", 1.0),
    ("swap.total", "nasui_swap_total_bytes", "Swap space.", 1.0),
    ("swap.used", "nasui_swap_used_bytes", "Swap space in use.", 1.0),
)
# raw arcstats counters kept between sampling cycles
ARC_COUNTERS = (
    ("arc.hits", "nasui_arc_hits", "ARC hits since boot."),
    ("arc.misses", "nasui_arc_misses", "ARC misses since boot."),
)
SMART_VERDICTS = {"passed": 1.0, "failed": 0.0}  # "unknown" is left out


def host_families(snap: Snapshot) -> Iterator[Metric]:
    """The figures the newest sample holds; a missing one (no ZFS: no ARC) is left out."""
    for key, name, text, scale in HOST_FIGURES:
        value = snap.values.get(key)
        if value is not None:
            yield GaugeMetricFamily(name, text, value=float(value) * scale)
    for key, name, text in ARC_COUNTERS:
        count = snap.counters.get(key)
        if count is not None:
            yield CounterMetricFamily(name, text, value=float(count))


def disk_families(snap: Snapshot) -> Iterator[Metric]:
    """Temperatures (sampled from SMART) and SMART's verdict, labelled by disk."""
    temperature = GaugeMetricFamily(
        "nasui_disk_temperature_celsius", "Disk temperature from SMART.", labels=["disk"]
    )
    for key, value in sorted(snap.values.items()):
        if key.startswith("disk.") and key.endswith(".temperature"):
            temperature.add_metric([key[len("disk.") : -len(".temperature")]], float(value))
    yield temperature
    healthy = GaugeMetricFamily(
        "nasui_disk_smart_healthy", "1 when SMART's overall verdict passed, 0 when it failed.",
        labels=["disk"],
    )  # fmt: skip
    for disk, verdict in sorted(snap.smart.items()):
        if verdict in SMART_VERDICTS:
            healthy.add_metric([disk], SMART_VERDICTS[verdict])
    yield healthy
