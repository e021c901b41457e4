"""The panel's own families: jobs, open alerts, replication, and the sample's age."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily, Metric

from monitoring.exporter.engine.snapshot import Snapshot


def panel_families(snap: Snapshot) -> Iterator[Metric]:
    """Jobs by status, open alerts by level, replication age, the newest sample's time."""
    jobs = GaugeMetricFamily("nasui_jobs", "Jobs by status.", labels=["status"])
    for status, count in sorted(snap.jobs.items()):
        jobs.add_metric([status], float(count))
    yield jobs
    alerts = GaugeMetricFamily("nasui_alerts_open", "Open alerts by level.", labels=["level"])
    for level, count in sorted(snap.alerts.items()):
        alerts.add_metric([level], float(count))
    yield alerts
    if snap.replication_ages:
        age = GaugeMetricFamily(
            "nasui_replication_last_success_age_seconds",
            "Seconds since the task's last replication that did not fail (absent: none yet).",
            labels=["task"],
        )
        for task, seconds in sorted(snap.replication_ages.items()):
            if seconds is not None:
                age.add_metric([task], seconds)
        yield age
    if snap.sample_t is not None:
        yield GaugeMetricFamily("nasui_sample_timestamp_seconds",
                                "When the newest stored sample was taken.",
                                value=snap.sample_t)  # fmt: skip
