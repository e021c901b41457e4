"""Words for what the graphs show: a human label for every metric, and for every collector
that cannot be measured here, so that no internal key or file path reaches a legend."""

from __future__ import annotations

import re

_HOST = {
    "cpu.busy": "CPU busy",
    "cpu.user": "user",
    "cpu.system": "system",
    "cpu.iowait": "I/O wait",
    "load.1": "1 min",
    "load.5": "5 min",
    "load.15": "15 min",
    "mem.total": "RAM",
    "mem.used": "programs",
    "mem.arc": "ZFS ARC",
    "mem.cached": "page cache",
    "mem.free": "free",
    "mem.available": "available",
    "swap.total": "swap size",
    "swap.used": "swap used",
    "swap.in": "swapped in",
    "swap.out": "swapped out",
    "arc.size": "ARC size",
    "arc.target": "ARC target",
    "arc.c_min": "ARC minimum",
    "arc.c_max": "ARC maximum",
    "arc.l2_size": "L2ARC size",
    "arc.hit_ratio": "ARC hits",
    "arc.hits": "ARC hits",
    "arc.misses": "ARC misses",
    "arc.demand_data_hits": "data hits",
    "arc.demand_data_misses": "data misses",
    "arc.demand_metadata_hits": "metadata hits",
    "arc.demand_metadata_misses": "metadata misses",
    "arc.l2_hits": "L2ARC hits",
    "arc.l2_misses": "L2ARC misses",
}
_POOL = {
    "size": "size",
    "allocated": "allocated",
    "free": "free",
    "capacity": "used",
    "dedupratio": "dedup",
    "compressratio": "compression",
    "ddt_entries": "dedup table entries",
    "ddt_in_core": "dedup table in RAM",
    "ddt_on_disk": "dedup table on disk",
    "read_ops": "reads",
    "write_ops": "writes",
    "read_bw": "read",
    "write_bw": "written",
}
# The collectors (see sample.take_sample), as a page names them.
SOURCES = {
    "arc": "ZFS ARC",
    "cpu": "CPU",
    "load": "Load average",
    "memory": "Memory and swap",
    "swap_io": "Swap traffic",
    "pools": "Pools",
    "pool_io": "Pool I/O",
    "disk_temp": "Disk temperatures",
    "ups": "UPS",
}
# Why a collector whose file is missing cannot measure, instead of the file's path.
_MISSING = {
    "arc": "the ZFS kernel module is not loaded, so there are no ARC statistics",
    "pools": "there is no ZFS on this machine",
}
_PATH = re.compile(r"(?<![\w.])/[\w.@+-]+(?:/[\w.@+-]+)+")


def disk_label(name: str) -> str:
    """A disk as people call it: /dev/disk/by-id/ata-X -> ata-X, sda -> sda."""
    return name.rstrip("/").rsplit("/", 1)[-1] or name


def label_of(metric: str) -> str:
    """A metric's label for a legend: mem.arc -> "ZFS ARC", pool.tank.allocated ->
    "tank: allocated", disk.sda.temperature -> "sda"."""
    if metric in _HOST:
        return _HOST[metric]
    if metric.startswith("pool.") and metric.count(".") >= 2:
        pool, field = metric[5:].rsplit(".", 1)
        return f"{pool}: {_POOL.get(field, field.replace('_', ' '))}"
    if metric.startswith("disk.") and metric.endswith(".temperature"):
        return disk_label(metric[5 : -len(".temperature")])
    if metric.startswith("cpu.core"):
        core, _, field = metric[8:].partition(".")
        return f"core {core} {_HOST.get(f'cpu.{field}', field)}"
    return metric.rsplit(".", 1)[-1].replace("_", " ")


def source_label(source: str) -> str:
    """A collector's name in words."""
    return SOURCES.get(source, source.replace("_", " ").capitalize())


def unavailable_reason(source: str, reason: str) -> str:
    """Why a collector measured nothing, without the file paths of its sources."""
    if not _PATH.search(reason):
        return reason
    head = reason.split(":", 1)[0] if ":" in reason else "not available"
    return f"{head}: {_MISSING.get(source, 'this machine does not report it')}"


def describe_unavailable(unavailable: dict[str, str]) -> dict[str, str]:
    """{collector: reason} -> {its name in words: the reason without paths}."""
    return {source_label(s): unavailable_reason(s, r) for s, r in sorted(unavailable.items())}
