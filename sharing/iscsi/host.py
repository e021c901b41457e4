"""What both engines need from the host: one lock across panel processes, a backing's size."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from sharing.iscsi.errors import BackingStoreMissing


@contextlib.contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an flock on `path` (its directory made owner-only if new) until the block ends.

    The web workers, the Celery worker and the boot step each build their own engine: the
    lock keeps their start/stop/apply calls from interleaving on the one running target.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def device_size(path: str) -> int:
    """The size in bytes of a file or block device (seeking works for both; stat does not)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.lseek(fd, 0, os.SEEK_END)
    finally:
        os.close(fd)


def backing_size(path: str) -> int:
    """The size a target will export for a backing store, or BackingStoreMissing."""
    try:
        return device_size(path)
    except OSError as exc:
        raise BackingStoreMissing(f"backing store {path}: {exc.strerror}") from exc
