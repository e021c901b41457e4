"""The collectors' sources on this machine: /proc, and pools from the active ZFS engine."""

from __future__ import annotations

from collections.abc import Callable

from monitoring.collectors import Sources
from monitoring.collectors.pool_io import IOSTAT_ARGV
from storage.engine import get_engine, is_sandbox


def _iostat_runner(engine: object) -> Callable[[], str] | None:
    """`zpool iostat` through the cli engine's runner; the sandbox has no I/O counters."""
    run = getattr(engine, "run", None)
    if is_sandbox() or run is None:
        return None
    return lambda: str(run(list(IOSTAT_ARGV)).stdout)


def local_sources() -> Sources:
    """Sources for the sampler: the real /proc files and the configured ZFS engine."""
    engine = get_engine()
    return Sources(pools=engine, iostat=_iostat_runner(engine))
