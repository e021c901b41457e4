"""Pool and dataset families (bytes, ratios, health, dedup table) from stored figures."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily, Metric

from monitoring.exporter.engine.snapshot import Snapshot

# zpool's health words; each pool reports 1 for its own and 0 for the others
POOL_STATES = ("ONLINE", "DEGRADED", "FAULTED", "OFFLINE", "UNAVAIL", "REMOVED", "SUSPENDED")
# (sample field, metric name, help, scale): percentages become 0..1 ratios
POOL_FIGURES = (
    ("size", "nasui_pool_size_bytes", "Pool size.", 1.0),
    ("allocated", "nasui_pool_allocated_bytes", "Space allocated in the pool.", 1.0),
    ("free", "nasui_pool_free_bytes", "Free space in the pool.", 1.0),
    ("capacity", "nasui_pool_capacity_ratio", "Share of the pool in use (0-1).", 0.01),
    ("fragmentation", "nasui_pool_fragmentation_ratio", "Free-space fragmentation (0-1).", 0.01),
    ("dedupratio", "nasui_pool_dedup_ratio", "Deduplication ratio.", 1.0),
    ("compressratio", "nasui_pool_compress_ratio", "Compression ratio of the root.", 1.0),
    ("ddt_entries", "nasui_pool_ddt_entries", "Entries in the dedup table.", 1.0),
    ("ddt_in_core", "nasui_pool_ddt_in_core_bytes", "Dedup table size in RAM.", 1.0),
    ("ddt_on_disk", "nasui_pool_ddt_on_disk_bytes", "Dedup table size on disk.", 1.0),
)


def pool_families(snap: Snapshot) -> Iterator[Metric]:
    """One family per pool figure, labelled by pool; a figure a pool lacks is left out."""
    pools = sorted(snap.health)
    for field, name, text, scale in POOL_FIGURES:
        family = GaugeMetricFamily(name, text, labels=["pool"])
        for pool in pools:
            value = snap.values.get(f"pool.{pool}.{field}")
            if value is not None:
                family.add_metric([pool], float(value) * scale)
        yield family
    health = GaugeMetricFamily(
        "nasui_pool_health", "1 for the pool's current health state.", labels=["pool", "state"]
    )
    for pool in pools:
        state = snap.health[pool]
        for known in (*POOL_STATES, *(() if state in POOL_STATES else (state,))):
            health.add_metric([pool, known], 1.0 if known == state else 0.0)
    yield health


def dataset_families(snap: Snapshot) -> Iterator[Metric]:
    """Used and referenced bytes and compression ratio of every dataset and zvol."""
    labels = ["pool", "dataset"]
    used = GaugeMetricFamily("nasui_dataset_used_bytes", "Space used by the dataset "
                             "and its children and snapshots.", labels=labels)  # fmt: skip
    referenced = GaugeMetricFamily(
        "nasui_dataset_referenced_bytes", "Data the dataset itself refers to.", labels=labels
    )
    ratio = GaugeMetricFamily(
        "nasui_dataset_compress_ratio", "Compression ratio of the dataset.", labels=labels
    )
    for name, used_bytes, referenced_bytes, compressratio in snap.datasets:
        label = [name.split("/", 1)[0], name]
        used.add_metric(label, float(used_bytes))
        referenced.add_metric(label, float(referenced_bytes))
        ratio.add_metric(label, float(compressratio))
    yield from (used, referenced, ratio)
    if snap.datasets_t is not None:
        yield GaugeMetricFamily("nasui_datasets_read_timestamp_seconds",
                                "When the dataset figures were read from ZFS.",
                                value=snap.datasets_t)  # fmt: skip
