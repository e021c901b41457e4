"""Owner, group and mode of a file system's mountpoint (and, as a job, everything below it).

Storage knows numbers only (uid, gid); the sharing app turns its users and groups into them.
Links are never followed: a link planted in a shared folder cannot hand out /etc.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from storage import registry
from storage.ownership import selectors
from storage.ownership.selectors import MODE_MAX, Ownership, mountpoint_of

_OCTAL = re.compile(r"^0?[0-7]{3,4}$")
# Files take only the read and write bits: a folder's x means "may enter", a file's "may run",
# and set-id or sticky bits mean something else again on a file.
FILE_BITS = 0o666


def parse_mode(text: str, field: str = "mode") -> int:
    """'0770', '770' or '2775' -> the mode; anything else names the field and the rule."""
    if not _OCTAL.match(str(text).strip()):
        raise fail(field, "Give the mode as 3 or 4 octal digits, e.g. 0770 or 2775.")
    return int(str(text).strip(), 8)


def _account_id(ids: Mapping[str, int], text: str, current: int, field: str) -> int:
    """The id of a registered name, or the current id given as a number (left as it is)."""
    if text in ids:
        return ids[text]
    if text.strip() == str(current):
        return current
    kind = "users" if field == "owner" else "groups"
    raise fail(field, f"Choose root or one of the panel's {kind}; “{text}” is not one.")


def wanted_ownership(
    current: Ownership, *, owner: str | None, group: str | None, mode: str | None
) -> Ownership:
    """The ownership asked for: names checked against the registry, None keeps a part as is."""
    known = registry.accounts()
    uid = current.uid if owner is None else _account_id(known.users, owner, current.uid, "owner")
    gid = current.gid if group is None else _account_id(known.groups, group, current.gid, "group")
    return Ownership(uid, gid, current.mode if mode is None else parse_mode(mode))


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


def set_mountpoint(name: str, wanted: Ownership) -> None:
    """Owner and mode of the mountpoint itself; a failure is a form-level ValidationError."""
    mountpoint = mountpoint_of(name)
    try:
        _set(mountpoint, wanted.uid, wanted.gid, wanted.mode, directory=True)
    except OSError as exc:
        message = f"Could not set the owner and mode of {mountpoint}: {exc.strerror}."
        raise ValidationError({NON_FIELD_ERRORS: [message]}) from exc


def start_tree_job(name: str, wanted: Ownership, user: User | AnonymousUser | None = None) -> Job:
    """The job that gives everything below the mountpoint the same owner and mode."""

    return job_start(
        kind="dataset.permissions",
        title=f"Owner and mode of everything in {name}",
        task="storage.dataset_permissions",
        user=user,
        name=name,
        uid=wanted.uid,
        gid=wanted.gid,
        mode=wanted.mode,
    )


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
    wanted = Ownership(uid, gid, mode)
    set_mountpoint(name, wanted)
    return start_tree_job(name, wanted, user) if recursive else None


def ownership_change(
    name: str, *, owner: str | None, group: str | None, mode: str | None
) -> tuple[Ownership, Ownership] | None:
    """(as it is, as asked) for the mountpoint, None when nothing changes; input checked."""
    if owner in (None, "") and group in (None, "") and mode in (None, ""):
        return None
    before = selectors.mountpoint_ownership(selectors.mountpoint_of(name))
    if before is None:
        raise fail("mode", f"{name} is not mounted: its folder has no owner to change.")
    wanted = wanted_ownership(before, owner=owner or None, group=group or None, mode=mode or None)
    return None if wanted == before else (before, wanted)


def tree_ownership(name: str, change: tuple[Ownership, Ownership] | None) -> Ownership:
    """What everything inside gets: the folder's new owner and mode, or its present ones."""
    if change is not None:
        return change[1]
    found = selectors.mountpoint_ownership(selectors.mountpoint_of(name))
    if found is None:
        raise fail("permissions_recursive", f"{name} is not mounted.")
    return found
