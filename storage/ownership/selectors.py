"""Reads of ownership: a file system's folder's owner, group and mode, its ACL type, in names."""

from __future__ import annotations

import os
from dataclasses import dataclass

from nasui.validation import fail
from storage import paths, registry
from storage.engine import get_engine

MODE_MAX = 0o7777


@dataclass(frozen=True)
class Ownership:
    """Owner, group and mode of a folder."""

    uid: int
    gid: int
    mode: int

    @property
    def mode_text(self) -> str:
        """The mode as four octal digits, e.g. 0770."""
        return f"{self.mode:04o}"


# How `zfs create` leaves a new file system's folder.
ROOT_OWNED = Ownership(0, 0, 0o755)


def mountpoint_of(name: str) -> str:
    """The file system's own mountpoint, checked like a share's path."""
    mountpoint = get_engine().get_dataset(name).mountpoint or ""
    dataset, problem = paths.shared_dataset(mountpoint)
    if dataset != name:
        raise fail("name", problem or f"{name} is not mounted.")
    return mountpoint


def dataset_permissions(name: str) -> tuple[int, int, int] | None:
    """(uid, gid, mode) of the file system's mountpoint, or None when it is not mounted."""
    found = mountpoint_ownership(get_engine().get_dataset(name).mountpoint)
    return (found.uid, found.gid, found.mode) if found else None


def mountpoint_ownership(mountpoint: str | None) -> Ownership | None:
    """Owner, group and mode read from a mountpoint (stat), None when there is none to read."""
    if not mountpoint or mountpoint in paths.MOUNTPOINT_NONE:
        return None
    try:
        info = os.stat(mountpoint, follow_symlinks=False)
    except OSError:
        return None
    return Ownership(info.st_uid, info.st_gid, info.st_mode & MODE_MAX)


def acltype_of(name: str) -> str | None:
    """The file system's acltype as ZFS reports it (posix or off), None for a zvol."""
    found = get_engine().get_properties(name, ["acltype"]).get("acltype")
    return found.value if found and found.value != "-" else None


def describe(ownership: Ownership) -> dict[str, str | int]:
    """Names (or the bare numbers when no account has them) and the octal mode, for display."""
    known = registry.accounts()
    return {
        "owner": registry.name_of(known.users, ownership.uid) or str(ownership.uid),
        "group": registry.name_of(known.groups, ownership.gid) or str(ownership.gid),
        "uid": ownership.uid,
        "gid": ownership.gid,
        "mode": ownership.mode_text,
    }
