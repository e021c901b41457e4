"""Per-pool space, ratios and dedup table, from the active ZFS engine (cli or sandbox)."""

from __future__ import annotations

from typing import Protocol

from monitoring.metrics.engine.base import Metrics
from storage.zfs.base import Dataset, DedupTable, Pool, PoolStatus


class PoolSource(Protocol):
    """The part of a ZfsEngine the pool collector reads."""

    def list_pools(self) -> list[Pool]:
        """All imported pools."""
        ...

    def get_dataset(self, name: str) -> Dataset:
        """One dataset (the pool's root dataset carries its compressratio)."""
        ...

    def dedup_table(self, pool: str) -> DedupTable:
        """The pool's DDT summary."""
        ...

    def pool_status(self, name: str) -> PoolStatus:
        """The pool's vdev tree (read only for a pool not ONLINE, to word its alert)."""
        ...


def metric(pool: str, field: str) -> str:
    """The metric name of one pool figure, e.g. pool.tank.allocated."""
    return f"pool.{pool}.{field}"


def pool_metrics(pool: Pool, compressratio: float | None, ddt: DedupTable | None) -> Metrics:
    """Space, ratios and DDT figures of one pool (bytes, percent, ratios)."""
    values: Metrics = {
        metric(pool.name, "size"): float(pool.size),
        metric(pool.name, "allocated"): float(pool.allocated),
        metric(pool.name, "free"): float(pool.free),
        metric(pool.name, "capacity"): float(pool.capacity),
        metric(pool.name, "dedupratio"): pool.dedupratio,
    }
    if pool.fragmentation is not None:
        values[metric(pool.name, "fragmentation")] = float(pool.fragmentation)
    if compressratio is not None:
        values[metric(pool.name, "compressratio")] = compressratio
    if ddt is not None:
        values[metric(pool.name, "ddt_entries")] = float(ddt.entries)
        values[metric(pool.name, "ddt_in_core")] = float(ddt.size_in_core)
        values[metric(pool.name, "ddt_on_disk")] = float(ddt.size_on_disk)
    return values


def disk_states(status: PoolStatus) -> dict[str, str]:
    """Each disk of the pool that is not ONLINE, and its state (spares have their own words)."""
    tops = (*status.vdevs, *status.logs, *status.cache, *status.special, *status.dedup)
    return {leaf.name: leaf.state for top in tops for leaf in top.leaves if leaf.state != "ONLINE"}
