"""Exporter writes: turn /metrics on or off, make its token, note when it was scraped."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from monitoring.exporter.selectors import exporter_settings
from monitoring.models import ExporterSettings
from nasui.tokens import hash_token_key, new_token_key, token_display_prefix
from storage.datasets.selectors import dataset_figures_refresh

# last_scraped_at is written at most this often: a scrape every few seconds is not a write each
SCRAPE_NOTE_SECONDS = 60


def exporter_update(*, enabled: bool) -> ExporterSettings:
    """Turn /metrics on or off (the token is kept)."""
    row = exporter_settings()
    row.enabled = enabled
    row.save(update_fields=["enabled"])
    return row


def exporter_token_create() -> tuple[ExporterSettings, str]:
    """A new token replacing the old one; the secret is returned this once, only its hash kept."""
    key = new_token_key()
    row = exporter_settings()
    row.token_hash = hash_token_key(key)
    row.token_prefix = token_display_prefix(key)
    row.token_created_at = timezone.now()
    row.save(update_fields=["token_hash", "token_prefix", "token_created_at"])
    return row, key


def exporter_scraped(*, now: datetime | None = None) -> bool:
    """Note a scrape, unless one was noted within the last minute (one UPDATE, no read)."""
    now = timezone.now() if now is None else now
    stale = Q(last_scraped_at__isnull=True) | Q(
        last_scraped_at__lt=now - timedelta(seconds=SCRAPE_NOTE_SECONDS)
    )
    return bool(ExporterSettings.objects.filter(stale, pk=1).update(last_scraped_at=now))


def exporter_datasets_refresh() -> int | None:
    """While /metrics is on, read every dataset's figures into the cache scrapes read
    (the beat task's work, once a minute); None when it is off."""
    if not exporter_settings().enabled:
        return None
    return len(dataset_figures_refresh())
