"""Paths the panel hands to a server (file extents now, SMB and NFS shares next).

A path is resolved first (symlinks and `..` followed), then it must lie strictly inside the
mountpoint of a file system of an imported pool, and never in the panel's own files or the
system's directories. The check works on the resolved path, so a link planted inside a
dataset that points at /etc/shadow is refused as /etc/shadow.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings

from storage.engine import get_engine
from storage.zfs import names
from storage.zfs.base import Dataset

# Never served, even under a dataset mounted at / (root on ZFS): the system's own files.
_SYSTEM = (
    "/etc /usr /bin /sbin /lib /lib64 /boot /root /proc /sys /dev /run /var/lib/nasui /opt/nasui"
)
SYSTEM_DIRS = tuple(Path(p) for p in _SYSTEM.split())
MOUNTPOINT_NONE = ("none", "legacy", "-", "")


def _inside(path: Path, directory: Path) -> bool:
    """True when `path` is `directory` itself or anything below it."""
    return path == directory or directory in path.parents


def real_path(path: str | Path) -> Path:
    """The path with every symlink and `..` resolved (the file need not exist yet)."""
    return Path(os.path.realpath(path))


def _forbidden_dirs() -> list[Path]:
    """The panel's data (database, keys, saved target configuration) and code, and the system's."""
    dirs = [real_path(settings.DATA_DIR), real_path(settings.BASE_DIR), *SYSTEM_DIRS]
    return [d for d in dirs if d != Path("/")]


def _sandbox_dir() -> Path | None:
    """The sandbox engine's directory: its pools live inside the data directory on purpose."""
    if settings.NASUI_ZFS_ENGINE != "sandbox":
        return None
    return real_path(settings.NASUI_SANDBOX_DIR)


def _filesystems() -> list[Dataset]:
    """Every file system of every imported pool (a benchmark's scratch data is never served)."""
    found = get_engine().list_all_datasets()
    return [d for d in found if not d.is_volume and not names.is_scratch(d.name)]


def dataset_mountpoints() -> list[Path]:
    """Resolved mountpoints of every mounted file system of every imported pool."""
    return [
        real_path(d.mountpoint)
        for d in _filesystems()
        if d.mountpoint and d.mountpoint not in MOUNTPOINT_NONE and d.mountpoint.startswith("/")
    ]


def pool_path_problem(path: str) -> str | None:
    """Why the panel must not hand `path` to a server, or None when it lies inside a dataset."""
    if not path or "\0" in path or not path.startswith("/"):
        return "Give an absolute path, e.g. /tank/media/disk.img."
    real = real_path(path)
    mountpoints = dataset_mountpoints()
    if not any(real != m and _inside(real, m) for m in mountpoints):
        return "The path must lie inside a dataset of a pool (links and “..” are followed)."
    return _forbidden_problem(real)


def system_path(path: str) -> bool:
    """True when `path`, resolved, is in the system's or the panel's own files (whether or not
    anything exists there: the answer never tells)."""
    return _forbidden_problem(real_path(path)) is not None


def _forbidden_problem(real: Path) -> str | None:
    """Why a resolved path is one the panel never serves, or None."""
    sandbox = _sandbox_dir()
    for directory in _forbidden_dirs():
        if _inside(real, directory) and not (sandbox and _inside(real, sandbox)):
            return f"The path resolves to {real}, which the panel never shares."
    return None


def shared_dataset(path: str) -> tuple[str | None, str | None]:
    """(file system, None) when `path` is exactly the mountpoint of one, else (None, why not).

    File shares serve a whole dataset: its mountpoint, resolved, so a link or `..` that leads
    elsewhere is judged where it leads.
    """
    if not path or "\0" in path or not path.startswith("/"):
        return None, "Give the dataset's absolute mountpoint, e.g. /tank/media."
    real = real_path(path)
    for dataset in _filesystems():
        mountpoint = dataset.mountpoint or ""
        if mountpoint.startswith("/") and real_path(mountpoint) == real:
            problem = _forbidden_problem(real)
            return (None, problem) if problem else (dataset.name, None)
    why = "is not the mountpoint of a dataset of a pool (links and “..” are followed)."
    return None, f"{path} {why}"


def blocked_by(path: str | Path) -> Path | None:
    """The first folder above `path` that other users may not pass through (no x for others),
    or None. A file server serves a share as each user: behind such a folder no user reaches it.
    """
    for folder in reversed(real_path(path).parents):
        if folder != Path("/") and not folder.stat().st_mode & 0o001:
            return folder
    return None
