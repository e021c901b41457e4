"""The exporter's engine: stored figures (plain data) -> Prometheus metric families."""

from monitoring.exporter.engine.collector import SnapshotCollector, render
from monitoring.exporter.engine.snapshot import Snapshot

__all__ = ["Snapshot", "SnapshotCollector", "render"]
