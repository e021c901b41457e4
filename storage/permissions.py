"""Owner, group and mode of a file system's mountpoint (and, as a job, everything below it).

Storage knows numbers only (uid, gid); the sharing app turns its users and groups into them.
Links are never followed: a link planted in a shared folder cannot hand out /etc.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.models import Job
from nasui.services import job_start
from storage import paths, selectors
from storage.validation import fail

MODE_MAX = 0o7777
# Files take only the read and write bits: a folder's x means "may enter", a file's "may run",
# and set-id or sticky bits mean something else again on a file.
FILE_BITS = 0o666


def mountpoint_of(name: str) -> str:
    """The file system's own mountpoint, checked like a share's path."""
    mountpoint = selectors.dataset_get(name).mountpoint or ""
    dataset, problem = paths.shared_dataset(mountpoint)
    if dataset != name:
        raise fail("name", problem or f"{name} is not mounted.")
    return mountpoint


def _set(path: str, uid: int, gid: int, mode: int, *, directory: bool) -> None:
    """chown and chmod one entry through a descriptor of it (links are not followed)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | (os.O_DIRECTORY if directory else os.O_NONBLOCK)
    fd = os.open(path, flags)
    try:
        os.fchown(fd, uid, gid)
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def apply_tree(
    root: str, uid: int, gid: int, mode: int, progress: Callable[[int], None] | None = None
) -> int:
    """Owner and mode on every folder and file under `root` (links skipped); returns the count."""
    done = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs:
            entry = os.path.join(folder, name)
            if not os.path.islink(entry):
                _set(entry, uid, gid, mode, directory=True)
        for name in files:
            entry = os.path.join(folder, name)
            if os.path.isfile(entry) and not os.path.islink(entry):
                _set(entry, uid, gid, mode & FILE_BITS, directory=False)
        done += len(dirs) + len(files)
        if progress is not None:
            progress(done)
    return done


def dataset_permissions_set(
    *,
    name: str,
    uid: int,
    gid: int,
    mode: int,
    recursive: bool = False,
    user: User | AnonymousUser | None = None,
) -> Job | None:
    """Set owner and mode of the mountpoint now; with `recursive`, a job does the rest below."""
    if not 0 <= mode <= MODE_MAX:
        raise fail("mode", "Give a mode from 0000 to 7777 (octal), e.g. 0770.")
    mountpoint = mountpoint_of(name)
    try:
        _set(mountpoint, uid, gid, mode, directory=True)
    except OSError as exc:
        message = f"Could not set the owner and mode of {mountpoint}: {exc.strerror}."
        raise ValidationError({NON_FIELD_ERRORS: [message]}) from exc
    if not recursive:
        return None
    from storage import tasks

    return job_start(
        kind="dataset.permissions",
        title=f"Owner and mode of everything in {name}",
        task=tasks.dataset_permissions,
        user=user,
        name=name,
        uid=uid,
        gid=gid,
        mode=mode,
    )


def dataset_permissions(name: str) -> tuple[int, int, int] | None:
    """(uid, gid, mode) of the file system's mountpoint, or None when it is not mounted."""
    mountpoint = selectors.dataset_get(name).mountpoint or ""
    try:
        info = os.stat(mountpoint, follow_symlinks=False)
    except OSError:
        return None
    return info.st_uid, info.st_gid, info.st_mode & MODE_MAX
