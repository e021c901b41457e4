"""Snapshots as the engines report them, and the rules for their names."""

from __future__ import annotations

from dataclasses import dataclass

from storage.zfs.errors import InvalidProperty
from storage.zfs.names import COMPONENT, dataset_name_problem

# The user property a periodic snapshot task stamps on each snapshot it makes: pruning
# removes only snapshots carrying its own id, never a user's or another task's.
TASK_PROPERTY = "nasui:task"
# What `zfs diff -F` prints for a change and for a file's type.
CHANGES = {"+": "added", "-": "removed", "M": "modified", "R": "renamed"}
FILE_TYPES = {
    "F": "file",
    "/": "directory",
    "@": "symlink",
    "B": "block device",
    "C": "character device",
    "|": "fifo",
    "=": "socket",
    ">": "door",
    "P": "event port",
}


@dataclass(frozen=True)
class Snapshot:
    """One snapshot (`zfs list -t snapshot`): sizes in bytes, creation as Unix time."""

    name: str  # pool/dataset@snap
    created: int
    used: int  # space only this snapshot holds: freed if it alone is destroyed
    referenced: int  # the dataset's size as the snapshot sees it
    holds: int = 0  # user holds; a held snapshot cannot be destroyed
    clones: tuple[str, ...] = ()  # datasets cloned from it; they block its destruction
    task: str = ""  # the periodic task that made it (the nasui:task property), "" if none

    @property
    def dataset(self) -> str:
        """The dataset or zvol the snapshot belongs to."""
        return self.name.split("@", 1)[0]

    @property
    def short_name(self) -> str:
        """The part after the @."""
        return self.name.split("@", 1)[1]


@dataclass(frozen=True)
class DiffEntry:
    """One line of `zfs diff -F`: what changed on a path since the snapshot."""

    change: str  # added, removed, modified, renamed
    file_type: str  # file, directory, symlink...
    path: str
    new_path: str = ""  # renamed only


def snapshot_name_problem(short_name: str) -> str | None:
    """Why `short_name` (the part after @) cannot name a snapshot, or None when it can.

    OpenZFS also takes spaces; the panel does not, so names work in paths and shell-free
    argument lists alike and read the same in SMB's "Previous versions".
    """
    if not short_name:
        return "Give the snapshot a name."
    if len(short_name) > 200:
        return "At most 200 characters."
    if not COMPONENT.fullmatch(short_name) or short_name in (".", ".."):
        return "Use only letters, digits, underscore, hyphen, colon and period."
    return None


def check_snapshot_name(full_name: str) -> tuple[str, str]:
    """(dataset, short name) of `pool/ds@snap`, or InvalidProperty naming the problem."""
    dataset, at, short = full_name.partition("@")
    if not at:
        raise InvalidProperty(f"invalid snapshot name {full_name!r}: no @")
    problem = dataset_name_problem(dataset) or snapshot_name_problem(short)
    if problem:
        raise InvalidProperty(f"invalid snapshot name {full_name!r}: {problem}")
    return dataset, short
