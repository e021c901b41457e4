"""Disk jobs: follow the resilver a replace or attach started."""

from __future__ import annotations

from typing import Any

from nasui.jobs import JobReporter, job_task
from storage.engine import get_engine
from storage.zfs import resilver


@job_task("storage.pool_resilver")
def pool_resilver(
    reporter: JobReporter,
    *,
    name: str,
    disk: str,
    new_disk: str,
    hot_spare: bool = False,
    timeout: float = 7 * 24 * 3600,
) -> dict[str, Any]:
    """Follow the resilver a replace or attach started, with progress and time left."""
    engine = get_engine()
    resilver.follow(engine, name, new_disk, reporter.progress, timeout=timeout)
    return resilver.finish(
        engine,
        pool=name,
        disk=disk,
        new_disk=new_disk,
        hot_spare=hot_spare,
        report=reporter.progress,
    )
