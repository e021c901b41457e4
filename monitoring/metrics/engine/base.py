"""What every collector returns, and the error for a source this machine does not have."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Metrics = dict[str, float]
Counters = dict[str, int]


class NotAvailable(Exception):
    """The source does not exist here (no ZFS module, no pools, sandbox): report, never invent."""


@dataclass(frozen=True)
class Reading:
    """One source read once: gauges as they are, counters to be turned into rates later."""

    gauges: Metrics = field(default_factory=dict)
    counters: Counters = field(default_factory=dict)
    info: Mapping[str, object] = field(default_factory=dict)


def parse_key_values(text: str, *, scale: Mapping[str, int] | None = None) -> dict[str, int]:
    """Lines of "name value [unit]" (/proc/meminfo, /proc/vmstat) -> {name: int}, units applied."""
    units = scale or {}
    values: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.replace(":", " ").split()
        if len(parts) >= 2 and parts[1].isdigit():
            unit = parts[2] if len(parts) > 2 else ""
            values[parts[0]] = int(parts[1]) * units.get(unit, 1)
    return values
