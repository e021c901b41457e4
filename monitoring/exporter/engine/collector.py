"""A prometheus_client Collector over one Snapshot, and the text a scrape returns."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from monitoring.exporter.engine.host import disk_families, host_families
from monitoring.exporter.engine.panel import panel_families
from monitoring.exporter.engine.pools import dataset_families, pool_families
from monitoring.exporter.engine.snapshot import Snapshot


class SnapshotCollector(Collector):
    """Yields every family of one scrape's snapshot."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def collect(self) -> Iterator[Metric]:
        """Pools, datasets, host, disks, then the panel's own figures."""
        for families in (pool_families, dataset_families, host_families, disk_families,
                         panel_families):  # fmt: skip
            yield from families(self.snapshot)


def render(snapshot: Snapshot) -> bytes:
    """The Prometheus text exposition of a snapshot (a fresh registry: nothing global)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(SnapshotCollector(snapshot))
    return generate_latest(registry)
