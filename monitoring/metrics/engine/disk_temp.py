"""Disk temperatures (°C) as metrics, from the SMART readings storage refreshes every few minutes.

The 2 s sampler never runs smartctl: it records the newest readings it is handed, so the
graph steps at each refresh.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from monitoring.metrics.engine.base import NotAvailable, Reading

DiskTemperatures = Callable[[], Mapping[str, int | None]]


def metric(disk: str) -> str:
    """The metric name of a disk's temperature."""
    return f"disk.{disk}.temperature"


def read_disk_temperatures(source: DiskTemperatures | None) -> Reading:
    """Each disk's temperature; disks without a sensor (virtio, no SMART) are left out."""
    readings = source() if source is not None else {}
    if not readings:
        raise NotAvailable("no disk temperatures read yet (SMART is read every few minutes)")
    return Reading(
        gauges={metric(disk): float(t) for disk, t in sorted(readings.items()) if t is not None}
    )
