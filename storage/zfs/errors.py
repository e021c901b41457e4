"""Typed errors raised by the ZFS engines, classified from the commands' stderr."""

from __future__ import annotations

import re
from collections.abc import Sequence

from nasui.lib.commands import CommandError


class ZfsError(CommandError):
    """A zpool/zfs/zdb command failed; carries its argv, exit status and stderr."""


class ZfsUnavailable(ZfsError):
    """The ZFS tools or kernel module are missing on this machine."""


class ZfsTimeout(ZfsError):
    """A command did not finish within its timeout (it was killed)."""


class PoolExists(ZfsError):
    """A pool with that name already exists."""


class PoolNotFound(ZfsError):
    """No pool (imported or importable) has that name or guid."""


class PoolBusy(ZfsError):
    """The pool is in use (mounted file systems held open, served zvols)."""


class DatasetExists(ZfsError):
    """A dataset or zvol with that name already exists."""


class DatasetNotFound(ZfsError):
    """No dataset or zvol has that name."""


class DatasetBusy(ZfsError):
    """The dataset or zvol is in use and cannot be destroyed or unmounted."""


class HasChildren(ZfsError):
    """The dataset has children or snapshots: a recursive destroy is needed."""


class HasClones(HasChildren):
    """A snapshot (or a dataset's snapshot) has clones that depend on it; `names` lists them."""

    @property
    def names(self) -> list[str]:
        """The clones OpenZFS listed."""
        return listed_names(self.stderr)


class NewerSnapshots(ZfsError):
    """A rollback needs newer snapshots destroyed first; `names` lists them."""

    creation_order: Sequence[str] = ()

    @property
    def names(self) -> list[str]:
        """The newer snapshots (and bookmarks) OpenZFS listed, oldest first when known."""
        # OpenZFS lists them in its snapshot directory's hash order, which varies from one
        # dataset to the next; the engine supplies the creation order (bookmarks go last).
        rank = {name: index for index, name in enumerate(self.creation_order)}
        return sorted(listed_names(self.stderr), key=lambda n: rank.get(n, len(rank)))


class SnapshotNotFound(DatasetNotFound):
    """No snapshot has that name."""


class InvalidProperty(ZfsError):
    """A property name or value was refused."""


class NoSpace(ZfsError):
    """The pool or a quota has not enough free space for the request."""


class DeviceInUse(ZfsError):
    """A disk is part of a pool, mounted, or otherwise busy."""


class DeviceNotFound(ZfsError):
    """A disk path does not exist."""


class InvalidLayout(ZfsError):
    """A pool layout breaks the rules (disk counts, mixed widths, duplicates)."""


class ReplicationMismatch(InvalidLayout):
    """A new data vdev differs in type or width from the pool's (zpool add without -f)."""


class NoValidReplicas(ZfsError):
    """Taking the disk away would leave its vdev (or the pool) without a complete copy."""


class DeviceTooSmall(ZfsError):
    """The new disk is smaller than the one it would replace or mirror."""


class NotAttachable(ZfsError):
    """A disk can be attached only to a single-disk vdev or a mirror (not to a raidz)."""


class NotDetachable(ZfsError):
    """Only a side of a mirror or of a replacement can be detached: it is not a copy."""


class VolumeShrink(ZfsError):
    """A zvol may only grow: shrinking would destroy the data at its end."""


class MountpointNotEmpty(ZfsError):
    """The new pool's or dataset's mountpoint directory already holds files."""


class WrongKey(ZfsError):
    """The passphrase or key does not open the encryption root."""


class KeyAlreadyLoaded(ZfsError):
    """The dataset's key is loaded already: it is unlocked."""


class KeyNotLoaded(ZfsError):
    """The dataset is locked: its key (or its encryption root's) is not loaded."""


class NotAnEncryptionRoot(ZfsError):
    """Keys are loaded, unloaded and changed on an encryption root, and this is not one."""


