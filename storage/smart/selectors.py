"""SMART reads for the Disks page, the API and the temperature graph (cached: smartctl is slow)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from storage.disks import selectors as disk_selectors
from storage.disks.selectors import DiskRow
from storage.engine import get_engine, is_sandbox
from storage.zfs.smart import SmartctlSource, SmartError, SmartReport, SmartSource

log = logging.getLogger(__name__)
CACHE_KEY = "smart:{}"
TEMPERATURES_KEY = "smart:temperatures"
# A report is reused this long; the refresh task renews every disk's sooner than that.
CACHE_SECONDS = 600


@dataclass(frozen=True)
class DiskSmart:
    """A disk row with its SMART report (None when it could not be read) and why not."""

    disk: DiskRow
    smart: SmartReport | None
    error: str = ""


def smart_source() -> SmartSource:
    """smartctl on a real machine; the sandbox's imitation next to its disk images."""
    if is_sandbox():
        from storage.zfs.sandbox.smart import SandboxSmart

        return SandboxSmart(get_engine().shelf)  # type: ignore[attr-defined]
    return SmartctlSource(binary=getattr(settings, "NASUI_SMARTCTL", "smartctl"))


def disk_smart(name: str, *, fresh: bool = False) -> SmartReport:
    """One disk's SMART report, from the cache unless `fresh` (SmartError if unreadable)."""
    key = CACHE_KEY.format(name)
    report: SmartReport | None = None if fresh else cache.get(key)
    if report is None:
        report = smart_source().report(name)
        cache.set(key, report, CACHE_SECONDS)
    return report


def forget(name: str) -> None:
    """Drop a disk's cached report (a self-test was started: its log changes)."""
    cache.delete(CACHE_KEY.format(name))


def disks_with_smart(*, fresh: bool = False) -> list[DiskSmart]:
    """Every whole disk with its SMART report; one unreadable disk does not hide the others."""
    rows = []
    for disk in disk_selectors.disk_list():
        try:
            rows.append(DiskSmart(disk, disk_smart(disk.name, fresh=fresh)))
        except SmartError as exc:
            log.warning("SMART of %s: %s", disk.name, exc)
            rows.append(DiskSmart(disk, None, exc.message))
    return rows


def smart_refresh() -> dict[str, int | None]:
    """Read every disk afresh; keep their temperatures for the monitoring sampler."""
    temperatures = {
        row.disk.name: row.smart.temperature if row.smart else None
        for row in disks_with_smart(fresh=True)
    }
    cache.set(TEMPERATURES_KEY, temperatures, CACHE_SECONDS)
    return temperatures


def cached_temperatures() -> dict[str, int | None]:
    """The temperatures of the last refresh (never runs smartctl: the sampler calls it)."""
    found: dict[str, int | None] | None = cache.get(TEMPERATURES_KEY)
    return dict(found or {})


def cached_health() -> dict[str, str]:
    """Each disk of the last refresh and its SMART verdict ("passed", "failed" or "unknown"),
    from the cached reports (never runs smartctl)."""
    keys = {CACHE_KEY.format(name): name for name in cached_temperatures()}
    reports: dict[str, SmartReport] = cache.get_many(list(keys)) if keys else {}
    return {keys[key]: report.health for key, report in reports.items()}


# At most this many lines on one graph (the series API takes 20 metrics at a time).
CHART_DISKS = 20


def temperature_chart(rows: list[DiskSmart]) -> dict[str, object] | None:
    """The Disks page's temperature graph, shaped for monitoring's chart partial."""
    names = [r.disk.name for r in rows if r.smart and r.smart.temperature is not None]
    if not names:
        return None
    names = names[:CHART_DISKS]
    chart = {
        "key": "disk-temperature",
        "title": "Disk temperature",
        "unit": "°C",
        "note": "Read from SMART every few minutes.",
    }
    return {
        "chart": chart,
        "metrics": ",".join(f"disk.{n}.temperature" for n in names),
        "labels": "|".join(names),
        "range": "1d",
        "unavailable": "",
    }
