"""Exporter reads: the settings, the token check, and one scrape's snapshot (no zfs, no
smartctl: the newest stored sample, cached listings and a few counts from the database)."""

from __future__ import annotations

import hmac
import time
from datetime import datetime
from typing import Any

from django.db.models import Count, QuerySet

from monitoring.exporter.engine import Snapshot
from monitoring.exporter.engine.config import scrape_config
from monitoring.metrics import selectors as metrics
from monitoring.models import AlertRecord, ExporterSettings, Level
from nasui.models import Job
from nasui.tokens import hash_token_key
from replication.replications.selectors import last_successes
from storage.datasets.selectors import cached_dataset_figures
from storage.smart.selectors import cached_health

# Where the example configuration has Prometheus read the token from.
CREDENTIALS_FILE = "/etc/prometheus/nasui.token"


def exporter_settings() -> ExporterSettings:
    """The one settings row (off, without a token, until changed)."""
    return ExporterSettings.load()


def card(target: str, scheme: str, new_token: str = "") -> dict[str, Any]:
    """What the settings card shows: the row, a new token (once) and an example config."""
    example = scrape_config(target, scheme=scheme, credentials_file=CREDENTIALS_FILE)
    return {"row": exporter_settings(), "new_token": new_token, "example": example}


def token_matches(row: ExporterSettings, given: str) -> bool:
    """Whether `given` is the exporter's token (hashes compared in constant time)."""
    if not row.token_hash or not given:
        return False
    return hmac.compare_digest(hash_token_key(given), row.token_hash)


def _counts(rows: QuerySet[Any], field: str, names: list[str]) -> dict[str, int]:
    """{value of `field`: rows} with every name present (0 when no row has it)."""
    found = dict(rows.order_by().values_list(field).annotate(n=Count("id")))
    return {name: found.get(name, 0) for name in names}


def _ages(ended: dict[str, datetime | None], now: float) -> dict[str, float | None]:
    """Seconds since each time (None stays None)."""
    return {k: (max(now - t.timestamp(), 0.0) if t else None) for k, t in ended.items()}


def snapshot(now: float | None = None) -> Snapshot:
    """Everything one scrape reports."""
    now = time.time() if now is None else now
    sample = metrics.latest_sample()
    listing = cached_dataset_figures()
    return Snapshot(
        sample_t=sample.t if sample else None,
        values=sample.values if sample else {},
        health=sample.info.get("health", {}) if sample else {},
        counters=metrics.latest_counters(),
        datasets_t=listing.get("t"),
        datasets=listing.get("datasets", ()),
        smart=cached_health(),
        jobs=_counts(Job.objects.all(), "status", list(Job.Status.values)),
        alerts=_counts(
            AlertRecord.objects.filter(cleared_at__isnull=True), "level", list(Level.values)
        ),
        replication_ages=_ages(last_successes(), now),
    )
