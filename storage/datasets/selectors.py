"""Reads of pools, datasets, zvols and disks shared by pages and the API (ZFS is the truth)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.cache import cache

from nasui.lib.units import format_size
from storage.datasets import selectors as storage
from storage.encryption import selectors as encryption
from storage.engine import get_engine
from storage.zfs import names
from storage.zfs.base import Dataset, PropertyValue
from storage.zfs.errors import ZfsError

SIZE_PROPERTIES = ("recordsize", "volblocksize")


@dataclass(frozen=True)
class DatasetRow:
    """A dataset or zvol with its depth in the tree, for indented tables."""

    dataset: Dataset
    depth: int


@dataclass(frozen=True)
class DatasetTree:
    """A pool's rows, and how many scratch datasets and zvols were left out of them."""

    rows: list[DatasetRow]
    scratch: int


def dataset_tree(root: str) -> DatasetTree:
    """A pool's datasets and zvols in tree order, scratch data left out (one ZFS listing)."""
    found = get_engine().list_datasets(root)
    datasets = sorted(
        (d for d in found if not names.is_scratch(d.name)), key=lambda d: d.name.split("/")
    )
    base = root.count("/")
    rows = [DatasetRow(dataset=d, depth=d.name.count("/") - base) for d in datasets]
    return DatasetTree(rows=rows, scratch=len(found) - len(rows))


def dataset_list(
    pool: str | None = None, *, volumes: bool | None = None, settle: bool = False
) -> list[Dataset]:
    """Datasets and/or zvols of one pool or of all pools; settled: after their writes synced.

    A benchmark's scratch datasets and zvols are left out: nothing may be shared, snapshotted
    or chosen inside them, and they are gone when the benchmark ends.
    """
    engine = get_engine()
    if settle:
        engine.settle(pool)
    listed = engine.list_datasets(pool) if pool else engine.list_all_datasets()
    found = [d for d in listed if not names.is_scratch(d.name)]
    if volumes is not None:
        found = [d for d in found if d.is_volume == volumes]
    return sorted(found, key=lambda d: d.name.split("/"))


def dataset_get(name: str, *, settle: bool = False) -> Dataset:
    """One dataset or zvol (DatasetNotFound if absent); settled: after its pool's writes synced."""
    engine = get_engine()
    if settle:
        engine.settle(name.split("/", 1)[0])
    return engine.get_dataset(name)


def dataset_properties(name: str, properties: tuple[str, ...]) -> dict[str, str]:
    """Locally set values of some properties ("inherit" for inherited or default ones)."""
    found = get_engine().get_properties(name, list(properties))
    values = {}
    for prop, value in found.items():
        values[prop] = value.value if value.source == "local" else "inherit"
    return values


def inherited_values(name: str, properties: tuple[str, ...]) -> dict[str, str]:
    """What choosing "inherit" would give each property, in words: "lz4 from tank".

    An inherited or default value is the dataset's own; for a local one the parent's value
    (and where that comes from) is read. A pool's root inherits ZFS's defaults.
    """
    engine = get_engine()
    found = engine.get_properties(name, list(properties))
    parent = name.rpartition("/")[0]
    local = [prop for prop, value in found.items() if value.source == "local"]
    above = engine.get_properties(parent, local) if parent and local else {}
    words = {}
    for prop, own in found.items():
        value = above.get(prop) if own.source == "local" else own
        words[prop] = _inherit_words(prop, value, parent) if value else "ZFS's default"
    return words


def _inherit_words(prop: str, found: PropertyValue, parent: str) -> str:
    """ "lz4 from tank", "off, the default": a value and where it comes from."""
    value = found.value
    if prop in SIZE_PROPERTIES and value.isdigit():
        value = format_size(int(value))
    if found.source == "local":
        return f"{value} from {parent}"
    if found.source.startswith("inherited from "):
        return f"{value} from {found.source.removeprefix('inherited from ')}"
    if found.source == "default":
        return f"{value}, the default"
    return value


def filesystem_names() -> list[str]:
    """Every file system (pool roots included): the places new datasets and zvols can go."""
    return [d.name for d in dataset_list(volumes=False)]


def zvol_path(name: str) -> Path:
    """Where a zvol's blocks can be read: its device node (a sparse file in the sandbox)."""
    return get_engine().zvol_path(name)


def dataset_path(dataset: str) -> str:
    """Where a shared dataset is mounted ("" when it is gone, not mounted or locked: a locked
    dataset keeps its mountpoint property, and its folder is then an empty one of its parent's
    that a share must not write into)."""
    try:
        found = storage.dataset_get(dataset)
    except ZfsError:
        return ""
    if encryption.is_closed(found):
        return ""
    mountpoint = found.mountpoint
    return mountpoint if mountpoint and mountpoint.startswith("/") else ""


def zvol_device(zvol: str) -> str:
    """Where a served zvol's blocks are opened ("" when it is gone or locked)."""
    try:
        found = storage.dataset_get(zvol)
        return "" if encryption.is_closed(found) else str(get_engine().zvol_path(zvol))
    except ZfsError:
        return ""


def mounted_filesystems() -> list[tuple[str, str]]:
    """(dataset, mountpoint) of every mounted file system: what a share may serve."""
    return [
        (d.name, d.mountpoint)
        for d in dataset_list(volumes=False)
        if d.mountpoint and d.mountpoint.startswith("/")
    ]


def held_snapshots(name: str) -> dict[str, list[str]]:
    """The hold tags of the snapshots in a dataset's tree, for those that have any (one
    `zfs holds` for those; ZfsError if the dataset is gone)."""
    engine = get_engine()
    held = [s.name for s in engine.list_snapshots(name, recursive=True) if s.holds]
    return engine.hold_tags(held) if held else {}


# Every dataset's space figures, kept for readers that must not run zfs (the /metrics exporter
# refreshes them from a beat task at most every minute; a scrape only reads them).
FIGURES_KEY = "datasets:figures"
FIGURES_SECONDS = 60


def dataset_figures_refresh() -> list[tuple[str, int, int, float]]:
    """(name, used, referenced, compressratio) of every dataset and zvol, read from ZFS now and
    kept in the cache for `cached_dataset_figures`."""
    figures = [(d.name, d.used, d.referenced, d.compressratio) for d in dataset_list()]
    cache.set(FIGURES_KEY, {"t": time.time(), "datasets": figures}, FIGURES_SECONDS * 3)
    return figures


def cached_dataset_figures() -> dict[str, Any]:
    """The last refresh: {"t": Unix time, "datasets": [(name, used, referenced, ratio)...]},
    or {} when none is kept (never runs zfs)."""
    found: dict[str, Any] | None = cache.get(FIGURES_KEY)
    return found or {}
