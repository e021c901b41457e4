"""Collectors: small pure functions over text captured from /proc, arcstats and zpool (no Django).

Each source yields instantaneous values (gauges) and ever-growing counters; `rates` turns two
readings of the counters into per-second rates and percentages. `sample.take_sample` runs them all,
one failure never stopping the others.
"""

from monitoring.metrics.engine.base import NotAvailable, Reading
from monitoring.metrics.engine.sample import Sources, take_sample

__all__ = ["NotAvailable", "Reading", "Sources", "take_sample"]