class PermissionDenied(ZfsError):
    """The caller may not run this command (not root, delegation missing)."""


# Ordered: the first pattern that matches the stderr decides the class. OpenZFS phrases vary a
# little between versions, so each pattern is the stable part of the message.
_PATTERNS: tuple[tuple[re.Pattern[str], type[ZfsError]], ...] = tuple(
    (re.compile(p, re.IGNORECASE), cls)
    for p, cls in (
        (r"modules are not loaded|/dev/zfs.*(no such|not found)", ZfsUnavailable),
        (r"permission denied|must be (run as )?root", PermissionDenied),
        (r"pool already exists|pool with that name already exists", PoolExists),
        (r"dataset already exists", DatasetExists),
        (r"incorrect key provided", WrongKey),
        (r"key already loaded", KeyAlreadyLoaded),
        (r"keys must be (un)?loaded for encryption root|is not encrypted\.", NotAnEncryptionRoot),
        (r"key already unloaded|key (is )?not loaded|key unavailable", KeyNotLoaded),
        (r"mountpoint .* exists and is not empty", MountpointNotEmpty),
        (r"is part of (active|exported|potentially active) pool|is in use", DeviceInUse),
        (r"contains a (file system|filesystem)|device or resource busy", DeviceInUse),
        (r"has dependent clones|clones of previous snapshots exist", HasClones),
        (r"more recent snapshots or bookmarks exist", NewerSnapshots),
        (r"could not find any snapshots|snapshot does not exist", SnapshotNotFound),
        (r"has children|use '-r' to destroy", HasChildren),
        (r"pool is busy", PoolBusy),
        (r"dataset is busy|target is busy|volume is busy|filesystem is busy", DatasetBusy),
        (r"'[^']+' is busy", DatasetBusy),  # Key unload error: 'tank/secret' is busy.
        (r"no such pool|cannot import '.*': no such pool available", PoolNotFound),
        (r"no pools available to import", PoolNotFound),
        (r"dataset does not exist|no such dataset", DatasetNotFound),
        (r"out of space|not enough space|insufficient (space|replicas)|quota exceeded", NoSpace),
        (r"size is greater than available space|exceeds (the )?(available|quota)", NoSpace),
        (r"no such device|cannot resolve path|No such file or directory", DeviceNotFound),
        (r"bad property|invalid property|invalid option|read-?only property", InvalidProperty),
        (r"must be (a power of 2|a multiple of|at least|less than)|invalid value", InvalidProperty),
        (r"cannot be (set|changed)|unsupported|is not a valid|out of range", InvalidProperty),
        (r"must be one of|must be an? |invalid (name|character)", InvalidProperty),
        (r"no valid replicas", NoValidReplicas),
        (r"device is too small", DeviceTooSmall),
        (r"can only attach to mirrors and top-level disks", NotAttachable),
        (r"only applicable to mirror and replacing vdevs", NotDetachable),
        (r"mismatched replication level", ReplicationMismatch),
        (r"invalid vdev specification|requires at least|mismatched replication", InvalidLayout),
    )
)


def classify(argv: Sequence[str], returncode: int, stderr: str) -> ZfsError:
    """Turn a failed command into the most specific typed error."""
    message = _first_line(stderr) or f"{argv[0] if argv else 'command'} failed"
    for pattern, cls in _PATTERNS:
        if pattern.search(stderr):
            return cls(message, argv=argv, returncode=returncode, stderr=stderr)
    return ZfsError(message, argv=argv, returncode=returncode, stderr=stderr)


def listed_names(stderr: str) -> list[str]:
    """The names OpenZFS lists after its "use '-r' (or '-R') to ..." line."""
    lines = stderr.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("use '-"):
            return [name.strip() for name in lines[index + 1 :] if name.strip()]
    return []


def _first_line(text: str) -> str:
    """The first non-blank line, which in OpenZFS is the "cannot X 'Y': reason" line."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""
