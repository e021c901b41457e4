"""The unit of each metric, so that graphs and tooltips can say KiB/MiB/GiB, %, or ops/s."""

from __future__ import annotations

BYTES = "bytes"
BYTES_PER_S = "bytes/s"
PERCENT = "%"
RATIO = "x"
PER_S = "/s"
COUNT = "count"
LOAD = "load"
CELSIUS = "°C"
SECONDS = "s"
VOLTS = "V"

_POOL_UNITS = {
    "size": BYTES,
    "allocated": BYTES,
    "free": BYTES,
    "capacity": PERCENT,
    "fragmentation": PERCENT,
    "dedupratio": RATIO,
    "compressratio": RATIO,
    "ddt_entries": COUNT,
    "ddt_in_core": BYTES,
    "ddt_on_disk": BYTES,
    "read_ops": PER_S,
    "write_ops": PER_S,
    "read_bw": BYTES_PER_S,
    "write_bw": BYTES_PER_S,
}
_ARC_BYTES = ("arc.size", "arc.target", "arc.c_min", "arc.c_max", "arc.l2_size")


def unit_of(metric: str) -> str:
    """The unit of a metric name such as mem.used, arc.hit_ratio or pool.tank.read_bw."""
    if metric.startswith("pool."):
        return _POOL_UNITS.get(metric.rsplit(".", 1)[-1], COUNT)
    if metric.startswith("cpu.") or metric == "arc.hit_ratio":
        return PERCENT
    if metric.startswith("load."):
        return LOAD
    if metric.startswith("disk.") and metric.endswith(".temperature"):
        return CELSIUS
    if metric in ("ups.charge", "ups.load"):
        return PERCENT
    if metric == "ups.runtime":
        return SECONDS
    if metric == "ups.input_voltage":
        return VOLTS
    if metric in ("swap.in", "swap.out"):
        return BYTES_PER_S
    if metric.startswith(("mem.", "swap.")) or metric in _ARC_BYTES:
        return BYTES
    return PER_S  # the ARC's hit and miss counters, as rates
