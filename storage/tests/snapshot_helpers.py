"""Helpers of the snapshot tests: take snapshots by name, list a dataset's."""

from __future__ import annotations

from storage.snapshots import selectors as snapshot_selectors
from storage.snapshots import services as snapshot_services


def names(dataset: str = "tank/home") -> list[str]:
    """The short names of a dataset's snapshots, oldest first."""
    return [s.short_name for s in snapshot_selectors.snapshot_list(dataset)]


def snap(*short: str, dataset: str = "tank/home") -> None:
    """Take snapshots of `dataset` with these names, in order."""
    for name in short:
        snapshot_services.snapshot_create(dataset=dataset, name=name)
