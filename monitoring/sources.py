"""The collectors' sources on this machine: /proc, and pools from the active ZFS engine."""

from __future__ import annotations

from monitoring.collectors import Sources
from monitoring.collectors.pool_io import IOSTAT_INTERVAL
from storage.engine import get_engine
from storage.smart.selectors import cached_temperatures


def local_sources() -> Sources:
    """Sources for the sampler: the real /proc files and the configured ZFS engine."""
    engine = get_engine()
    return Sources(
        pools=engine,
        iostat=lambda: engine.pool_iostat(IOSTAT_INTERVAL),
        disk_temperatures=cached_temperatures,
    )
