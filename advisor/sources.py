"""What the advisor reads: a dataset, a zvol or a path, checked and resolved to a readable path."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ValidationError

from nasui.lib.units import format_bytes
from storage import paths
from storage.datasets import selectors as storage
from storage.pools import selectors as pool_selectors
from storage.zfs import errors as zfs

KINDS = ("dataset", "zvol", "path")
# Kernel and device trees: reading them is meaningless (or endless) as "data to migrate".
FORBIDDEN_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"), Path("/run"))
PATH_BLOCK_SIZE = 128 * 1024  # the recordsize a new dataset gets: where migrated files would go
PATH_SECTOR_SIZE = 4096  # ashift 12, what the panel creates pools with
PATH_COMPRESSION = "lz4"  # the panel's default for new datasets
MIB = 1024 * 1024
SAMPLE_MIN = 1 * MIB
SAMPLE_MAX = 64 * 1024 * MIB
Problems = dict[str, list[str]]
SYSTEM_FILES = (
    "The advisor reads your data, not the system's or the panel's own files (/etc, /usr, /root,"
    " /var/lib/nasui...): pick a folder you keep data in, such as /mnt/old-nas/photos."
)


@dataclass(frozen=True)
class Source:
    """A checked input: where to read it and how ZFS would cut and store it."""

    kind: str
    name: str
    path: Path
    block_size: int
    sector_size: int
    compression: str  # the setting its blocks are (or would be) written with
    pool: str  # "" for a path


def path_problem(text: str) -> str | None:
    """Why `text` cannot be read as data to try (None when it can)."""
    if not text or not os.path.isabs(text):
        return "Give an absolute path, such as /mnt/old-nas/photos."
    path = Path(os.path.realpath(text))
    if any(path == root or root in path.parents for root in FORBIDDEN_ROOTS):
        return "Paths under /proc, /sys, /dev and /run are not data: pick a folder or a file."
    # Judged by name before anything is looked up, so the answer never tells whether, say,
    # /etc/shadow exists or how big it is.
    if paths.system_path(text):
        return SYSTEM_FILES
    if not path.exists():
        return "Nothing exists at this path."
    if not os.access(path, os.R_OK) or (path.is_dir() and not os.access(path, os.X_OK)):
        return "The panel cannot read this path (permissions)."
    if not (path.is_dir() or path.is_file()):
        return "Pick a folder or a regular file."
    return None


def resolve_source(kind: str, name: str) -> Source:
    """The Source for a dataset, zvol or path; ValidationError naming the field otherwise."""
    if kind not in KINDS:
        raise ValidationError({"source_kind": [f"Choose one of: {', '.join(KINDS)}."]})
    if kind == "path":
        problem = path_problem(name)
        if problem:
            raise ValidationError({"source": [problem]})
        real = Path(os.path.realpath(name))
        return Source(kind, name, real, PATH_BLOCK_SIZE, PATH_SECTOR_SIZE, PATH_COMPRESSION, "")
    return _zfs_source(kind, name)


def _zfs_source(kind: str, name: str) -> Source:
    """A dataset (read at its mountpoint) or a zvol (read through its device)."""
    try:
        dataset = storage.dataset_get(name)
        pool = pool_selectors.pool_get(dataset.pool)
    except zfs.ZfsError:
        raise ValidationError({"source": [f"No {kind} is named {name!r}."]}) from None
    if dataset.is_volume != (kind == "zvol"):
        raise ValidationError({"source": [f"{name} is not a {kind}."]})
    sector = pool.sector_size or PATH_SECTOR_SIZE
    if dataset.is_volume:
        path = storage.zvol_path(name)
        return Source(kind, name, path, dataset.volblocksize or 16384, sector,
                      dataset.compression, dataset.pool)  # fmt: skip
    if not dataset.mountpoint or not Path(dataset.mountpoint).is_dir():
        raise ValidationError({"source": [f"{name} is not mounted, so its files cannot be read."]})
    return Source(kind, name, Path(dataset.mountpoint), dataset.recordsize or PATH_BLOCK_SIZE,
                  sector, dataset.compression, dataset.pool)  # fmt: skip


def check_source(problems: Problems, kind: str, name: str) -> Source | None:
    """The Source, or None with what is wrong added to `problems` (to report all at once)."""
    try:
        return resolve_source(kind, name)
    except ValidationError as exc:
        problems.update(exc.message_dict)
        return None


def check_sample(problems: Problems, sample_bytes: int) -> None:
    """A sample size within the advisor's bounds."""
    if not SAMPLE_MIN <= sample_bytes <= SAMPLE_MAX:
        low, high = format_bytes(SAMPLE_MIN), format_bytes(SAMPLE_MAX)
        problems["sample_bytes"] = [f"The sample must be between {low} and {high}."]


def source_choices() -> dict[str, list[str]]:
    """Datasets and zvols the forms offer, by kind."""
    found = storage.dataset_list()
    return {
        "dataset": [d.name for d in found if not d.is_volume],
        "zvol": [d.name for d in found if d.is_volume],
    }
