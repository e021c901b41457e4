"""Which graphs the pages draw: metrics, labels, unit, and the collector each depends on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from monitoring.metrics.engine.labels import label_of, unavailable_reason
from monitoring.metrics.engine.pools import metric
from monitoring.metrics.engine.units import (
    BYTES,
    BYTES_PER_S,
    COUNT,
    PER_S,
    PERCENT,
    RATIO,
    SECONDS,
)

NO_SWAP = "No swap: this machine has no swap space, so there is nothing to draw."


@dataclass(frozen=True)
class Chart:
    """One graph: its metrics with labels, their shared unit, and the collector behind them.

    `absent_if_zero` names a metric whose value 0 means the graph has nothing to show (swap on
    a machine without swap): the card then says `absent` instead of drawing a flat line.
    """

    key: str
    title: str
    metrics: tuple[str, ...]
    labels: tuple[str, ...]
    unit: str
    source: str
    stacked: bool = False
    note: str = ""
    absent_if_zero: str = ""
    absent: str = ""

    @property
    def y_max(self) -> int | None:
        """The top of the value axis when it has one: 100 for percentages."""
        return 100 if self.unit == PERCENT else None

    @property
    def legend(self) -> tuple[str, ...]:
        """A label for every series: its own, else the metric's in words."""
        return tuple(
            self.labels[i] if i < len(self.labels) and self.labels[i] else label_of(name)
            for i, name in enumerate(self.metrics)
        )


CPU = Chart(
    "cpu",
    "CPU",
    ("cpu.user", "cpu.system", "cpu.iowait"),
    ("user", "system", "I/O wait"),
    PERCENT,
    "cpu",
    stacked=True,
)
MEMORY = Chart(
    "memory",
    "Memory and ARC",
    ("mem.used", "mem.arc", "mem.cached", "mem.free"),
    ("programs", "ZFS ARC", "page cache", "free"),
    BYTES,
    "memory",
    stacked=True,
    note="The ARC is ZFS's cache: it gives RAM back when programs need it.",
)
SWAP = Chart(
    "swap", "Swap", ("swap.used",), ("used",), BYTES, "memory",
    absent_if_zero="swap.total", absent=NO_SWAP,
)  # fmt: skip
SWAP_IO = Chart(
    "swap_io", "Swap traffic", ("swap.in", "swap.out"), ("in", "out"), BYTES_PER_S, "swap_io",
    absent_if_zero="swap.total", absent=NO_SWAP,
)  # fmt: skip
ARC = Chart(
    "arc",
    "ARC size",
    ("arc.size", "arc.target", "arc.c_max"),
    ("size", "target", "maximum"),
    BYTES,
    "arc",
)
ARC_HITS = Chart("arc_hits", "ARC hit ratio", ("arc.hit_ratio",), ("hits",), PERCENT, "arc")
ARC_DEMAND = Chart(
    "arc_demand",
    "ARC demand reads",
    (
        "arc.demand_data_hits",
        "arc.demand_data_misses",
        "arc.demand_metadata_hits",
        "arc.demand_metadata_misses",
    ),
    ("data hits", "data misses", "metadata hits", "metadata misses"),
    PER_S,
    "arc",
)
LOAD = Chart(
    "load",
    "Load average",
    ("load.1", "load.5", "load.15"),
    ("1 min", "5 min", "15 min"),
    "load",
    "load",
)
HOST_CHARTS = (CPU, LOAD, MEMORY, SWAP, SWAP_IO, ARC, ARC_HITS, ARC_DEMAND)
# drawn only where a UPS is measured (the system app samples it when one is set up)
UPS_BATTERY = Chart(
    "ups_battery", "UPS battery and load", ("ups.charge", "ups.load"),
    ("battery charge", "load"), PERCENT, "ups",
)  # fmt: skip
UPS_RUNTIME = Chart(
    "ups_runtime", "UPS runtime on battery", ("ups.runtime",), ("runtime left",), SECONDS, "ups"
)
UPS_CHARTS = (UPS_BATTERY, UPS_RUNTIME)
DASHBOARD_CHARTS = (CPU, MEMORY, SWAP, ARC_HITS)


def pool_charts(pool: str, *, brief: bool = False) -> tuple[Chart, ...]:
    """A pool's graphs: space, ratios, dedup table and I/O (brief: the dashboard's three)."""

    def m(*fields: str) -> tuple[str, ...]:
        return tuple(metric(pool, f) for f in fields)

    space = Chart(
        f"{pool}-space",
        f"{pool}: space",
        m("allocated", "free"),
        ("allocated", "free"),
        BYTES,
        "pools",
        stacked=True,
    )
    ratios = Chart(
        f"{pool}-ratios",
        f"{pool}: compression and dedup",
        m("compressratio", "dedupratio"),
        ("compression", "dedup"),
        RATIO,
        "pools",
    )
    ddt = Chart(
        f"{pool}-ddt",
        f"{pool}: dedup table",
        m("ddt_in_core", "ddt_on_disk"),
        ("in RAM", "on disk"),
        BYTES,
        "pools",
        note="The dedup table must fit in RAM, or writes and deletes crawl.",
    )
    entries = Chart(
        f"{pool}-ddt-entries",
        f"{pool}: dedup table entries",
        m("ddt_entries"),
        ("entries",),
        COUNT,
        "pools",
    )
    ops = Chart(
        f"{pool}-ops",
        f"{pool}: operations",
        m("read_ops", "write_ops"),
        ("read", "write"),
        PER_S,
        "pool_io",
    )
    bandwidth = Chart(
        f"{pool}-bw",
        f"{pool}: bandwidth",
        m("read_bw", "write_bw"),
        ("read", "write"),
        BYTES_PER_S,
        "pool_io",
    )
    if brief:
        return (ratios, ddt, bandwidth)
    return (space, ratios, ddt, entries, ops, bandwidth)  # fmt: skip


def _absent(chart: Chart, values: Mapping[str, float]) -> str:
    """Why the chart has nothing to draw on this machine (no swap), or ""."""
    if chart.absent_if_zero and values.get(chart.absent_if_zero) == 0:
        return chart.absent
    return ""


def chart_context(
    charts: tuple[Chart, ...],
    range_key: str,
    unavailable: Mapping[str, str],
    values: Mapping[str, float] | None = None,
) -> list[dict[str, object]]:
    """Charts ready for the template, each with its range, its legend in words, and why it
    cannot be drawn (a collector missing here) or has nothing to show (`values`: the newest)."""
    return [
        {"chart": c, "range": range_key, "metrics": ",".join(c.metrics),
         "labels": "|".join(c.legend), "absent": _absent(c, values or {}),
         "unavailable": unavailable_reason(c.source, unavailable.get(c.source, ""))}
        for c in charts
    ]  # fmt: skip
