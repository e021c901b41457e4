"""What both engines need from the host: one lock across panel processes, a backing's size."""

from __future__ import annotations

import os

from sharing.iscsi.engine.errors import BackingStoreMissing


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
