"""Owner, group and mode of a file system's mountpoint: who may write into a shared dataset.

Storage knows numbers only (uid, gid); the sharing app turns its users and groups into them.
"""

from __future__ import annotations

import os

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from storage import paths, selectors
from storage.validation import fail

MODE_MAX = 0o7777


def dataset_permissions_set(*, name: str, uid: int, gid: int, mode: int) -> None:
    """chown and chmod the mountpoint of file system `name` (not recursive)."""
    if not 0 <= mode <= MODE_MAX:
        raise fail("mode", "Give a mode from 0000 to 7777 (octal), e.g. 0770.")
    mountpoint = selectors.dataset_get(name).mountpoint or ""
    dataset, problem = paths.shared_dataset(mountpoint)
    if dataset != name:
        raise fail("name", problem or f"{name} is not mounted.")
    try:
        # Through a descriptor of the directory itself: a link swapped in is never followed.
        fd = os.open(mountpoint, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            os.fchown(fd, uid, gid)
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
    except OSError as exc:
        message = f"Could not set the owner and mode of {mountpoint}: {exc.strerror}."
        raise ValidationError({NON_FIELD_ERRORS: [message]}) from exc


def dataset_permissions(name: str) -> tuple[int, int, int] | None:
    """(uid, gid, mode) of the file system's mountpoint, or None when it is not mounted."""
    mountpoint = selectors.dataset_get(name).mountpoint or ""
    try:
        info = os.stat(mountpoint, follow_symlinks=False)
    except OSError:
        return None
    return info.st_uid, info.st_gid, info.st_mode & MODE_MAX
