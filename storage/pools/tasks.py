"""Pool jobs: create and destroy, run by the worker."""

from __future__ import annotations

from typing import Any

from nasui.jobs import JobReporter, job_task
from storage.engine import get_engine
from storage.zfs.base import PoolLayout


@job_task("storage.pool_create")
def pool_create(
    reporter: JobReporter,
    *,
    name: str,
    vdev_type: str,
    groups: list[list[str]],
    cache: list[str],
    log: list[str],
    spares: list[str],
) -> dict[str, Any]:
    """Create the pool (the service already checked the layout)."""
    layout = PoolLayout(
        type=vdev_type,
        groups=tuple(tuple(g) for g in groups),
        cache=tuple(cache),
        log=tuple(log),
        spares=tuple(spares),
    )
    reporter.progress(10, f"Creating {vdev_type} pool {name} on {len(layout.disks())} disks")
    engine = get_engine()
    engine.create_pool(name, layout)
    pool = engine.get_pool(name)
    return {"pool": name, "size": pool.size, "health": pool.health}


@job_task("storage.pool_destroy")
def pool_destroy(reporter: JobReporter, *, name: str) -> dict[str, str]:
    """Destroy the pool and everything on it."""
    reporter.progress(10, f"Destroying pool {name}")
    get_engine().destroy_pool(name)
    return {"pool": name}
