"""What one scrape reports, as plain data gathered by the selectors (no Django here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# (name, used bytes, referenced bytes, compressratio)
DatasetFigures = tuple[str, int, int, float]


@dataclass(frozen=True)
class Snapshot:
    """The newest sample's values and pool health, the kept ARC counters, the cached dataset
    listing and SMART verdicts, and counts from the database."""

    sample_t: float | None = None
    values: Mapping[str, float] = field(default_factory=dict)
    health: Mapping[str, str] = field(default_factory=dict)
    counters: Mapping[str, int] = field(default_factory=dict)
    datasets_t: float | None = None
    datasets: Sequence[DatasetFigures] = ()
    smart: Mapping[str, str] = field(default_factory=dict)  # disk -> passed/failed/unknown
    jobs: Mapping[str, int] = field(default_factory=dict)  # status -> count
    alerts: Mapping[str, int] = field(default_factory=dict)  # level -> open count
    replication_ages: Mapping[str, float | None] = field(default_factory=dict)  # task -> s
