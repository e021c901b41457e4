"""Following a resilver: progress, and the time left estimated from the scan's own rate."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from storage.zfs.base import PoolStatus, ScrubStatus, ZfsEngine
from storage.zfs.devices import find_leaf
from storage.zfs.errors import DeviceNotFound

POLL_SECONDS = 1.0
Report = Callable[[int, str], None]


@dataclass(frozen=True)
class Sample:
    """How many bytes the scan had issued (written to the new disk's side) at a moment."""

    at: float
    issued: int


def seconds_left(first: Sample, last: Sample, total: int) -> float | None:
    """Time to issue the rest at the rate seen since `first`; None until there is a rate."""
    elapsed, done = last.at - first.at, last.issued - first.issued
    if elapsed <= 0 or done <= 0:
        return None
    return max(0.0, (total - last.issued) * elapsed / done)


def describe_left(seconds: float | None) -> str:
    """'about 3 min left', 'about 40 s left', or 'estimating time left'."""
    if seconds is None:
        return "estimating time left"
    if seconds >= 3600:
        return f"about {seconds / 3600:.1f} h left"
    if seconds >= 90:
        return f"about {round(seconds / 60)} min left"
    return f"about {max(1, round(seconds))} s left"


def progress_line(pool: str, disk: str, scan: ScrubStatus, left: float | None) -> str:
    """The job's message while the resilver runs."""
    done = scan.percent_done or 0.0
    return f"Resilvering {disk} in {pool}: {done:.1f}% done, {describe_left(left)}"


def follow(
    engine: ZfsEngine,
    pool: str,
    disk: str,
    report: Report,
    *,
    timeout: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> ScrubStatus:
    """Report the resilver onto `disk` until it ends; the last scan state is returned."""
    first: Sample | None = None
    deadline = clock() + timeout
    while clock() < deadline:
        status = engine.pool_status(pool)
        scan = status.scan
        if not resilvering(status, disk):
            return scan
        sample = Sample(clock(), scan.issued)
        first = first or sample
        left = seconds_left(first, sample, scan.total)
        report(int(min(scan.percent_done or 0.0, 99.0)), progress_line(pool, disk, scan, left))
        sleep(POLL_SECONDS)
    raise TimeoutError(f"the resilver of {disk} in {pool} did not finish within {timeout:.0f} s")


def resilvering(status: PoolStatus, disk: str) -> bool:
    """Whether the pool is still resilvering onto `disk` (the scan, or the disk's own note)."""
    if status.scan.state == "scanning" and status.scan.function == "resilver":
        return True
    try:
        _section, _parent, leaf = find_leaf(status, disk)
    except DeviceNotFound:
        return False
    return "resilvering" in leaf.note


def still_member(status: PoolStatus, disk: str) -> bool:
    """Whether a disk is still in the pool (a hot spare keeps the disk it replaced)."""
    try:
        find_leaf(status, disk)
    except DeviceNotFound:
        return False
    return True


def finish(
    engine: ZfsEngine, *, pool: str, disk: str, new_disk: str, hot_spare: bool, report: Report
) -> dict[str, Any]:
    """After the resilver: a hot spare that replaced a disk becomes a member for good.

    OpenZFS keeps a used hot spare in a spare-N node beside the disk it replaced until that
    disk is detached; the panel's replace means the old disk goes, so the job detaches it.
    """
    if hot_spare and still_member(engine.pool_status(pool), disk):
        report(99, f"Detaching {disk} from {pool}: {new_disk} takes its place")
        engine.detach_disk(pool, disk)
    status = engine.pool_status(pool)
    report(100, f"{new_disk} resilvered in {pool}; the pool is {status.state}")
    return {
        "pool": pool,
        "disk": disk,
        "new_disk": new_disk,
        "state": status.state,
        "resilvered": status.scan.repaired,
        "errors": status.scan.errors,
    }
