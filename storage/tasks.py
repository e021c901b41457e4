"""Storage jobs: pool create/destroy, scrub, and the sandbox's space rescan."""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

from nasui.jobs import JobReporter, job_task
from storage.engine import get_engine
from storage.zfs import resilver
from storage.zfs.base import PoolLayout

SCRUB_POLL_SECONDS = 1.0


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


@job_task("storage.pool_scrub")
def pool_scrub(
    reporter: JobReporter, *, name: str, timeout: float = 7 * 24 * 3600
) -> dict[str, Any]:
    """Start a scrub and report its progress until it ends."""
    engine = get_engine()
    engine.scrub_start(name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = engine.scrub_status(name)
        if status.state in ("finished", "canceled"):
            # The last progress line must not keep saying "Scrubbing ...: 69.9% done".
            ended = f"Scrub of {name} {status.state}"
            reporter.progress(100, f"{ended}, {status.errors} error{'s' * (status.errors != 1)}")
            return {"pool": name, "state": status.state, "errors": status.errors}
        done = status.percent_done or 0.0
        reporter.progress(int(min(done, 99.0)), f"Scrubbing {name}: {done:.1f}% done")
        time.sleep(SCRUB_POLL_SECONDS)
    raise TimeoutError(f"the scrub of {name} did not finish within {timeout:.0f} s")


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


@shared_task(name="storage.sandbox_rescan", ignore_result=True)
def sandbox_rescan() -> None:
    """Recompute the sandbox's space figures from what was written since the last scan."""
    get_engine().settle()


@shared_task(name="storage.periodic_snapshots", ignore_result=True)
def periodic_snapshots() -> list[str]:
    """Run the periodic snapshot tasks whose slot has come (a missed one once, at start)."""
    from storage.snapshot_tasks.services import run_due_tasks

    return run_due_tasks()


@shared_task(name="storage.scrub_check", ignore_result=True)
def scrub_check() -> list[str]:
    """Check the pools whose scrub slot has come; scrub those whose last scrub is too old."""
    from storage.scrub.services import run_due_scrubs

    return run_due_scrubs()


@job_task("storage.dataset_permissions")
def dataset_permissions(
    reporter: JobReporter, *, name: str, uid: int, gid: int, mode: int
) -> dict[str, Any]:
    """Owner and mode on everything below a file system's mountpoint."""
    from storage.ownership import services as permissions

    mountpoint = permissions.mountpoint_of(name)
    reporter.progress(5, f"Setting owner and mode under {mountpoint}")
    count = permissions.apply_tree(
        mountpoint, uid, gid, mode, lambda done: reporter.progress(50, f"{done} entries done")
    )
    return {"dataset": name, "entries": count}


# The SMART tasks live with the SMART modules; importing them registers them with the worker.
from storage.smart.tasks import smart_refresh, smart_test_check  # noqa: E402, F401
