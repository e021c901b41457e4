"""Pool I/O from `zpool iostat -Hp`: operations and bytes per second, read and write."""

from __future__ import annotations

from monitoring.metrics.engine.base import Metrics
from monitoring.metrics.engine.pools import metric

# Seconds one `zpool iostat -y INTERVAL 1` report covers (the engine runs it).
IOSTAT_INTERVAL = 1
COLUMNS = ("alloc", "free", "read_ops", "write_ops", "read_bw", "write_bw")


def parse_zpool_iostat(text: str) -> Metrics:
    """`zpool iostat -Hp [-y] [interval count]` -> per-pool rates; the last report of a pool wins.

    Without an interval the figures are averages since the pool was imported; with one they cover
    that interval. Allocated and free come from the pool collector, so they are not repeated here.
    """
    values: Metrics = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 1 + len(COLUMNS):
            continue
        row = dict(zip(COLUMNS, parts[1:], strict=True))
        for field in ("read_ops", "write_ops", "read_bw", "write_bw"):
            values[metric(parts[0], field)] = float(row[field])
    return values
