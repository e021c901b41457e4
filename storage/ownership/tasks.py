"""The job that gives everything below a file system's mountpoint its owner and mode."""

from __future__ import annotations

from typing import Any

from nasui.jobs import JobReporter, job_task
from storage.ownership import selectors, services


@job_task("storage.dataset_permissions")
def dataset_permissions(
    reporter: JobReporter, *, name: str, uid: int, gid: int, mode: int
) -> dict[str, Any]:
    """Owner and mode on everything below a file system's mountpoint."""
    mountpoint = selectors.mountpoint_of(name)
    reporter.progress(5, f"Setting owner and mode under {mountpoint}")
    count = services.apply_tree(
        mountpoint, uid, gid, mode, lambda done: reporter.progress(50, f"{done} entries done")
    )
    return {"dataset": name, "entries": count}
